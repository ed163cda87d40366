#include "LoadTestForm.h"

#include "DistributionEdit.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <cmath>

namespace semscope::ui {

namespace {
constexpr qint64 msNs = 1'000'000;

QSpinBox *spin(QWidget *parent, const QString &objectName, int min, int max, int value,
               const QString &suffix = {}) {
    auto *box = new QSpinBox(parent);
    box->setObjectName(objectName);
    box->setRange(min, max);
    box->setValue(value);
    box->setSuffix(suffix);
    box->setAccelerated(true);
    return box;
}

// Two widgets in one form row: a mode and the value that goes with it.
QWidget *pair(QWidget *parent, QWidget *a, QWidget *b) {
    auto *row = new QWidget(parent);
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(a);
    layout->addWidget(b, 1);
    return row;
}
} // namespace

LoadTestForm::LoadTestForm(QWidget *parent)
    : QWidget(parent) {
    auto *form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    m_kind = new QComboBox(this);
    m_kind->setObjectName(QStringLiteral("kind"));
    m_kind->setToolTip(tr("The semaphore layout the clients use (semscope's atomic implementation of it)"));
    form->addRow(tr("&Kind"), m_kind);
    m_name = new QLineEdit(QStringLiteral("loadtest:demo"), this);
    m_name->setObjectName(QStringLiteral("name"));
    m_name->setToolTip(tr("The semaphore to hammer. It is created if it does not exist; its clients write "
                          "to it."));
    form->addRow(tr("Se&maphore"), m_name);
    m_limit = spin(this, QStringLiteral("limit"), 1, 1'000'000, 5);
    m_limit->setToolTip(tr("Slots: how many clients may hold it at once (a lock has one)"));
    form->addRow(tr("L&imit"), m_limit);

    m_clients = spin(this, QStringLiteral("clients"), 1, 100'000, 10);
    m_clients->setToolTip(tr("Virtual clients, each acquiring, holding, releasing and thinking in a loop"));
    form->addRow(tr("&Clients"), m_clients);
    m_connections = spin(this, QStringLiteral("connections"), 1, 10'000, core::LoadTestConfig{}.connections);
    m_connections->setToolTip(tr("Server connections the clients share (commands are pipelined on each)"));
    form->addRow(tr("Co&nnections"), m_connections);
    m_threads = spin(this, QStringLiteral("threads"), 0, 256, 0);
    m_threads->setSpecialValueText(tr("auto (one per core)"));
    m_threads->setToolTip(tr("Worker threads, each with its own event loop"));
    form->addRow(tr("Th&reads"), m_threads);

    m_hold = new DistributionEdit(this);
    m_hold->setObjectName(QStringLiteral("hold"));
    m_hold->setDistribution(core::Distribution::uniform(1 * msNs, 5 * msNs));
    m_hold->setToolTip(tr("How long a client holds its slot before releasing"));
    form->addRow(tr("Hol&d"), m_hold);
    m_think = new DistributionEdit(this);
    m_think->setObjectName(QStringLiteral("think"));
    m_think->setToolTip(tr("Pause between releasing and asking again"));
    form->addRow(tr("T&hink"), m_think);

    m_ttl = spin(this, QStringLiteral("ttl"), 1, 86'400'000, 10'000, tr(" ms"));
    m_ttl->setSingleStep(1000);
    m_ttl->setToolTip(tr("Lease length: a holder that stops refreshing loses its slot after this long"));
    form->addRow(tr("&TTL"), m_ttl);
    m_refresh = spin(this, QStringLiteral("refresh"), 0, 86'400'000, 0, tr(" ms"));
    m_refresh->setSpecialValueText(tr("auto (a third of the TTL)"));
    m_refresh->setSingleStep(500);
    m_refresh->setToolTip(tr("How often a holder renews its lease while it holds"));
    form->addRow(tr("Re&fresh every"), m_refresh);

    m_acquireMode = new QComboBox(this);
    m_acquireMode->setObjectName(QStringLiteral("acquireMode"));
    m_acquireMode->addItem(tr("Retry after a pause"), TryOnce);
    m_acquireMode->addItem(tr("Wait in line"), WaitUpTo);
    // The marked item is longer than the others: the box shows it whole where there is room and
    // does not widen the form past a 1280x720 projector for it (the list shows every item whole).
    m_acquireMode->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_acquireMode->setMinimumContentsLength(26);
    m_acquireMode->setToolTip(
        tr("How each client asks for a slot. A kind with a wait queue (leased) is best waited on: the "
           "release hands the slot to the first in line, one attempt per grant. Kinds without one are "
           "retried after a short pause. The recommended way for the kind is marked and chosen until "
           "you pick one yourself."));
    m_wait = spin(this, QStringLiteral("wait"), 1, 3'600'000, 10'000, tr(" ms"));
    m_wait->setPrefix(tr("at most "));
    m_wait->setToolTip(tr("How long one acquire waits for a slot before it gives up and asks again"));
    form->addRow(tr("Ac&quire"), pair(this, m_acquireMode, m_wait));

    m_stopMode = new QComboBox(this);
    m_stopMode->setObjectName(QStringLiteral("stopMode"));
    m_stopMode->addItem(tr("Run for"), AfterDuration);
    m_stopMode->addItem(tr("Stop after pairs"), AfterOps);
    m_duration = new QDoubleSpinBox(this);
    m_duration->setObjectName(QStringLiteral("duration"));
    m_duration->setRange(0.1, 86'400.0);
    m_duration->setDecimals(1);
    m_duration->setValue(10.0);
    m_duration->setSuffix(tr(" s"));
    m_ops = spin(this, QStringLiteral("ops"), 1, 1'000'000'000, 10'000);
    auto *stopRow = new QWidget(this);
    auto *stopLayout = new QHBoxLayout(stopRow);
    stopLayout->setContentsMargins(0, 0, 0, 0);
    stopLayout->addWidget(m_stopMode);
    stopLayout->addWidget(m_duration, 1);
    stopLayout->addWidget(m_ops, 1);
    form->addRow(tr("St&op"), stopRow);

    m_crashRate = new QDoubleSpinBox(this);
    m_crashRate->setObjectName(QStringLiteral("crashRate"));
    m_crashRate->setRange(0.0, 100.0);
    m_crashRate->setDecimals(1);
    m_crashRate->setSuffix(tr(" %"));
    m_crashRate->setToolTip(tr("Share of clients that crash once while holding: they stop refreshing and "
                               "vanish without releasing. Shows how fast their slots come back."));
    form->addRow(tr("Crash rat&e"), m_crashRate);
    m_skew = spin(this, QStringLiteral("skew"), 0, 3'600'000, 0, tr(" ms"));
    m_skew->setSpecialValueText(tr("none"));
    m_skew->setToolTip(tr("Each client's clock is off by up to this much, ahead or behind. Only layouts "
                          "scored by the clients' own clocks care."));
    form->addRow(tr("Clock ske&w"), m_skew);
    m_replicas = spin(this, QStringLiteral("replicas"), 0, 16, 0);
    m_replicas->setSpecialValueText(tr("none"));
    m_replicas->setToolTip(
        tr("Redis leased and lock: each grant counts only once this many replicas "
           "acknowledged it (WAIT); otherwise it is released again and counted as refused. "
           "The price: a replica round trip in every acquire."));
    m_replicaTimeout = spin(this, QStringLiteral("replicaTimeout"), 1, 5000, 1000, tr(" ms"));
    m_replicaTimeout->setToolTip(tr("How long each WAIT may take (at most 5 s)"));
    form->addRow(tr("Replicas m&ust ack"), pair(this, m_replicas, m_replicaTimeout));

    connect(m_kind, &QComboBox::currentIndexChanged, this, &LoadTestForm::kindChanged);
    connect(m_replicas, &QSpinBox::valueChanged, this, &LoadTestForm::kindChanged);
    connect(m_acquireMode, &QComboBox::currentIndexChanged, this, &LoadTestForm::modesChanged);
    connect(m_acquireMode, &QComboBox::activated, this, [this] { m_acquireModeChosen = true; });
    connect(m_stopMode, &QComboBox::currentIndexChanged, this, &LoadTestForm::modesChanged);
    setBackend(core::Backend::Redis);
    modesChanged();
}

void LoadTestForm::setBackend(core::Backend backend) {
    m_backend = backend;
    const QSignalBlocker blocker(m_kind);
    const QVariant previous = m_kind->currentData();
    m_kind->clear();
    for (const QString &name : core::allKindNames()) {
        const core::Kind kind = *core::kindFromName(name);
        if (core::kindIsWritable(kind) && core::backendOf(kind) == backend) {
            m_kind->addItem(name, int(kind));
            m_kind->setItemData(m_kind->count() - 1, core::kindDescription(kind), Qt::ToolTipRole);
        }
    }
    const int again = m_kind->findData(previous);
    const int leased = m_kind->findData(int(core::Kind::Leased));
    m_kind->setCurrentIndex(again >= 0 ? again : leased >= 0 ? leased : 0);
    kindChanged();
}

void LoadTestForm::prefill(const core::SemaphoreRef &ref) {
    const int index = m_kind->findData(int(ref.kind));
    if (index < 0 || ref.name.isEmpty())
        return;
    m_kind->setCurrentIndex(index);
    m_name->setText(ref.name);
    if (ref.profile.limit && ref.kind != core::Kind::Lock)
        m_limit->setValue(static_cast<int>(std::min<qint64>(*ref.profile.limit, m_limit->maximum())));
}

std::optional<core::Kind> LoadTestForm::currentKind() const {
    if (m_kind->currentIndex() < 0)
        return std::nullopt;
    return core::Kind(m_kind->currentData().toInt());
}

void LoadTestForm::kindChanged() {
    const bool lock = currentKind() == core::Kind::Lock;
    if (lock)
        m_limit->setValue(1);
    m_limit->setEnabled(!lock);
    // WAIT follows the acquire of the kinds semscope writes with one script on a Redis master.
    const bool replicated = m_backend == core::Backend::Redis &&
                            (currentKind() == core::Kind::Leased || currentKind() == core::Kind::Lock);
    m_replicas->setEnabled(replicated);
    m_replicaTimeout->setEnabled(replicated && m_replicas->value() > 0);
    showRecommendedAcquire();
}

void LoadTestForm::showRecommendedAcquire() {
    const qint64 recommended =
        core::LoadTestConfig::recommendedWaitMs(currentKind().value_or(core::Kind::Leased));
    const int mode = recommended > 0 ? WaitUpTo : TryOnce;
    m_acquireMode->setItemText(m_acquireMode->findData(TryOnce),
                               mode == TryOnce ? tr("Retry (recommended)") : tr("Retry after a pause"));
    m_acquireMode->setItemText(m_acquireMode->findData(WaitUpTo),
                               mode == WaitUpTo ? tr("Wait in line (recommended)") : tr("Wait in line"));
    if (m_acquireModeChosen)
        return;
    m_acquireMode->setCurrentIndex(m_acquireMode->findData(mode));
    if (recommended > 0)
        m_wait->setValue(static_cast<int>(std::min<qint64>(recommended, m_wait->maximum())));
}

void LoadTestForm::modesChanged() {
    m_wait->setEnabled(m_acquireMode->currentData().toInt() == WaitUpTo);
    const bool ops = m_stopMode->currentData().toInt() == AfterOps;
    m_duration->setVisible(!ops);
    m_ops->setVisible(ops);
}

core::LoadTestConfig LoadTestForm::config() const {
    core::LoadTestConfig c;
    c.ref.kind = currentKind().value_or(core::Kind::Leased);
    c.ref.name = m_name->text().trimmed();
    c.limit = m_limit->value();
    c.clients = m_clients->value();
    c.connections = std::min(m_connections->value(), m_clients->value());
    c.threads = m_threads->value();
    c.hold = m_hold->distribution();
    c.think = m_think->distribution();
    c.ttlMs = m_ttl->value();
    c.refreshIntervalMs = m_refresh->value();
    c.waitMs = m_acquireMode->currentData().toInt() == WaitUpTo ? m_wait->value() : 0;
    if (m_stopMode->currentData().toInt() == AfterOps) {
        c.ops = m_ops->value();
        c.durationMs = 0;
    } else {
        c.ops = 0;
        c.durationMs = std::llround(m_duration->value() * 1000.0);
    }
    c.crashRate = m_crashRate->value() / 100.0;
    c.skewMs = m_skew->value();
    c.replicas = m_replicas->isEnabled() ? m_replicas->value() : 0;
    c.replicaTimeoutMs = m_replicaTimeout->value();
    // Layouts that keep no TTL of their own (fair, zset) take the lease length from the profile.
    c.ref.profile.timeoutMs = c.ttlMs;
    return c;
}

void LoadTestForm::setConfig(const core::LoadTestConfig &c) {
    // A whole configuration says how to acquire as well.
    m_acquireModeChosen = true;
    const int index = m_kind->findData(int(c.ref.kind));
    if (index >= 0)
        m_kind->setCurrentIndex(index);
    if (!c.ref.name.isEmpty())
        m_name->setText(c.ref.name);
    m_limit->setValue(c.limit);
    m_clients->setValue(c.clients);
    m_connections->setValue(c.connections);
    m_threads->setValue(c.threads);
    m_hold->setDistribution(c.hold);
    m_think->setDistribution(c.think);
    m_ttl->setValue(static_cast<int>(std::min<qint64>(c.ttlMs, m_ttl->maximum())));
    m_refresh->setValue(static_cast<int>(std::min<qint64>(c.refreshIntervalMs, m_refresh->maximum())));
    m_acquireMode->setCurrentIndex(m_acquireMode->findData(c.waitMs > 0 ? WaitUpTo : TryOnce));
    if (c.waitMs > 0)
        m_wait->setValue(static_cast<int>(std::min<qint64>(c.waitMs, m_wait->maximum())));
    m_stopMode->setCurrentIndex(m_stopMode->findData(c.ops > 0 ? AfterOps : AfterDuration));
    if (c.ops > 0)
        m_ops->setValue(static_cast<int>(std::min<qint64>(c.ops, m_ops->maximum())));
    else
        m_duration->setValue(static_cast<double>(c.durationMs) / 1000.0);
    m_crashRate->setValue(c.crashRate * 100.0);
    m_skew->setValue(static_cast<int>(std::min<qint64>(c.skewMs, m_skew->maximum())));
    m_replicas->setValue(std::min(c.replicas, m_replicas->maximum()));
    m_replicaTimeout->setValue(static_cast<int>(std::clamp<qint64>(c.replicaTimeoutMs, 1, 5000)));
    kindChanged();
    modesChanged();
}

QString LoadTestForm::problem() const {
    if (!currentKind())
        return tr("No kind of semaphore that semscope can acquire on this connection");
    if (m_name->text().trimmed().isEmpty())
        return tr("Name the semaphore to test");
    return config().normalized().validate();
}

void LoadTestForm::save(QSettings &s) const {
    const core::LoadTestConfig c = config();
    s.setValue(QStringLiteral("kind"), core::kindName(c.ref.kind));
    s.setValue(QStringLiteral("name"), c.ref.name);
    s.setValue(QStringLiteral("limit"), c.limit);
    s.setValue(QStringLiteral("clients"), c.clients);
    s.setValue(QStringLiteral("connections"), m_connections->value());
    s.setValue(QStringLiteral("threads"), c.threads);
    s.setValue(QStringLiteral("hold"), c.hold.toString());
    s.setValue(QStringLiteral("think"), c.think.toString());
    s.setValue(QStringLiteral("ttlMs"), c.ttlMs);
    s.setValue(QStringLiteral("refreshMs"), c.refreshIntervalMs);
    s.setValue(QStringLiteral("waitMs"), c.waitMs);
    s.setValue(QStringLiteral("acquireModeChosen"), m_acquireModeChosen);
    s.setValue(QStringLiteral("durationMs"), std::llround(m_duration->value() * 1000.0));
    s.setValue(QStringLiteral("ops"), c.ops);
    s.setValue(QStringLiteral("crashRate"), c.crashRate);
    s.setValue(QStringLiteral("skewMs"), c.skewMs);
    s.setValue(QStringLiteral("replicas"), m_replicas->value());
    s.setValue(QStringLiteral("replicaTimeoutMs"), c.replicaTimeoutMs);
}

void LoadTestForm::restore(const QSettings &s) {
    if (!s.contains(QStringLiteral("clients")))
        return;
    core::LoadTestConfig c = config();
    if (const auto kind = core::kindFromName(s.value(QStringLiteral("kind")).toString()))
        c.ref.kind = *kind;
    c.ref.name = s.value(QStringLiteral("name"), c.ref.name).toString();
    c.limit = s.value(QStringLiteral("limit"), c.limit).toInt();
    c.clients = s.value(QStringLiteral("clients"), c.clients).toInt();
    c.connections = s.value(QStringLiteral("connections"), c.connections).toInt();
    c.threads = s.value(QStringLiteral("threads"), c.threads).toInt();
    if (const auto d = core::Distribution::parse(s.value(QStringLiteral("hold")).toString()))
        c.hold = *d;
    if (const auto d = core::Distribution::parse(s.value(QStringLiteral("think")).toString()))
        c.think = *d;
    c.ttlMs = s.value(QStringLiteral("ttlMs"), c.ttlMs).toLongLong();
    c.refreshIntervalMs = s.value(QStringLiteral("refreshMs"), c.refreshIntervalMs).toLongLong();
    c.waitMs = s.value(QStringLiteral("waitMs"), c.waitMs).toLongLong();
    c.ops = s.value(QStringLiteral("ops"), c.ops).toLongLong();
    c.durationMs = s.value(QStringLiteral("durationMs"), c.durationMs).toLongLong();
    c.crashRate = s.value(QStringLiteral("crashRate"), c.crashRate).toDouble();
    c.skewMs = s.value(QStringLiteral("skewMs"), c.skewMs).toLongLong();
    c.replicas = s.value(QStringLiteral("replicas"), 0).toInt();
    c.replicaTimeoutMs = s.value(QStringLiteral("replicaTimeoutMs"), c.replicaTimeoutMs).toLongLong();
    setConfig(c);
    // A mode the operator never picked follows the kind (and what semscope recommends for it).
    m_acquireModeChosen = s.value(QStringLiteral("acquireModeChosen"), false).toBool();
    showRecommendedAcquire();
    if (c.ops > 0)
        m_duration->setValue(static_cast<double>(s.value(QStringLiteral("durationMs"), 10'000).toLongLong()) /
                             1000.0);
}

} // namespace semscope::ui
