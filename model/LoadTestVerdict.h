#pragma once

#include "core/loadtest/LoadTestReport.h"

#include <QString>

namespace semscope::model {

// The one line an operator reads first about a load-test run: did it stay safe? For a run that
// was meant to show a leak (a `slots` holder that crashes), whether crashed slots came back.
struct LoadTestVerdict {
    enum class Tone { Neutral, Good, Bad };
    QString text;
    Tone tone = Tone::Neutral;
};

// While the run goes on (counts seen live; the final sweep may find more).
LoadTestVerdict liveVerdict(const QString &label, const core::LoadTestProgress &progress, bool aboutLeaks);
// From the finished report.
LoadTestVerdict finalVerdict(const core::LoadTestReport &report, bool aboutLeaks);

} // namespace semscope::model
