#include "InvalidateSessionDialog.h"

#include "model/StatusColors.h"

#include "EnvironmentBadge.h"
#include "core/Duration.h"
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

InvalidateSessionDialog::InvalidateSessionDialog(model::OperatorActions *actions, const SemaphoreRef &ref,
                                                 const ObservedHolder &holder, QWidget *parent)
    : QDialog(parent)
    , m_actions(actions)
    , m_ref(ref)
    , m_holder(holder) {
    setObjectName(QStringLiteral("invalidateSessionDialog"));
    setWindowTitle(tr("Invalidate session — %1").arg(ref.name));
    const auto &cfg = actions->controller()->config();
    const Holder &h = holder.holder;
    const QString sid = model::OperatorActions::sessionOf(h);
    const QString name = detailOf(h, QStringLiteral("sessionName"));
    auto *layout = new QVBoxLayout(this);

    auto *head = new QHBoxLayout;
    auto *title =
        new QLabel(tr("<b>Invalidate the Consul session</b> %1 holding %2 <b>%3</b> on %4")
                       .arg((name.isEmpty() ? sid : name).toHtmlEscaped(), kindName(ref.kind).toHtmlEscaped(),
                            ref.name.toHtmlEscaped(), cfg.name.toHtmlEscaped()),
                   this);
    title->setWordWrap(true);
    auto *badge = new EnvironmentBadge(this);
    badge->setEnvironment(cfg.environment, cfg.readOnly);
    head->addWidget(title, 1);
    head->addWidget(badge);
    layout->addLayout(head);

    // Who and what, like Consul's own lock-session card.
    auto *form = new QFormLayout;
    auto add = [this, form](const QString &label, const QString &value) {
        if (value.isEmpty())
            return;
        auto *l = new QLabel(value, this);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        l->setWordWrap(true);
        form->addRow(label, l);
    };
    add(tr("Session ID:"), sid);
    add(tr("Session name:"), name);
    add(tr("Node:"), detailOf(h, QStringLiteral("node")));
    add(tr("Session TTL:"), detailOf(h, QStringLiteral("ttl")));
    add(tr("On invalidation:"), detailOf(h, QStringLiteral("behavior")));
    add(tr("Health checks:"), detailOf(h, QStringLiteral("checks")));
    QString where = holderStateName(h.state);
    if (h.rank)
        where += tr(", rank %1").arg(*h.rank);
    add(tr("In this semaphore:"), where);
    add(h.acquiredAtMs ? tr("Held for:") : tr("Seen for:"),
        formatDurationMs(std::max<qint64>(0, holder.ageMs)));
    layout->addLayout(form);

    auto *what = new QLabel(this);
    what->setObjectName(QStringLiteral("consequences"));
    what->setWordWrap(true);
    what->setText(QStringLiteral("<p><b>%1</b> %2</p>").arg(tr("What this does:"), consequences(h)));
    layout->addWidget(what);

    if (actions->needsTypedConfirmation()) {
        auto *prompt = new QLabel(tr("This is a <b>production</b> connection. Type the semaphore name "
                                     "<b><code>%1</code></b> to confirm:")
                                      .arg(ref.name.toHtmlEscaped()),
                                  this);
        prompt->setWordWrap(true);
        layout->addWidget(prompt);
        m_confirm = new QLineEdit(this);
        m_confirm->setObjectName(QStringLiteral("confirmName"));
        m_confirm->setPlaceholderText(ref.name);
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
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_invalidateButton, &QPushButton::clicked, this, &InvalidateSessionDialog::start);

    if (!actions->canWrite())
        m_result->setText(tr("This connection is read-only: no session can be invalidated from here."));
    updateConfirm();
    resize(620, sizeHint().height());
}

void InvalidateSessionDialog::updateConfirm() {
    bool ok = m_actions->canWrite() && !m_started;
    if (m_confirm)
        ok = ok && model::OperatorActions::confirmationMatches(m_ref, m_confirm->text());
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
    m_actions->invalidateSession(m_ref, m_holder.holder, m_confirm ? m_confirm->text() : QString(), this,
                                 [this](MaintenanceResult r) { showOutcome(r); });
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
