#include "AcquireDialog.h"

#include "core/Duration.h"
#include "model/OperatorActions.h"
#include "model/StatusColors.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace semscope::ui {

namespace {
// The store clamps WAIT to this: it holds up the connection meanwhile.
constexpr qint64 kMaxReplicaTimeoutMs = 5000;
} // namespace

AcquireDialog::AcquireDialog(const QString &semaphore, const QString &defaultHolder, QWidget *parent)
    : QDialog(parent) {
    setObjectName(QStringLiteral("acquireDialog"));
    setWindowTitle(tr("Acquire a slot of %1").arg(semaphore));
    // Wide enough for an answer's sentence per line or two (a narrow dialog wraps it into a column).
    setMinimumWidth(fontMetrics().averageCharWidth() * 64);
    auto *form = new QFormLayout(this);
    m_holder = new QLineEdit(defaultHolder, this);
    m_holder->setObjectName(QStringLiteral("holder"));
    form->addRow(tr("&Holder id:"), m_holder);
    m_ttl = new QLineEdit(QStringLiteral("30s"), this);
    m_ttl->setObjectName(QStringLiteral("ttl"));
    m_ttl->setPlaceholderText(tr("the layout's own"));
    // The same rule as semscope-cli's --ttl (core::AcquireRequest::ttlGiven).
    m_ttl->setToolTip(tr("Lease length: 250ms, 30s, 5m. The slot is never held longer: a layout without "
                         "leases, or with a longer shared timeout, refuses it. Left as it is, or empty, "
                         "it asks for no particular lease: the layout's own (30 s where semscope keeps one; "
                         "none on a seed's slots, said when granted)."));
    form->addRow(tr("&TTL:"), m_ttl);

    m_replicaRow = new QWidget(this);
    auto *row = new QHBoxLayout(m_replicaRow);
    row->setContentsMargins(0, 0, 0, 0);
    m_replicas = new QSpinBox(m_replicaRow);
    m_replicas->setObjectName(QStringLiteral("replicas"));
    m_replicas->setRange(0, 0);
    m_replicas->setSpecialValueText(tr("none (trust the master)"));
    m_replicas->setToolTip(
        tr("After the grant semscope sends WAIT N: the grant counts only once N replicas have it, "
           "otherwise it is released again. Refreshes of this grant wait the same way. It costs a "
           "replica round trip per acquire; it is not consensus (a failover can still promote a "
           "replica without it)."));
    m_replicaNote = new QLabel(tr("reading the replicas …"), m_replicaRow);
    m_replicaNote->setObjectName(QStringLiteral("replicaNote"));
    auto *within = new QLabel(tr("wit&hin"), m_replicaRow);
    m_replicaTimeout = new QLineEdit(QStringLiteral("1s"), m_replicaRow);
    m_replicaTimeout->setObjectName(QStringLiteral("replicaTimeout"));
    m_replicaTimeout->setToolTip(tr("How long WAIT may take: 1ms to 5s."));
    m_replicaTimeout->setMaximumWidth(
        m_replicaTimeout->fontMetrics().horizontalAdvance(QStringLiteral("0000ms")) + 16);
    within->setBuddy(m_replicaTimeout);
    row->addWidget(m_replicas);
    row->addWidget(m_replicaNote, 1);
    row->addWidget(within);
    row->addWidget(m_replicaTimeout);
    form->addRow(tr("Wait for &replicas:"), m_replicaRow);
    form->setRowVisible(m_replicaRow, false);

    auto *note = new QLabel(tr("The slot is held by this window until you release it or the lease runs out; "
                               "semscope does not refresh it on its own."),
                            this);
    note->setWordWrap(true);
    form->addRow(note);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("acquireStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->hide();
    form->addRow(m_status);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_acquire = buttons->button(QDialogButtonBox::Ok);
    m_acquire->setText(tr("Acquire"));
    m_cancel = buttons->button(QDialogButtonBox::Cancel);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &AcquireDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &AcquireDialog::reject);
    connect(m_holder, &QLineEdit::textChanged, this, &AcquireDialog::validate);
    connect(m_ttl, &QLineEdit::textChanged, this, &AcquireDialog::validate);
    connect(m_replicaTimeout, &QLineEdit::textChanged, this, &AcquireDialog::validate);
    connect(m_replicas, &QSpinBox::valueChanged, this, &AcquireDialog::validate);
}

QString AcquireDialog::holder() const {
    return m_holder->text().trimmed();
}

qint64 AcquireDialog::ttlMs() const {
    if (!ttlGiven())
        return core::AcquireRequest{}.ttlMs;
    return core::parseDurationMs(m_ttl->text().trimmed()).value_or(-1);
}

bool AcquireDialog::ttlGiven() const {
    // Typed by the operator: the prefilled 30s is the default, as semscope-cli's without --ttl.
    return m_ttl->isModified() && !m_ttl->text().trimmed().isEmpty();
}

bool AcquireDialog::offersReplicas() const {
    return m_actions &&
           model::OperatorActions::canWaitForReplicas(m_actions->controller()->config(), m_ref.kind);
}

int AcquireDialog::replicas() const {
    return offersReplicas() ? m_replicas->value() : 0;
}

qint64 AcquireDialog::replicaTimeoutMs() const {
    const qint64 ms = core::parseDurationMs(m_replicaTimeout->text().trimmed()).value_or(-1);
    return ms >= 1 && ms <= kMaxReplicaTimeoutMs ? ms : -1;
}

void AcquireDialog::attach(model::OperatorActions *actions, const core::SemaphoreRef &ref,
                           const QString &node) {
    m_actions = actions;
    m_ref = ref;
    if (!offersReplicas())
        return;
    static_cast<QFormLayout *>(layout())->setRowVisible(m_replicaRow, true);
    m_replicas->setEnabled(false);
    actions->knownReplicas(node, this, [this, node](int count, const QString &error) {
        if (count < 0) {
            // Unknown: WAIT still works; the operator may know better than the topology read.
            m_replicas->setRange(0, 16);
            m_replicaNote->setText(tr("replicas unknown (%1)").arg(error));
        } else {
            m_replicas->setRange(0, count);
            const QString master = node.isEmpty() ? tr("the master") : node;
            m_replicaNote->setText(count == 0
                                       ? tr("%1 has no replica: nothing to wait for").arg(master)
                                       : (count == 1 ? tr("of 1 replica of %1").arg(master)
                                                     : tr("of %1 replicas of %2").arg(count).arg(master)));
        }
        m_replicas->setEnabled(m_replicas->maximum() > 0);
        validate();
    });
}

void AcquireDialog::accept() {
    if (m_actions && m_result.status != core::AcquireResult::Status::Granted) {
        startAcquire();
        return;
    }
    QDialog::accept();
}

void AcquireDialog::reject() {
    // Granted: the slot is held whatever closes the window, so the page must learn of it.
    if (m_result.status == core::AcquireResult::Status::Granted) {
        QDialog::accept();
        return;
    }
    QDialog::reject();
}

// A grant the store could not take as asked (no lease, a shorter one, another limit) stays on
// screen until read: closing at once would leave the operator believing the lease runs out.
void AcquireDialog::showGrantWarnings(const core::Grant &grant, const QStringList &warnings) {
    QString text = grant.slot ? tr("Acquired slot %1 as %2, but:").arg(*grant.slot).arg(grant.holder)
                              : tr("Acquired as %1, but:").arg(grant.holder);
    for (const QString &w : warnings)
        text += QStringLiteral("\n• ") + w;
    showOutcome(text, model::Tone::Caution);
    for (QWidget *input : std::initializer_list<QWidget *>{m_holder, m_ttl, m_replicaRow})
        input->setEnabled(false);
    m_cancel->hide();
    m_acquire->setText(tr("Close"));
    m_acquire->setEnabled(true);
    m_acquire->setFocus();
}

void AcquireDialog::validate() {
    const bool replicasOk = replicas() == 0 || replicaTimeoutMs() > 0;
    m_replicaTimeout->setEnabled(replicas() > 0);
    m_acquire->setEnabled(!m_busy && !holder().isEmpty() && ttlMs() > 0 && replicasOk);
}

void AcquireDialog::showOutcome(const QString &text, std::optional<model::Tone> tone) {
    m_status->setText(text);
    m_status->setStyleSheet(
        tone ? QStringLiteral("QLabel { color: %1; font-weight: bold; }").arg(model::toneText(*tone).name())
             : QString());
    m_status->setVisible(!text.isEmpty());
    adjustSize(); // grow to the whole answer: a cut-off reason is no reason
}

void AcquireDialog::startAcquire() {
    if (m_busy || !m_acquire->isEnabled()) // running already, or what is typed cannot be acquired
        return;
    core::AcquireRequest request;
    request.holder = holder();
    request.ttlMs = ttlMs();
    request.ttlGiven = ttlGiven();
    request.replicas = replicas();
    if (request.replicas > 0)
        request.replicaTimeoutMs = replicaTimeoutMs();
    m_busy = true;
    validate();
    showOutcome(request.replicas > 0 ? tr("Acquiring, then waiting for %1 of the replicas (up to %2 ms) …")
                                           .arg(request.replicas)
                                           .arg(request.replicaTimeoutMs)
                                     : tr("Acquiring …"),
                std::nullopt);
    m_actions->acquire(m_ref, request, this, [this](const core::AcquireResult &r) {
        m_busy = false;
        m_result = r;
        validate();
        Q_EMIT acquireFinished(r);
        switch (r.status) {
        case core::AcquireResult::Status::Granted:
            if (const QStringList warnings = r.grant.warnings(); !warnings.isEmpty()) {
                showGrantWarnings(r.grant, warnings);
                return;
            }
            showOutcome({}, std::nullopt);
            QDialog::accept();
            return;
        case core::AcquireResult::Status::Busy:
            showOutcome(tr("No free slot (holders: %1). Nothing was taken.").arg(r.holders.size()),
                        model::Tone::Bad);
            return;
        case core::AcquireResult::Status::Error:
            showOutcome(r.error, model::Tone::Bad);
            return;
        }
    });
}

} // namespace semscope::ui
