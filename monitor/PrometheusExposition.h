#pragma once

#include "MetricsSnapshot.h"

#include <QByteArray>
#include <QString>

namespace semscope::monitor {

// Prometheus text exposition format 0.0.4: what `serve --metrics` answers on /metrics. Pure: the
// same snapshot always gives the same text.
//
// Every family has its HELP and TYPE lines and its samples together; values are in base units
// (seconds); counters end in `_total`. Each sample carries `backend` and `endpoint`, per-semaphore
// ones also `kind` and `name`. Samples whose value is not known (the limit of a semaphore without
// one, the expiry of holders without leases) are left out rather than shown as 0.
QByteArray prometheusExposition(const MetricsSnapshot &snapshot);

// The Content-Type header value that goes with it.
QByteArray prometheusContentType();

// A label value as the format wants it inside double quotes: backslash, double quote and line
// feed escaped.
QString escapeLabelValue(const QString &value);

} // namespace semscope::monitor
