#pragma once

#include "StatusColors.h"
#include "core/SemaphoreStore.h"

#include <optional>

namespace semscope::model {

// How full a semaphore is, as a colour: Bad over the limit, Caution from 80 %, Good below. The one
// rule for the page's gauge and the list's usage bars.
Tone usageTone(qint64 used, qint64 limit);

// What the semaphore page's header says of one read: the limit and where it comes from, and the
// used/limit gauge. Plain data, so the wording is tested without a widget.
struct SemaphoreHeaderText {
    QString limit; // rich text: "Limit <b>5</b> (stored)"
    QString limitToolTip;
    int gaugeMaximum = 1;
    int gaugeValue = 0;
    QString gaugeFormat;           // "3 / 5 used", "6 / 5 used — OVER THE LIMIT"
    std::optional<Tone> gaugeTone; // none while the limit is unknown: the gauge stays plain
    bool limitFromProfile = false; // the layout does not store its limit: Edit profile sets it
};
SemaphoreHeaderText semaphoreHeaderText(const core::Snapshot &snapshot);

// "on <connection> · <address>", then where the semaphore is served: "master <node>, slot <n>" on
// a Redis Cluster (from discovery), else the master serving the connection when it is known.
QString semaphorePlaceText(const QString &connection, const QString &endpoint,
                           const core::DiscoveredSemaphore &found, const QString &servingMaster);

// Every warning of the semaphore, one "⚠ " line each; empty when there is none.
QString warningsText(const QStringList &warnings);

// "read 2 s ago" (or, watched, "watching · last change 2 s ago"), "· paused" when paused.
QString lastReadText(qint64 agoMs, bool watching, bool paused);
// A read far older than the interval: the server is slow or gone. A watch is quiet while nothing
// changes and a paused page reads nothing, so neither is ever late.
bool isReadLate(qint64 agoMs, bool watching, bool paused, int intervalMs);

} // namespace semscope::model
