#include "InvalidateSessionDialog.h"

#include "model/StatusColors.h"

#include "EnvironmentBadge.h"
#include "core/Duration.h"
#include "core/PrintableText.h"
#include "model/HolderTableModel.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace semscope::ui {

using namespace semscope::core;
using model::HolderTableModel;

namespace {
QString detailOf(const Holder &h, const QString &name) {
    return HolderTableModel::detail(h, {name});
}
} // namespace

QString InvalidateSessionDialog::consequences(const Holder &holder) {
    const bool deletes = detailOf(holder, QStringLiteral("behavior")) == QLatin1String("delete");
    return (deletes ? QObject::tr("Consul destroys the session and <b>deletes every key it holds</b> (its "
                                  "behavior is <i>delete</i>)")
                    : QObject::tr("Consul destroys the session and <b>releases every key it holds</b> (its "
                                  "behavior is <i>release</i>)")) +
           QObject::tr(": the owner loses this slot <b>and every other lock or semaphore taken with the same "
                       "session</b>. It is not told; it finds out when it next renews the session, and until "
                       "then it may go on working as if it still held them. Unlike Force-release this is not "
                       "checked against what you see: whatever the session holds now is let go.");
}

QString InvalidateSessionDialog::sessionConsequences(const QString &behavior) {
    const bool deletes = behavior == QLatin1String("delete");
    return (deletes ? QObject::tr("Consul destroys the session and <b>deletes every key it holds</b> (its "
                                  "behavior is <i>delete</i>)")
                    : QObject::tr("Consul destroys the session and <b>releases every key it holds</b> (its "
                                  "behavior is <i>release</i>)")) +
           QObject::tr(
               ": its owner loses <b>every lock or semaphore taken with it</b>, those listed above and "
               "any outside the semaphores semscope found. It is not told; it finds out when it next "
               "renews the session, and until then it may go on working as if it still held them.");
}

InvalidateSessionDialog::InvalidateSessionDialog(model::OperatorActions *actions, const SemaphoreRef &ref,
                                                 const ObservedHolder &holder, QWidget *parent)
    : QDialog(parent)
    , m_actions(actions)
    , m_ref(ref)
    , m_holder(holder) {
    setWindowTitle(tr("Invalidate session — %1").arg(ref.name));
    const auto &cfg = actions->controller()->config();
    const Holder &h = holder.holder;
    const QString sid = model::OperatorActions::sessionOf(h);
    const QString name = detailOf(h, QStringLiteral("sessionName"));
    QString where = holderStateName(h.state);
    if (h.rank)
        where += tr(", rank %1").arg(*h.rank);
    // Who and what, like Consul's own lock-session card.
    build(tr("<b>Invalidate the Consul session</b> %1 holding %2 <b>%3</b> on %4")
              .arg((name.isEmpty() ? sid : name).toHtmlEscaped(), kindName(ref.kind).toHtmlEscaped(),
                   ref.name.toHtmlEscaped(), cfg.name.toHtmlEscaped()),
          {{tr("Session ID:"), sid},
           {tr("Session name:"), name},
           {tr("Node:"), detailOf(h, QStringLiteral("node"))},
           {tr("Session TTL:"), detailOf(h, QStringLiteral("ttl"))},
           {tr("On invalidation:"), detailOf(h, QStringLiteral("behavior"))},
           {tr("Health checks:"), detailOf(h, QStringLiteral("checks"))},
           {tr("In this semaphore:"), where},
           {h.acquiredAtMs ? tr("Held for:") : tr("Seen for:"),
            formatDurationMs(std::max<qint64>(0, holder.ageMs))}},
          consequences(h), ref.name, tr("the semaphore name"));
}

InvalidateSessionDialog::InvalidateSessionDialog(model::OperatorActions *actions,
                                                 const model::SessionEntry &session, QWidget *parent)
    : QDialog(parent)
    , m_actions(actions)
    , m_session(session) {
    const auto &info = session.info;
    setWindowTitle(tr("Invalidate session — %1").arg(printableServerText(session.label(), 80)));
    const auto &cfg = actions->controller()->config();
    QStringList holds;
    for (const model::SessionHolding &h : session.holdings)
        holds << printableServerText(h.text());
    build(tr("<b>Invalidate the Consul session</b> %1 on %2")
              .arg(printableServerText(session.label(), 120).toHtmlEscaped(), cfg.name.toHtmlEscaped()),
          {{tr("Session ID:"), info.id},
           {tr("Session name:"), printableServerText(info.name)},
           {tr("Node:"), printableServerText(info.node)},
           {tr("Session TTL:"), info.ttl.isEmpty() ? tr("none") : printableServerText(info.ttl)},
           {tr("On invalidation:"), printableServerText(info.behavior)},
           {tr("Health checks:"),
            printableServerText((info.nodeChecks + info.serviceChecks).join(QStringLiteral(", ")))},
           {tr("Seen in:"), holds.isEmpty() ? tr("none of the semaphores semscope found here")
                                            : holds.join(QLatin1Char('\n'))}},
          sessionConsequences(info.behavior), session.label(), tr("the session name"));
}

void InvalidateSessionDialog::build(const QString &titleHtml, const QList<QPair<QString, QString>> &rows,
                                    const QString &consequencesHtml, const QString &confirmWord,
                                    const QString &confirmWhat) {
    setObjectName(QStringLiteral("invalidateSessionDialog"));
    m_confirmWord = confirmWord;
    const auto &cfg = m_actions->controller()->config();
    auto *layout = new QVBoxLayout(this);

    auto *head = new QHBoxLayout;
    auto *title = new QLabel(titleHtml, this);
    title->setWordWrap(true);
    auto *badge = new EnvironmentBadge(this);
    badge->setEnvironment(cfg.environment, cfg.readOnly);
    head->addWidget(title, 1);
    head->addWidget(badge);
    layout->addLayout(head);

    auto *form = new QFormLayout;
    for (const auto &[label, value] : rows) {
        if (value.isEmpty())
            continue;
        auto *l = new QLabel(value, this);
        l->setTextFormat(Qt::PlainText);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        l->setWordWrap(true);
        form->addRow(label, l);
    }
    layout->addLayout(form);

    auto *what = new QLabel(this);
    what->setObjectName(QStringLiteral("consequences"));
    what->setWordWrap(true);
    what->setText(QStringLiteral("<p><b>%1</b> %2</p>").arg(tr("What this does:"), consequencesHtml));
    layout->addWidget(what);

    if (m_actions->needsTypedConfirmation()) {
        auto *prompt = new QLabel(tr("This is a <b>production</b> connection. Type %1 "
                                     "<b><code>%2</code></b> to confirm:")
                                      .arg(confirmWhat, confirmWord.toHtmlEscaped()),
                                  this);
        prompt->setWordWrap(true);
        layout->addWidget(prompt);
        m_confirm = new QLineEdit(this);
        m_confirm->setObjectName(QStringLiteral("confirmName"));
        m_confirm->setPlaceholderText(confirmWord);
        layout->addWidget(m_confirm);
        connect(m_confirm, &QLineEdit::textChanged, this, &InvalidateSessionDialog::updateConfirm);
    }

    m_result = new QLabel(this);
    m_result->setObjectName(QStringLiteral("result"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_result);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_invalidateButton = m_buttons->addButton(tr("Invalidate session"), QDialogButtonBox::DestructiveRole);
    m_invalidateButton->setObjectName(QStringLiteral("invalidateButton"));
    m_invalidateButton->setStyleSheet(
        QStringLiteral("QPushButton:enabled { color: white; background: #c62828; "
                       "padding: 4px 12px; }"));
    // The style sheet's padding is not in the button's size hint: without room the label is clipped.
    m_invalidateButton->setMinimumWidth(
        m_invalidateButton->fontMetrics().horizontalAdvance(m_invalidateButton->text()) + 40);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_invalidateButton, &QPushButton::clicked, this, &InvalidateSessionDialog::start);

    if (!m_actions->canWrite())
        m_result->setText(tr("This connection is read-only: no session can be invalidated from here."));
    updateConfirm();
    resize(620, sizeHint().height());
}

void InvalidateSessionDialog::updateConfirm() {
    bool ok = m_actions->canWrite() && !m_started;
    if (m_confirm)
        ok = ok && !m_confirmWord.isEmpty() && m_confirm->text().trimmed() == m_confirmWord;
    m_invalidateButton->setEnabled(ok);
}

void InvalidateSessionDialog::start() {
    if (m_started)
        return;
    m_started = true;
    m_invalidateButton->setEnabled(false);
    if (m_confirm)
        m_confirm->setEnabled(false);
    m_result->setText(tr("Invalidating…"));
    const QString typed = m_confirm ? m_confirm->text() : QString();
    auto shown = [this](MaintenanceResult r) { showOutcome(r); };
    if (m_session)
        m_actions->invalidateSession(*m_session, typed, this, shown);
    else
        m_actions->invalidateSession(m_ref, m_holder.holder, typed, this, shown);
}

void InvalidateSessionDialog::showOutcome(const MaintenanceResult &r) {
    QString text;
    QString color;
    if (r.ok) {
        m_outcome = QStringLiteral("invalidated");
        text = tr("Invalidated: the session is gone and Consul let go of what it held. The holder "
                  "disappears from the list at the next change.");
        color = model::toneText(model::Tone::Good).name();
    } else if (r.message.startsWith(QLatin1String("no session"))) {
        m_outcome = QStringLiteral("gone");
        text = tr("Gone: the session had already ended, nothing was done.");
        color = model::toneText(model::Tone::Muted).name();
    } else {
        m_outcome = r.message.startsWith(QLatin1String("refused")) ? QStringLiteral("refused")
                                                                   : QStringLiteral("error");
        text = tr("Not invalidated: %1").arg(r.message);
        color = model::toneText(model::Tone::Bad).name();
    }
    m_result->setText(text);
    m_result->setStyleSheet(QStringLiteral("QLabel { color: %1; font-weight: bold; }").arg(color));
    m_buttons->setStandardButtons(QDialogButtonBox::Close);
    connect(m_buttons->button(QDialogButtonBox::Close), &QPushButton::clicked, this, &QDialog::accept);
    m_invalidateButton->hide();
    Q_EMIT answered(m_outcome);
}

} // namespace semscope::ui
