#include "OpenKeyDialog.h"

#include "core/Duration.h"

#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace semscope::ui {

using namespace semscope::core;

OpenKeyDialog::OpenKeyDialog(const QString &connectionName, LookUp lookUp, QWidget *parent)
    : QDialog(parent)
    , m_lookUp(std::move(lookUp)) {
    setObjectName(QStringLiteral("openKeyDialog"));
    setWindowTitle(tr("Open key on %1").arg(connectionName));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("A semaphore or lock whose name does not say so is not found by the scan "
                                "(a redis-py lock <code>invoice-run</code>). Name its key: semscope reads "
                                "it, guesses the kind, and lists it on this connection from now on."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto *form = new QFormLayout;
    m_key = new QLineEdit(this);
    m_key->setObjectName(QStringLiteral("openKeyName"));
    m_key->setPlaceholderText(tr("the key's exact name, e.g. invoice-run"));
    form->addRow(tr("&Key:"), m_key);
    m_read = new QLabel(tr("Type a key's name."), this);
    m_read->setObjectName(QStringLiteral("openKeyRead"));
    m_read->setWordWrap(true);
    m_read->setTextFormat(Qt::PlainText);
    form->addRow(tr("Redis says:"), m_read);
    m_kind = new QComboBox(this);
    m_kind->setObjectName(QStringLiteral("openKeyKind"));
    m_kind->addItem(tr("— choose a kind —"), -1);
    for (Kind k :
         {Kind::Lock, Kind::Zset, Kind::Fair, Kind::Slots, Kind::Leased, Kind::NodeMutex, Kind::NodeSemaphore,
          Kind::RedissonLock, Kind::RedissonSemaphore, Kind::RedissonPermitExpirable}) {
        m_kind->addItem(kindName(k), int(k));
        m_kind->setItemData(m_kind->count() - 1, kindDescription(k), Qt::ToolTipRole);
    }
    form->addRow(tr("K&ind:"), m_kind);
    m_result = new QLabel(this);
    m_result->setObjectName(QStringLiteral("openKeyResult"));
    m_result->setWordWrap(true);
    m_result->setTextFormat(Qt::PlainText);
    form->addRow(tr("Will list:"), m_result);
    layout->addLayout(form);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_open = buttons->addButton(tr("&Open and keep listed"), QDialogButtonBox::AcceptRole);
    m_open->setObjectName(QStringLiteral("openKeyOpen"));
    m_open->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    // Read once typing pauses: each keystroke would be a round trip.
    m_typing.setSingleShot(true);
    m_typing.setInterval(300);
    connect(&m_typing, &QTimer::timeout, this, &OpenKeyDialog::lookUpNow);
    connect(m_key, &QLineEdit::textEdited, this, [this] {
        m_guess.reset();
        ++m_round;
        m_read->setText(m_key->text().isEmpty() ? tr("Type a key's name.") : tr("Reading…"));
        updateChoice();
        m_typing.start();
    });
    // Return before the pause: read now (with a guess in, Return presses Open as usual).
    connect(m_key, &QLineEdit::returnPressed, this, [this] {
        if (m_typing.isActive())
            lookUpNow();
    });
    connect(m_kind, &QComboBox::currentIndexChanged, this, &OpenKeyDialog::updateChoice);
    updateChoice();
    resize(560, sizeHint().height());
}

void OpenKeyDialog::setKey(const QString &key) {
    m_key->setText(key);
    m_guess.reset();
    lookUpNow();
}

void OpenKeyDialog::lookUpNow() {
    m_typing.stop();
    const QString key = m_key->text();
    if (key.isEmpty() || !m_lookUp)
        return;
    const quint64 round = ++m_round;
    m_read->setText(tr("Reading…"));
    m_lookUp(key, this, [this, key, round](RawKeys keys) {
        if (round != m_round)
            return;
        showRead(key, keys);
    });
}

void OpenKeyDialog::showRead(const QString &key, const RawKeys &keys) {
    const RawKey *raw = nullptr;
    for (const RawKey &k : keys.keys) {
        if (k.name == key)
            raw = &k;
    }
    if (!raw && keys.keys.size() == 1)
        raw = &keys.keys.first(); // a name with bytes the reader shows escaped
    if (!keys.ok || !raw || !raw->error.isEmpty()) {
        const QString why = !keys.ok ? keys.error : raw ? raw->error : tr("no answer for this key");
        m_read->setText(tr("could not be read: %1. Choose the kind yourself.").arg(why));
        m_guess.reset();
        updateChoice();
        Q_EMIT looked();
        return;
    }
    const redis::KindGuess guess =
        redis::guessKind(redis::fingerprintOf(*raw), QDateTime::currentMSecsSinceEpoch());
    m_guess = guess;
    QString shape;
    if (raw->type == QLatin1String("none")) {
        shape = tr("no such key now. A lock between holders has no key: choose its kind to list it anyway.");
    } else {
        shape = raw->ttlMs ? tr("%1, TTL %2").arg(raw->type, formatDurationMs(*raw->ttlMs))
                           : tr("%1, no TTL").arg(raw->type);
        shape += guess.kind
                     ? tr(". Looks like %1: %2.").arg(kindName(*guess.kind), guess.reason)
                     : tr(". No semaphore kind fits (%1); choose one if you know better.").arg(guess.reason);
    }
    m_read->setText(shape);
    if (guess.kind)
        m_kind->setCurrentIndex(m_kind->findData(int(*guess.kind)));
    updateChoice();
    Q_EMIT looked();
}

SemaphoreRef OpenKeyDialog::chosen() const {
    SemaphoreRef ref;
    const int kind = m_kind->currentData().toInt();
    if (kind < 0)
        return ref;
    ref.kind = Kind(kind);
    ref.name = m_guess && m_guess->kind == ref.kind ? m_guess->name : m_key->text();
    return ref;
}

void OpenKeyDialog::updateChoice() {
    const bool ready = !m_key->text().isEmpty() && m_kind->currentData().toInt() >= 0;
    m_open->setEnabled(ready);
    if (!ready) {
        m_result->setText(m_key->text().isEmpty() ? QString() : tr("choose a kind"));
        return;
    }
    const SemaphoreRef ref = chosen();
    m_result->setText(tr("%1 “%2”, on every scan of this connection (right-click → Forget to stop)")
                          .arg(kindName(ref.kind), ref.name));
}

} // namespace semscope::ui
