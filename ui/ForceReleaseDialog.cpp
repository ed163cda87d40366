#include "ForceReleaseDialog.h"

#include "core/SnapshotRules.h"
#include "model/StatusColors.h"

#include "EnvironmentBadge.h"
#include "core/CountText.h"
#include "core/Duration.h"
#include "core/HolderStateText.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace semscope::ui {

using namespace semscope::core;

namespace {
enum Column { HolderCol, WhereCol, TokenCol, SinceCol, TtlCol, StateCol, ClientCol, OutcomeCol };
} // namespace

QString ForceReleaseDialog::consequences(Kind kind) {
    const QString notTold =
        QObject::tr("The holder is not told. If its process is still running it will go on "
                    "believing it holds the slot while another client may be admitted at "
                    "once: two clients can then be inside the protected section together.");
    switch (kind) {
    case Kind::Slots:
        return notTold + QLatin1Char(' ') +
               QObject::tr("Its slot number goes back to the free list; the holder's own release later finds "
                           "nothing to release.");
    case Kind::Fair:
    case Kind::Zset:
    case Kind::Leased:
    case Kind::NodeSemaphore:
    case Kind::RedissonPermitExpirable:
        return notTold + QLatin1Char(' ') +
               QObject::tr(
                   "Its next refresh reports the lease as lost, so a well-behaved client stops there.");
    case Kind::Lock:
    case Kind::NodeMutex:
    case Kind::RedissonLock:
        return notTold + QLatin1Char(' ') +
               QObject::tr("The lock key is deleted only if it still holds this "
                           "holder's value.");
    case Kind::Consul:
    case Kind::ConsulMutex:
        return notTold + QLatin1Char(' ') +
               QObject::tr(
                   "It is removed from .lock with a check-and-set on the version you saw; its session "
                   "is left alone (use Invalidate session to end the session itself).");
    case Kind::RedissonSemaphore:
        return notTold;
    }
    return notTold;
}

ForceReleaseDialog::ForceReleaseDialog(model::OperatorActions *actions, const SemaphoreRef &ref,
                                       QList<ObservedHolder> holders, std::optional<qint64> observedVersion,
                                       QWidget *parent)
    : QDialog(parent)
    , m_actions(actions)
    , m_ref(ref)
    , m_holders(std::move(holders))
    , m_version(observedVersion) {
    setObjectName(QStringLiteral("forceReleaseDialog"));
    setWindowTitle(tr("Force-release — %1").arg(ref.name));
    const auto &cfg = actions->controller()->config();
    auto *layout = new QVBoxLayout(this);

    auto *head = new QHBoxLayout;
    auto *title = new QLabel(tr("<b>Force-release %1</b> of %2 <b>%3</b> on %4")
                                 .arg(countText(m_holders.size(), tr("holder"), tr("holders")),
                                      kindName(ref.kind).toHtmlEscaped(), ref.name.toHtmlEscaped(),
                                      cfg.name.toHtmlEscaped()),
                             this);
    title->setWordWrap(true);
    auto *badge = new EnvironmentBadge(this);
    badge->setEnvironment(cfg.environment, cfg.readOnly);
    head->addWidget(title, 1);
    head->addWidget(badge);
    layout->addLayout(head);

    m_list = new QTreeWidget(this);
    m_list->setObjectName(QStringLiteral("holders"));
    m_list->setRootIsDecorated(false);
    m_list->setHeaderLabels({tr("Holder"), tr("Slot / rank"), tr("Token"), tr("Held / seen for"), tr("TTL"),
                             tr("State"), tr("Client"), tr("Outcome")});
    QStringList connected;
    for (const auto &o : m_holders) {
        const Holder &h = o.holder;
        QString where;
        if (h.slot)
            where = tr("slot %1").arg(*h.slot);
        else if (h.rank)
            where = tr("rank %1").arg(*h.rank);
        QString since = formatDurationMs(std::max<qint64>(0, o.ageMs));
        if (h.acquiredAtMs)
            since += QStringLiteral(" (") +
                     QDateTime::fromMSecsSinceEpoch(*h.acquiredAtMs).toString(QStringLiteral("HH:mm:ss")) +
                     QLatin1Char(')');
        const QString ttl = !o.ttlMs        ? tr("no TTL")
                            : *o.ttlMs <= 0 ? tr("expired %1 ago").arg(formatDurationMs(-*o.ttlMs))
                                            : formatDurationMs(*o.ttlMs);
        const QString client =
            o.client ? livenessSummary(*o.client, QDateTime::currentMSecsSinceEpoch()) : QString();
        auto *item =
            new QTreeWidgetItem(m_list, {h.id, where, h.token ? QString::number(*h.token) : QString(), since,
                                         ttl, holderStateName(h.state), client, QString()});
        item->setToolTip(StateCol, holderStateDescription(h.state, m_ref.kind));
        if (o.client) {
            item->setToolTip(ClientCol, o.client->evidence);
            if (o.client->state == ClientLiveness::State::Connected) {
                item->setForeground(ClientCol, model::toneText(model::Tone::Bad));
                connected << h.id;
            }
        }
    }
    m_list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_list->setMinimumHeight(90);
    layout->addWidget(m_list, 1);

    // The one fact that turns a routine clean-up into two clients inside the protected section.
    m_stillConnected = new QLabel(this);
    m_stillConnected->setObjectName(QStringLiteral("clientStillConnected"));
    m_stillConnected->setWordWrap(true);
    m_stillConnected->setStyleSheet(
        QStringLiteral("color: %1;").arg(model::toneText(model::Tone::Bad).name()));
    const QString who = connected.join(QStringLiteral(", ")).toHtmlEscaped();
    m_stillConnected->setText(
        (connected.size() == 1
             ? tr("<b>The client of %1 is still connected</b>: it may still be working.").arg(who)
             : tr("<b>The clients of %1 are still connected</b>: they may still be working.").arg(who)) +
        QLatin1Char(' ') +
        tr("Releasing lets another client in while it runs. Prefer asking its owner to release, or stopping "
           "it first."));
    m_stillConnected->setVisible(!connected.isEmpty());
    layout->addWidget(m_stillConnected);

    auto *what = new QLabel(this);
    what->setObjectName(QStringLiteral("consequences"));
    what->setWordWrap(true);
    what->setText(QStringLiteral("<p><b>%1</b> %2</p><p>%3</p>")
                      .arg(tr("What this does:"), consequences(ref.kind).toHtmlEscaped(),
                           tr("Nothing is changed if a holder is no longer exactly what is shown above (it "
                              "re-acquired, got a new token or slot, or the semaphore changed): you then see "
                              "<i>changed since you looked</i> and can look again.")));
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
        connect(m_confirm, &QLineEdit::textChanged, this, &ForceReleaseDialog::updateConfirm);
    }

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("summary"));
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_releaseButton = m_buttons->addButton(tr("Force-release"), QDialogButtonBox::DestructiveRole);
    m_releaseButton->setObjectName(QStringLiteral("forceReleaseButton"));
    m_releaseButton->setStyleSheet(QStringLiteral("QPushButton:enabled { color: white; background: #c62828; "
                                                  "padding: 4px 12px; }"));
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_releaseButton, &QPushButton::clicked, this, &ForceReleaseDialog::start);

    if (!actions->canWrite()) {
        m_summary->setText(tr("This connection is read-only: nothing can be released from here."));
        m_releaseButton->setEnabled(false);
    }
    updateConfirm();
    resize(720, 420);
    // What the operator types next is the name: a keystroke that lands in the holder list is lost.
    if (m_confirm)
        m_confirm->setFocus();
}

void ForceReleaseDialog::updateConfirm() {
    bool ok = m_actions->canWrite() && !m_started && !m_holders.isEmpty();
    if (m_confirm)
        ok = ok && model::OperatorActions::confirmationMatches(m_ref, m_confirm->text());
    m_releaseButton->setEnabled(ok);
}

void ForceReleaseDialog::start() {
    if (m_started)
        return;
    m_started = true;
    m_releaseButton->setEnabled(false);
    if (m_confirm)
        m_confirm->setEnabled(false);
    m_outcomes = QStringList(m_holders.size(), QString());
    m_summary->setText(tr("Releasing…"));
    const QString typed = m_confirm ? m_confirm->text() : QString();
    for (int i = 0; i < m_holders.size(); ++i) {
        m_actions->forceRelease(m_ref, m_holders.at(i).holder, m_version, typed, this,
                                [this, i](ForceReleaseResult r) { showOutcome(i, r); });
    }
}

void ForceReleaseDialog::showOutcome(int index, const ForceReleaseResult &result) {
    QString text;
    QColor color;
    switch (result.status) {
    case ForceReleaseResult::Status::Released:
        m_outcomes[index] = QStringLiteral("released");
        text = tr("released");
        color = model::toneText(model::Tone::Good);
        break;
    case ForceReleaseResult::Status::Changed:
        m_outcomes[index] = QStringLiteral("changed");
        text = tr("changed since you looked — nothing done");
        color = model::toneText(model::Tone::Caution);
        break;
    case ForceReleaseResult::Status::Gone:
        m_outcomes[index] = QStringLiteral("gone");
        text = tr("gone — it had already left");
        color = model::toneText(model::Tone::Muted);
        break;
    case ForceReleaseResult::Status::Error:
        m_outcomes[index] = result.message.startsWith(QLatin1String("refused")) ? QStringLiteral("refused")
                                                                                : QStringLiteral("error");
        text = tr("error: %1").arg(result.message);
        color = model::toneText(model::Tone::Bad);
        break;
    }
    if (result.status != ForceReleaseResult::Status::Error)
        text = outcomeWithMessage(text, result.message);
    if (auto *item = m_list->topLevelItem(index)) {
        item->setText(OutcomeCol, text);
        item->setForeground(OutcomeCol, color);
        item->setToolTip(OutcomeCol, text);
    }
    ++m_done;
    if (m_done == m_holders.size()) {
        const int releasedCount = int(m_outcomes.count(QStringLiteral("released")));
        const int changed = int(m_outcomes.count(QStringLiteral("changed")));
        const int gone = int(m_outcomes.count(QStringLiteral("gone")));
        QString summary = tr("%1 released").arg(releasedCount);
        if (changed)
            summary += tr(", %1 changed since you looked (nothing done: look again)").arg(changed);
        if (gone)
            summary += tr(", %1 already gone").arg(gone);
        const int failed = int(m_holders.size()) - releasedCount - changed - gone;
        if (failed)
            summary += tr(", %1 failed").arg(failed);
        m_summary->setText(summary + QLatin1Char('.'));
        m_buttons->setStandardButtons(QDialogButtonBox::Close);
        QPushButton *close = m_buttons->button(QDialogButtonBox::Close);
        connect(close, &QPushButton::clicked, this, &QDialog::accept);
        m_releaseButton->hide();
        // Read, then Return: the result closes from the keyboard.
        close->setDefault(true);
        close->setFocus();
        Q_EMIT released();
    }
}

} // namespace semscope::ui
