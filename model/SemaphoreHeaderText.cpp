#include "SemaphoreHeaderText.h"

#include "core/Duration.h"

#include <QCoreApplication>
#include <algorithm>

namespace semscope::model {

namespace {
QString tr(const char *text) {
    return QCoreApplication::translate("semscope::model::SemaphoreHeaderText", text);
}
} // namespace

Tone usageTone(qint64 used, qint64 limit) {
    if (used > limit)
        return Tone::Bad;
    const double ratio = double(used) / double(std::max<qint64>(1, limit));
    return ratio >= 0.8 ? Tone::Caution : Tone::Good;
}

SemaphoreHeaderText semaphoreHeaderText(const core::Snapshot &s) {
    using core::LimitSource;
    SemaphoreHeaderText out;
    const qint64 used = s.usedCount();
    out.limitFromProfile = s.limitSource != LimitSource::Stored;
    if (!s.limit) {
        out.limit = tr("Limit <b>unknown</b> — not stored in this layout");
        out.limitToolTip = tr("Set it with Edit profile so usage and over-limit holders can be shown.");
        out.gaugeFormat = tr("%1 used / limit unknown").arg(used);
        return out;
    }
    const qint64 limit = *s.limit;
    out.limit = tr("Limit <b>%1</b> (%2)").arg(limit).arg(core::limitSourceName(s.limitSource));
    out.limitToolTip = s.limitSource == LimitSource::Stored
                           ? tr("The limit is stored with the semaphore.")
                           : tr("This layout does not store its limit; it comes from the semaphore's "
                                "profile (%1).")
                                 .arg(core::limitSourceName(s.limitSource));
    out.gaugeMaximum = int(std::max<qint64>(1, limit));
    out.gaugeValue = int(std::min(used, limit));
    out.gaugeFormat = used > limit ? tr("%1 / %2 used — OVER THE LIMIT").arg(used).arg(limit)
                                   : tr("%1 / %2 used").arg(used).arg(limit);
    out.gaugeTone = usageTone(used, limit);
    return out;
}

QString semaphorePlaceText(const QString &connection, const QString &endpoint,
                           const core::DiscoveredSemaphore &found, const QString &servingMaster) {
    QString text = tr("on %1 · %2").arg(connection, endpoint);
    if (found.slot >= 0 && !found.node.isEmpty())
        text += tr(" · master %1, slot %2").arg(found.node).arg(found.slot);
    else if (!servingMaster.isEmpty())
        text += QStringLiteral(" · ") + servingMaster;
    return text;
}

QString warningsText(const QStringList &warnings) {
    if (warnings.isEmpty())
        return {};
    return QStringLiteral("⚠ ") + warnings.join(QStringLiteral("\n⚠ "));
}

QString lastReadText(qint64 agoMs, bool watching, bool paused) {
    const QString ago = core::formatDurationMs(std::max<qint64>(0, agoMs));
    QString text = watching ? tr("watching · last change %1 ago").arg(ago) : tr("read %1 ago").arg(ago);
    if (paused)
        text += tr(" · paused");
    return text;
}

bool isReadLate(qint64 agoMs, bool watching, bool paused, int intervalMs) {
    return !paused && !watching && agoMs > std::max(5000, 3 * intervalMs);
}

} // namespace semscope::model
