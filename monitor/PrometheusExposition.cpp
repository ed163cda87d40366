#include "PrometheusExposition.h"

#include "HolderEvent.h"

#include <QLocale>
#include <QStringList>
#include <functional>

namespace semscope::monitor {

namespace {

// HELP text escapes only backslash and line feed.
QString escapeHelp(const QString &text) {
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        if (c == QLatin1Char('\\'))
            out += QLatin1String("\\\\");
        else if (c == QLatin1Char('\n'))
            out += QLatin1String("\\n");
        else
            out += c;
    }
    return out;
}

QString number(qint64 value) {
    return QString::number(value);
}

// Shortest text that reads back as the same double (Go's strconv.ParseFloat reads it).
QString number(double value) {
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

using Labels = QList<std::pair<QString, QString>>;

class Writer {
public:
    void family(const QString &name, const QString &type, const QString &help) {
        m_text += QLatin1String("# HELP ") + name + QLatin1Char(' ') + escapeHelp(help) + QLatin1Char('\n');
        m_text += QLatin1String("# TYPE ") + name + QLatin1Char(' ') + type + QLatin1Char('\n');
    }

    void sample(const QString &name, const Labels &labels, const QString &value) {
        m_text += name;
        if (!labels.isEmpty()) {
            m_text += QLatin1Char('{');
            for (qsizetype i = 0; i < labels.size(); ++i) {
                if (i > 0)
                    m_text += QLatin1Char(',');
                m_text += labels.at(i).first + QLatin1String("=\"") + escapeLabelValue(labels.at(i).second) +
                          QLatin1Char('"');
            }
            m_text += QLatin1Char('}');
        }
        m_text += QLatin1Char(' ') + value + QLatin1Char('\n');
    }

    QByteArray text() const { return m_text.toUtf8(); }

private:
    QString m_text;
};

} // namespace

QString escapeLabelValue(const QString &value) {
    QString out;
    out.reserve(value.size());
    for (const QChar c : value) {
        if (c == QLatin1Char('\\'))
            out += QLatin1String("\\\\");
        else if (c == QLatin1Char('"'))
            out += QLatin1String("\\\"");
        else if (c == QLatin1Char('\n'))
            out += QLatin1String("\\n");
        else
            out += c;
    }
    return out;
}

QByteArray prometheusContentType() {
    return QByteArrayLiteral("text/plain; version=0.0.4; charset=utf-8");
}

QByteArray prometheusExposition(const MetricsSnapshot &snapshot) {
    Writer w;
    const Labels source = {{QStringLiteral("backend"), backendLabel(snapshot.backend)},
                           {QStringLiteral("endpoint"), snapshot.endpoint}};
    const auto semaphoreLabels = [&source](const SemaphoreMetrics &m) {
        Labels labels = source;
        labels.append({QStringLiteral("kind"), core::kindName(m.kind)});
        labels.append({QStringLiteral("name"), m.name});
        return labels;
    };

    // One gauge family per semaphore value; `value` gives nothing for an unknown value.
    const auto gaugeFamily =
        [&](const QString &name, const QString &help,
            const std::function<std::optional<QString>(const SemaphoreMetrics &)> &value) {
            w.family(name, QStringLiteral("gauge"), help);
            for (const SemaphoreMetrics &m : snapshot.semaphores) {
                if (const std::optional<QString> v = value(m))
                    w.sample(name, semaphoreLabels(m), *v);
            }
        };

    gaugeFamily(QStringLiteral("semscope_semaphore_limit"),
                QStringLiteral("How many permits the semaphore grants at once (left out when unknown)."),
                [](const SemaphoreMetrics &m) -> std::optional<QString> {
                    return m.limit ? std::optional<QString>(number(*m.limit)) : std::nullopt;
                });
    gaugeFamily(
        QStringLiteral("semscope_semaphore_used"),
        QStringLiteral("Permits taken by holders: live, expired but present, stale and over the limit."),
        [](const SemaphoreMetrics &m) -> std::optional<QString> { return number(m.used); });
    gaugeFamily(QStringLiteral("semscope_semaphore_waiters"),
                QStringLiteral("Contenders queued for a permit without holding one."),
                [](const SemaphoreMetrics &m) -> std::optional<QString> { return number(m.waiters); });
    gaugeFamily(
        QStringLiteral("semscope_semaphore_stale_holders"),
        QStringLiteral("Holders whose owner is gone or overdue: lease expired but still present, Consul "
                       "session gone, or a lease-less slots holder held longer than the stuck threshold."),
        [](const SemaphoreMetrics &m) -> std::optional<QString> { return number(m.staleHolders); });
    gaugeFamily(
        QStringLiteral("semscope_semaphore_over_limit_holders"),
        QStringLiteral("Holders recorded beyond the semaphore's limit."),
        [](const SemaphoreMetrics &m) -> std::optional<QString> { return number(m.overLimitHolders); });
    gaugeFamily(
        QStringLiteral("semscope_semaphore_oldest_holder_age_seconds"),
        QStringLiteral("Age of the oldest holder: since its acquire where the layout records one, else "
                       "since semscope first saw it."),
        [](const SemaphoreMetrics &m) -> std::optional<QString> {
            return m.oldestHolderAgeSeconds ? std::optional<QString>(number(*m.oldestHolderAgeSeconds))
                                            : std::nullopt;
        });
    gaugeFamily(QStringLiteral("semscope_semaphore_soonest_expiry_seconds"),
                QStringLiteral("Time until the first holder's lease runs out (negative: overdue)."),
                [](const SemaphoreMetrics &m) -> std::optional<QString> {
                    return m.soonestExpirySeconds ? std::optional<QString>(number(*m.soonestExpirySeconds))
                                                  : std::nullopt;
                });

    const QString events = QStringLiteral("semscope_holder_events_total");
    w.family(events, QStringLiteral("counter"),
             QStringLiteral("Holder events seen since the exporter started, by event."));
    QStringList eventNames = allEventNames();
    for (auto it = snapshot.holderEvents.cbegin(); it != snapshot.holderEvents.cend(); ++it) {
        if (!eventNames.contains(it.key()))
            eventNames << it.key();
    }
    for (const QString &event : std::as_const(eventNames)) {
        Labels labels = source;
        labels.append({QStringLiteral("event"), event});
        w.sample(events, labels, number(snapshot.holderEvents.value(event, 0)));
    }

    w.family(QStringLiteral("semscope_scrape_errors_total"), QStringLiteral("counter"),
             QStringLiteral("Failed discoveries and failed semaphore reads since the exporter started."));
    w.sample(QStringLiteral("semscope_scrape_errors_total"), source, number(snapshot.scrapeErrors));

    if (snapshot.discoveryDurationSeconds) {
        w.family(QStringLiteral("semscope_discovery_duration_seconds"), QStringLiteral("gauge"),
                 QStringLiteral("How long the latest discovery of semaphores took."));
        w.sample(QStringLiteral("semscope_discovery_duration_seconds"), source,
                 number(*snapshot.discoveryDurationSeconds));
    }

    w.family(QStringLiteral("semscope_semaphores"), QStringLiteral("gauge"),
             QStringLiteral("Semaphores read in the latest round."));
    w.sample(QStringLiteral("semscope_semaphores"), source, number(qint64(snapshot.semaphores.size())));
    return w.text();
}

} // namespace semscope::monitor
