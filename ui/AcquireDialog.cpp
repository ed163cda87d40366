#include "AcquireDialog.h"

#include "core/Duration.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace semscope::ui {

AcquireDialog::AcquireDialog(const QString &semaphore, const QString &defaultHolder, QWidget *parent)
    : QDialog(parent) {
    setObjectName(QStringLiteral("acquireDialog"));
    setWindowTitle(tr("Acquire a slot of %1").arg(semaphore));
    auto *form = new QFormLayout(this);
    m_holder = new QLineEdit(defaultHolder, this);
    m_holder->setObjectName(QStringLiteral("holder"));
    form->addRow(tr("&Holder id:"), m_holder);
    m_ttl = new QLineEdit(QStringLiteral("30s"), this);
    m_ttl->setObjectName(QStringLiteral("ttl"));
    m_ttl->setToolTip(tr("Lease length: 250ms, 30s, 5m. Layouts without leases ignore it."));
    form->addRow(tr("&TTL:"), m_ttl);
    auto *note = new QLabel(tr("The slot is held by this window until you release it or the lease runs out; "
                               "semscope does not refresh it on its own."),
                            this);
    note->setWordWrap(true);
    form->addRow(note);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Acquire"));
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto validate = [this, buttons] {
        buttons->button(QDialogButtonBox::Ok)->setEnabled(!holder().isEmpty() && ttlMs() > 0);
    };
    connect(m_holder, &QLineEdit::textChanged, this, validate);
    connect(m_ttl, &QLineEdit::textChanged, this, validate);
}

QString AcquireDialog::holder() const {
    return m_holder->text().trimmed();
}

qint64 AcquireDialog::ttlMs() const {
    return core::parseDurationMs(m_ttl->text().trimmed()).value_or(-1);
}

} // namespace semscope::ui
