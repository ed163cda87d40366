#include "FailoverVerdictView.h"

#include "model/StatusColors.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace semscope::ui {

namespace {
enum VerdictTone { Neutral, Good, Bad };

QLabel *valueLabel(QWidget *parent, const QString &objectName) {
    auto *label = new QLabel(QStringLiteral("—"), parent);
    label->setObjectName(objectName);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    return label;
}

QString tokenText(const std::optional<qint64> &token) {
    return token ? QString::number(*token) : QStringLiteral("—");
}
} // namespace

FailoverVerdictView::FailoverVerdictView(QWidget *parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("failoverVerdicts"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *naive = new QGroupBox(tr("Naive: grants trusted on asynchronous replication"), this);
    auto *safe = new QGroupBox(tr("Replica-acknowledged: each grant waits for 1 replica (WAIT)"), this);
    m_naive = buildColumn(QStringLiteral("naive"), {}, naive);
    m_safe = buildColumn(QStringLiteral("safe"), {}, safe);
    layout->addWidget(naive, 1);
    layout->addWidget(safe, 1);
}

FailoverVerdictView::Column FailoverVerdictView::buildColumn(const QString &prefix, const QString &,
                                                             QWidget *parent) {
    Column c;
    auto *box = new QVBoxLayout(parent);
    c.verdict = new QLabel(parent);
    c.verdict->setObjectName(prefix + QStringLiteral("Verdict"));
    c.verdict->setTextFormat(Qt::PlainText);
    c.verdict->setWordWrap(true);
    c.verdict->setMargin(6);
    box->addWidget(c.verdict);
    auto *form = new QFormLayout;
    c.overAdmissions = valueLabel(parent, prefix + QStringLiteral("OverAdmissions"));
    c.overAdmissions->setToolTip(tr("Moments when more clients held the lock (limit 1) than it allows"));
    form->addRow(tr("Over-admissions:"), c.overAdmissions);
    c.tokens = valueLabel(parent, prefix + QStringLiteral("Tokens"));
    c.tokens->setToolTip(tr("Fencing tokens of client A (before the failover) and client B (after it). B's "
                            "must be above A's, or a resource that checks tokens cannot tell them apart."));
    form->addRow(tr("Fencing tokens:"), c.tokens);
    c.refused = valueLabel(parent, prefix + QStringLiteral("Refused"));
    c.refused->setToolTip(tr("Grants the store gave back because no replica acknowledged them in time"));
    form->addRow(tr("Refused grants:"), c.refused);
    c.latency = valueLabel(parent, prefix + QStringLiteral("Latency"));
    c.latency->setToolTip(tr("How long client A's acquire took, the WAIT included: the latency price"));
    form->addRow(tr("Client A's acquire:"), c.latency);
    box->addLayout(form);
    auto *what = new QLabel(tr("<b>What happened</b>"), parent);
    box->addWidget(what);
    c.steps = new QLabel(parent);
    c.steps->setObjectName(prefix + QStringLiteral("Steps"));
    c.steps->setTextFormat(Qt::PlainText);
    c.steps->setWordWrap(true);
    c.steps->setTextInteractionFlags(Qt::TextSelectableByMouse);
    c.steps->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    box->addWidget(c.steps, 1);
    setVerdict(c, tr("Not run yet"), Neutral);
    return c;
}

void FailoverVerdictView::setVerdict(Column &column, const QString &text, int tone) {
    // The load-test verdict's colours: strong fills under white text, legible in either theme.
    QString color = palette().color(QPalette::Text).name();
    QString background = model::toneBackground(model::Tone::Muted, palette()).name();
    if (tone == Good || tone == Bad) {
        color = QStringLiteral("#ffffff");
        background = tone == Good ? QStringLiteral("#2e7d32") : QStringLiteral("#c62828");
    }
    column.verdict->setText(text);
    column.verdict->setStyleSheet(
        QStringLiteral("QLabel { color: %1; background: %2; font-weight: bold; }").arg(color, background));
}

void FailoverVerdictView::begin() {
    for (Column *c : {&m_naive, &m_safe}) {
        setVerdict(*c, tr("Waiting for its turn …"), Neutral);
        for (QLabel *l : {c->overAdmissions, c->tokens, c->refused, c->latency})
            l->setText(QStringLiteral("—"));
        c->steps->clear();
    }
    setVerdict(m_naive, tr("Starting its master, replica and sentinel …"), Neutral);
}

void FailoverVerdictView::addStep(const QString &line) {
    const QString naivePrefix = QStringLiteral("naive: ");
    const QString safePrefix = QStringLiteral("replica-acknowledged: ");
    Column *c = nullptr;
    QString text = line;
    if (line.startsWith(naivePrefix)) {
        c = &m_naive;
        text = line.mid(naivePrefix.size());
    } else if (line.startsWith(safePrefix)) {
        c = &m_safe;
        text = line.mid(safePrefix.size());
        if (m_safe.steps->text().isEmpty())
            setVerdict(m_safe, tr("Running …"), Neutral);
    }
    if (!c)
        return;
    if (c == &m_naive && m_naive.steps->text().isEmpty())
        setVerdict(m_naive, tr("Running …"), Neutral);
    const QString before = c->steps->text();
    c->steps->setText(before.isEmpty() ? QString(QStringLiteral("• ") + text)
                                       : QString(before + QStringLiteral("\n• ") + text));
}

void FailoverVerdictView::showReport(const redis::FailoverLostLock::Report &report) {
    showSide(m_naive, report.naive, false);
    showSide(m_safe, report.safe, true);
}

void FailoverVerdictView::showSide(Column &column, const redis::FailoverLostLock::Side &side, bool safeSide) {
    QString steps;
    for (const QString &s : side.steps)
        steps += (steps.isEmpty() ? QStringLiteral("• ") : QStringLiteral("\n• ")) + s;
    if (!side.ok())
        steps += (steps.isEmpty() ? QString() : QStringLiteral("\n")) +
                 (side.error == QLatin1String("cancelled") ? tr("Stopped: every process it started is gone.")
                                                           : tr("The run failed: %1").arg(side.error));
    column.steps->setText(steps);
    if (!side.ok()) {
        setVerdict(column, side.error == QLatin1String("cancelled") ? tr("Cancelled") : tr("Could not run"),
                   Neutral);
        return;
    }
    column.overAdmissions->setText(QString::number(side.overAdmissions));
    const bool backwards = side.tokenViolations > 0;
    column.tokens->setText(
        tr("A %1, B %2%3")
            .arg(tokenText(side.aToken), tokenText(side.bToken))
            .arg(backwards ? tr(" — B's is not above A's: the counter went back") : QString()));
    column.refused->setText(QString::number(side.refusedGrants));
    column.latency->setText(safeSide ? tr("%1 ms (it waited for the replica, up to %2 ms)")
                                           .arg(side.aLatencyMs)
                                           .arg(redis::FailoverLostLock::kReplicaTimeoutMs)
                                     : tr("%1 ms (the master's answer alone)").arg(side.aLatencyMs));
    const bool unsafe = side.overAdmissions > 0 || side.tokenViolations > 0;
    if (unsafe) {
        QStringList damage;
        if (side.overAdmissions > 0)
            damage << (side.overAdmissions == 1 ? tr("1 over-admission (A and B both hold it)")
                                                : tr("%1 over-admissions").arg(side.overAdmissions));
        if (backwards)
            damage << tr("B's token not above A's");
        setVerdict(column, tr("UNSAFE: %1").arg(damage.join(QStringLiteral("; "))), Bad);
    } else
        setVerdict(column,
                   tr("SAFE: 0 over-admissions, 0 token violations; price: %1 refused grants")
                       .arg(side.refusedGrants),
                   Good);
}

} // namespace semscope::ui
