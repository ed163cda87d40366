#include "ProfileDialog.h"

#include "model/StatusColors.h"

#include "core/Duration.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace semscope::ui {

using namespace semscope::core;

ProfileDialog::ProfileDialog(const SemaphoreRef &ref, QWidget *parent)
    : QDialog(parent) {
    setObjectName(QStringLiteral("profileDialog"));
    setWindowTitle(tr("Profile of %1").arg(ref.name));
    auto *form = new QFormLayout(this);
    auto *intro =
        new QLabel(tr("The <b>%1</b> layout does not store these values. semscope keeps them for this "
                      "connection only; nothing is written to the server.")
                       .arg(kindName(ref.kind)),
                   this);
    intro->setWordWrap(true);
    form->addRow(intro);
    m_hasLimit = new QCheckBox(tr("Known limit"), this);
    m_hasLimit->setObjectName(QStringLiteral("hasLimit"));
    m_limit = new QSpinBox(this);
    m_limit->setObjectName(QStringLiteral("limit"));
    m_limit->setRange(1, 1000000);
    m_limit->setValue(int(ref.profile.limit.value_or(1)));
    m_hasLimit->setChecked(ref.profile.limit.has_value());
    m_limit->setEnabled(m_hasLimit->isChecked());
    connect(m_hasLimit, &QCheckBox::toggled, m_limit, &QSpinBox::setEnabled);
    form->addRow(m_hasLimit, m_limit);
    m_timeout =
        new QLineEdit(ref.profile.timeoutMs ? formatDurationMs(*ref.profile.timeoutMs) : QString(), this);
    m_timeout->setObjectName(QStringLiteral("timeout"));
    m_timeout->setPlaceholderText(ref.kind == Kind::Slots
                                      ? tr("e.g. 10m (a holder watched longer than this is stuck)")
                                      : tr("e.g. 10s (fair: how long an acquisition counts)"));
    form->addRow(tr("&Timeout:"), m_timeout);
    m_unit = new QComboBox(this);
    m_unit->setObjectName(QStringLiteral("unit"));
    m_unit->addItems({tr("auto"), tr("seconds"), tr("milliseconds")});
    m_unit->setCurrentIndex(int(ref.profile.scoreUnit));
    form->addRow(tr("ZSET score &unit:"), m_unit);
    // The fair layout's clients hold an outer lock around their acquire; semscope's acquire must
    // find the same key free, or it would slip in beside a client that is half-way through its own.
    m_outerLockKey = new QLineEdit(ref.profile.outerLockKey, this);
    m_outerLockKey->setObjectName(QStringLiteral("outerLockKey"));
    m_outerLockKey->setPlaceholderText(
        tr("empty: lock:%1 and %1lock (the book's and seed 001's names)").arg(ref.name));
    m_outerLockKey->setToolTip(tr("The key the layout's clients lock around their acquire, if your code "
                                  "names it differently. semscope's acquire waits while it is held."));
    if (ref.kind == Kind::Fair)
        form->addRow(tr("&Outer lock key:"), m_outerLockKey);
    else
        m_outerLockKey->hide();
    if (ref.profile.anyInferred())
        form->addRow(new QLabel(tr("<i>The current values were inferred by semscope.</i>"), this));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // A timeout that does not parse would silently be saved as "none": refuse it visibly instead.
    auto validate = [this, buttons] {
        const QString text = m_timeout->text().trimmed();
        const bool ok = text.isEmpty() || parseDurationMs(text).value_or(0) > 0;
        buttons->button(QDialogButtonBox::Save)->setEnabled(ok);
        m_timeout->setStyleSheet(ok ? QString()
                                    : QStringLiteral("QLineEdit { background: %1; }")
                                          .arg(model::toneBackground(model::Tone::Bad).name()));
        m_timeout->setToolTip(ok ? QString() : tr("Not a duration: write e.g. 500ms, 10s, 5m"));
    };
    connect(m_timeout, &QLineEdit::textChanged, this, validate);
    validate();
}

SemaphoreProfile ProfileDialog::profile() const {
    SemaphoreProfile p;
    if (m_hasLimit->isChecked())
        p.limit = m_limit->value();
    p.timeoutMs = parseDurationMs(m_timeout->text().trimmed());
    p.scoreUnit = ScoreUnit(m_unit->currentIndex());
    p.outerLockKey = m_outerLockKey->text().trimmed();
    p.inferred = false;
    return p;
}

} // namespace semscope::ui
