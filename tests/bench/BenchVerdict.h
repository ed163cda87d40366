#pragma once

// What every bench in tests/bench prints and returns (issue 30 item 5): each figure beside its
// reference measured in the same run and the ratio, PASS or FAIL per goal, the machine's load while
// it ran (a figure from a 2-core machine busy with builds is no figure of the code alone), and as its
// last line the verdict. The exit code follows the verdict: 0 when every goal was met, 1 when one was
// missed, so that no bench returns success while its goal is missed.

#include <QFile>
#include <QString>
#include <QStringList>
#include <QTextStream>
#include <QThread>

namespace semscope::bench {

class BenchVerdict {
public:
    explicit BenchVerdict(QTextStream &out)
        : m_out(out) {}

    // "   name: 1234 unit   reference 5678 unit (what)   ratio 0.22"; a reference of 0 or less (not
    // measured) prints the figure alone and says so.
    void figure(const QString &name, double value, const QString &referenceName, double reference,
                const QString &unit = QString(), int decimals = 0) {
        m_out << "  " << name << ": " << number(value, decimals) << unit;
        if (reference > 0.0)
            m_out << "   vs " << referenceName << " " << number(reference, decimals) << unit << "   ratio "
                  << QString::number(value / reference, 'f', 2);
        else
            m_out << "   (" << referenceName << " not measured in this run)";
        m_out << "\n";
        m_out.flush();
    }

    // One goal, judged; returns `met`.
    bool goal(const QString &text, bool met) {
        m_out << "  " << (met ? "PASS " : "FAIL ") << text << "\n";
        m_out.flush();
        ++m_goals;
        if (!met)
            m_missed << text;
        return met;
    }

    // A goal that could not be judged in this run (its reference is not installed, a setup did not
    // run): it counts as missed, since nothing showed it met.
    void unjudged(const QString &text, const QString &why) {
        m_out << "  FAIL " << text << " (not judged: " << why << ")\n";
        m_out.flush();
        ++m_goals;
        m_missed << text;
    }

    // The load average over the last minute and the cores, e.g. "load 3.12 1.90 1.02 on 2 cores".
    static QString machineLoad() {
        QFile file(QStringLiteral("/proc/loadavg"));
        QString load = QStringLiteral("unknown");
        if (file.open(QIODevice::ReadOnly)) {
            const QList<QByteArray> fields = file.readAll().split(' ');
            if (fields.size() >= 3)
                load = QString::fromLatin1(fields.at(0) + ' ' + fields.at(1) + ' ' + fields.at(2));
        }
        return QStringLiteral("load %1 on %2 cores").arg(load).arg(QThread::idealThreadCount());
    }

    void printLoad(const QString &when) {
        m_out << "machine " << when << ": " << machineLoad() << "\n";
        m_out.flush();
    }

    // The last line, and the exit code: 0 when every goal was met.
    int finish() {
        printLoad(QStringLiteral("at the end"));
        if (m_goals == 0) {
            m_out << "verdict: FAIL (no goal was judged)\n";
            m_out.flush();
            return 1;
        }
        if (m_missed.isEmpty())
            m_out << "verdict: PASS (" << m_goals << " of " << m_goals << " goals met)\n";
        else
            m_out << "verdict: FAIL (" << m_missed.size() << " of " << m_goals
                  << " goals missed: " << m_missed.join(QStringLiteral("; ")) << ")\n";
        m_out.flush();
        return m_missed.isEmpty() ? 0 : 1;
    }

private:
    static QString number(double v, int decimals) { return QString::number(v, 'f', decimals); }

    QTextStream &m_out;
    int m_goals = 0;
    QStringList m_missed;
};

} // namespace semscope::bench
