#include "SemaphorePage.h"

#include "ChartsPanel.h"
#include "HeaderFit.h"
#include "HistoryPanel.h"
#include "HolderColumnMenu.h"
#include "HolderDetailCard.h"
#include "HolderTableView.h"
#include "InvalidateSessionDialog.h"
#include "SemaphoreCommands.h"
#include "SemaphoreHeader.h"
#include "core/Kind.h"
#include "model/ConnectionSession.h"
#include "model/HolderColumnRules.h"
#include "model/SemaphoreActionRules.h"
#include "model/SemaphoreHeaderText.h"
#include "model/WatchController.h"
#include "rawkeys/RawKeysWindow.h"
#include "topology/ReplicationPanel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>

namespace semscope::ui {

using namespace semscope::core;
using model::HolderTableModel;

SemaphorePage::SemaphorePage(ProfileStore *profiles, QWidget *parent)
    : QWidget(parent)
    , m_actions(new SemaphorePageActions(this))
    , m_commands(new SemaphoreCommands(profiles, this)) {
    setObjectName(QStringLiteral("semaphorePage"));
    m_proxy.setSourceModel(&m_holders);
    m_holders.setAutoTick(false); // the age timer below repaints the visible rows instead
    m_timer.setInterval(1000);
    connect(&m_timer, &QTimer::timeout, this, [this] { requestSnapshot(sharedReadAgeMs()); });
    m_ageTimer.setInterval(500);
    connect(&m_ageTimer, &QTimer::timeout, this, &SemaphorePage::tick);
    connect(&m_liveness, &model::ClientLivenessWatcher::livenessChanged, this, &SemaphorePage::updateCard);
    buildLayout();
    connectActions();
    clearSemaphore();
}

SemaphorePage::~SemaphorePage() = default;

void SemaphorePage::buildLayout() {
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    m_header = new SemaphoreHeader(m_actions->watch, this);
    layout->addWidget(m_header);
    m_toolbar = m_actions->makeToolBar(this);
    layout->addWidget(m_toolbar);

    m_view = new HolderTableView(this);
    m_view->setObjectName(QStringLiteral("holderTable"));
    m_view->setModel(&m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(HolderTableModel::RankColumn, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    fitToFont();
    keepKeyColumnsInFront();
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setWordWrap(false);
    // Their shortcuts work while the table has the focus.
    m_view->addAction(m_actions->forceRelease);
    m_view->addAction(m_actions->copyRows);
    // Tab leaves the table for the next pane; the arrows move between holders.
    m_view->setTabKeyNavigation(false);

    m_card = new HolderDetailCard(this);
    m_charts = new ChartsPanel(&m_history, this);
    auto *tableAndCard = new QSplitter(Qt::Horizontal, this);
    tableAndCard->addWidget(m_view);
    tableAndCard->addWidget(m_card);
    tableAndCard->setStretchFactor(0, 3);
    tableAndCard->setStretchFactor(1, 1);
    auto *vertical = new QSplitter(Qt::Vertical, this);
    vertical->setObjectName(QStringLiteral("pageSplitter"));
    vertical->addWidget(tableAndCard);
    m_historyPanel = new HistoryPanel(this);
    m_lowerTabs = new QTabWidget(this);
    m_lowerTabs->setObjectName(QStringLiteral("lowerTabs"));
    m_lowerTabs->addTab(m_charts, tr("Charts"));
    m_lowerTabs->addTab(m_historyPanel, tr("History"));
    m_replication = new ReplicationPanel(this);
    m_lowerTabs->addTab(m_replication, m_replication->tabTitle());
    connect(m_replication, &ReplicationPanel::tabTitleChanged, this, [this](const QString &title) {
        m_lowerTabs->setTabText(m_lowerTabs->indexOf(m_replication), title);
    });
    vertical->addWidget(m_lowerTabs);
    vertical->setStretchFactor(0, 3);
    vertical->setStretchFactor(1, 2);
    vertical->setSizes({420, 300});
    tableAndCard->setSizes({800, 200});
    layout->addWidget(vertical, 1);
}

void SemaphorePage::connectActions() {
    SemaphorePageActions *a = m_actions;
    connect(a->refreshNow, &QAction::triggered, this, &SemaphorePage::refreshNow);
    connect(a->acquire, &QAction::triggered, this,
            [this] { m_commands->acquire(m_holders.snapshot().node); });
    connect(a->renewMine, &QAction::triggered, this, [this] { m_commands->renewMine(selectedHolders()); });
    connect(a->releaseMine, &QAction::triggered, this,
            [this] { m_commands->releaseMine(selectedHolders()); });
    connect(a->forceRelease, &QAction::triggered, this, [this] { forceReleaseSelected(); });
    connect(a->invalidate, &QAction::triggered, this, [this] { invalidateSelectedSession(); });
    connect(a->purge, &QAction::triggered, this, &SemaphorePage::purgeExpired);
    connect(a->repair, &QAction::triggered, m_commands, &SemaphoreCommands::repair);
    connect(a->editProfile, &QAction::triggered, m_commands, &SemaphoreCommands::editProfile);
    connect(a->rawKeys, &QAction::triggered, this, [this] { openRawKeys(); });
    connect(a->copyRows, &QAction::triggered, this,
            [this] { QApplication::clipboard()->setText(selectedRowsText()); });
    connect(a->copyId, &QAction::triggered, this, [this] {
        QStringList ids;
        for (const auto &o : selectedHolders())
            ids << o.holder.id;
        QApplication::clipboard()->setText(ids.join(QLatin1Char('\n')));
    });
    connect(a->watch, &QAction::toggled, this, [this](bool on) {
        if (m_watch && m_session)
            m_watch->setWatched(m_session->config().id, m_ref, on);
        updateWatchToggle();
    });

    connect(m_commands, &SemaphoreCommands::changed, this, &SemaphorePage::refreshNow);
    connect(m_commands, &SemaphoreCommands::statusMessage, this, &SemaphorePage::statusMessage);
    connect(m_commands, &SemaphoreCommands::acquired, this, [this](const QString &holder) {
        // Selected as soon as it is read back, so Renew and Release my slot are ready at once.
        m_selectOnRead = holder;
    });

    connect(m_header, &SemaphoreHeader::intervalChanged, this, [this](int s) { setIntervalMs(s * 1000); });
    connect(m_header, &SemaphoreHeader::pauseToggled, this, &SemaphorePage::setPaused);
    connect(m_header, &SemaphoreHeader::refreshClicked, this, &SemaphorePage::refreshNow);
    connect(m_header, &SemaphoreHeader::profileClicked, m_commands, &SemaphoreCommands::editProfile);
    connect(m_header, &SemaphoreHeader::rawKeysClicked, this, [this] { openRawKeys(); });

    connect(m_view, &HolderTableView::deleteRefused, this, [this] {
        Q_EMIT statusMessage(!m_session || !m_session->actions.canWrite()
                                 ? tr("Delete force-releases holders, but this connection is read-only.")
                                 : tr("Delete force-releases the selected holders: select one first (arrow "
                                      "keys or a click)."));
    });
    connect(m_view, &QWidget::customContextMenuRequested, this, &SemaphorePage::showContextMenu);
    m_view->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view->horizontalHeader(), &QWidget::customContextMenuRequested, this,
            [this](const QPoint &pos) {
                // Which columns apply is known from the semaphore's first read.
                if (!m_session || m_lastSnapshot.ref.name.isEmpty())
                    return;
                std::unique_ptr<QMenu> menu(makeColumnMenu(this));
                menu->exec(m_view->horizontalHeader()->mapToGlobal(pos));
            });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        updateCard();
        updateActions();
    });
}

QLabel *SemaphorePage::connectionLabel() const {
    return m_header->connectionLabel();
}
void SemaphorePage::setMonitoring(model::WatchController *watch, monitor::HistoryWorker *history) {
    m_watch = watch;
    m_historyPanel->setMonitoring(watch, history);
    if (m_watch)
        connect(m_watch, &model::WatchController::watchedChanged, this, &SemaphorePage::updateWatchToggle);
    updateWatchToggle();
}

void SemaphorePage::updateWatchToggle() {
    const bool on = m_watch && m_session && m_watch->isWatched(m_session->config().id, m_ref);
    m_actions->setWatched(on, m_watch != nullptr, m_session != nullptr);
}

void SemaphorePage::fitToFont() {
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    // Every column starts as wide as its title (a holder as a short name), in units of the zoomed
    // font; the table's SpareWidthKeeper then widens them to what the rows in view say, TTL and
    // state first. Started at their longest possible texts ("expired 12 s ago", "watched for
    // 3 m 10 s"), they pushed Acquired and Age out of view at 1280x720.
    const int ch = std::max(6, m_view->fontMetrics().averageCharWidth());
    fitHeaderSections(m_view->horizontalHeader(), {{HolderTableModel::HolderColumn, 12 * ch}});
}

void SemaphorePage::changeEvent(QEvent *event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        fitToFont();
}

void SemaphorePage::tick() {
    updateAge();
    updateCard();
    m_view->updateTimeColumns(); // TTLs and ages count down on screen
    // A watched semaphore only reports changes; the charts still want one point a second.
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (m_watching && m_lastReadLocalMs > 0 && !m_history.samples().isEmpty() &&
        now - m_history.samples().last().timeMs >= 1000)
        m_history.addSnapshot(m_lastSnapshot, now);
    else
        m_charts->advanceTo(now);
}

void SemaphorePage::keepChartHistory() {
    if (m_session)
        m_session->chartHistory.store(ConnectionSession::historyKey(m_ref), m_history.samples());
}

void SemaphorePage::setSemaphore(ConnectionSession *session, const SemaphoreRef &ref) {
    keepChartHistory();
    stopUpdates();
    ++m_generation;
    ++m_pageGeneration;
    m_session = session;
    m_ref = ref;
    const auto &cfg = session->config();
    m_commands->setTarget(&session->actions, cfg.endpoint(), ref);
    m_selectOnRead.clear();
    m_inFlight = false;
    m_lastReadLocalMs = 0;
    m_lastSnapshot = Snapshot{}; // what the store said of the previous semaphore is not this one's
    m_holders.clear();
    m_view->horizontalHeader()->show();
    m_view->restartColumnFit();
    // The charts go on where they stopped when this semaphore was last on show this session.
    m_history.restore(session->chartHistory.take(ConnectionSession::historyKey(ref)));
    m_card->showHolder(nullptr, nullptr);
    m_liveness.setController(&session->controller);
    m_header->showSemaphore(kindName(ref.kind), kindDescription(ref.kind), ref.name, cfg.environment,
                            cfg.readOnly);
    updatePlace();
    // A failover moves the master the header names.
    disconnect(m_placeConnection);
    m_placeConnection = connect(&session->controller, &model::ConnectionController::topologyEvent, this,
                                &SemaphorePage::updatePlace);
    m_replication->setSemaphore(session, ref);
    // Read-only connections offer no write at all: the actions are not just greyed, they are gone.
    m_actions->setWritesVisible(!cfg.readOnly);
    m_toolbar->setVisible(!cfg.readOnly);
    setEnabled(true);
    connect(&session->actions, &model::OperatorActions::grantsChanged, this, &SemaphorePage::updateActions,
            Qt::UniqueConnection);
    updateActions();
    m_ageTimer.start();
    startUpdates();
    m_historyPanel->setSemaphore(cfg.id, cfg.endpoint(), ref);
    updateWatchToggle();
}

void SemaphorePage::updatePlace() {
    if (!m_session)
        return;
    const auto &cfg = m_session->config();
    const int row = m_session->list.rowOf(m_ref);
    m_header->setPlace(model::semaphorePlaceText(cfg.name, cfg.endpoint(), m_session->list.discoveredAt(row),
                                                 m_session->controller.servingMaster()));
}

void SemaphorePage::startUpdates() {
    if (!m_session || m_paused)
        return;
    m_liveness.start();
    if (m_session->controller.canWatch()) {
        // Consul: one blocking query stays open and answers when something changes; no polling.
        const quint64 page = m_pageGeneration;
        m_watching = m_ref;
        m_session->controller.watch(resolvedRef(), this, [this, page](Snapshot s) {
            if (page != m_pageGeneration)
                return;
            applySnapshot(s);
        });
        m_header->setIntervalApplies(false);
        return;
    }
    m_header->setIntervalApplies(true);
    m_timer.start();
    requestSnapshot(0);
}

void SemaphorePage::stopUpdates() {
    m_timer.stop();
    m_liveness.stop();
    if (m_watching && m_session)
        m_session->controller.unwatch(*m_watching);
    m_watching.reset();
}

void SemaphorePage::clearSemaphore() {
    keepChartHistory();
    stopUpdates();
    ++m_generation;
    ++m_pageGeneration;
    m_session = nullptr;
    m_ref = {};
    m_commands->setTarget(nullptr, {}, {});
    m_selectOnRead.clear();
    m_timer.stop();
    m_ageTimer.stop();
    m_holders.clear();
    m_history.clear();
    m_liveness.setController(nullptr);
    m_card->showHolder(nullptr, nullptr);
    // No holders, no columns: the headers of the semaphore shown before (another connection's,
    // perhaps) would suggest a table that is merely empty.
    m_view->horizontalHeader()->hide();
    m_header->showNothing();
    m_actions->repair->setVisible(false);
    m_historyPanel->clear();
    disconnect(m_placeConnection);
    m_replication->clear();
    updateWatchToggle();
    for (QAction *a : allActions())
        a->setEnabled(false);
    m_actions->copyRows->setEnabled(false);
    m_actions->copyId->setEnabled(false);
}

SemaphoreRef SemaphorePage::resolvedRef() const {
    return m_commands->resolvedRef();
}

void SemaphorePage::refreshNow() {
    if (!m_session)
        return;
    m_inFlight = false; // an explicit refresh may overtake a slow read; the generation drops stale answers
    requestSnapshot(0); // a read sent now, not one shared from before
}

void SemaphorePage::requestSnapshot(qint64 maxAgeMs) {
    if (!m_session || m_inFlight)
        return;
    m_inFlight = true;
    const quint64 generation = ++m_generation;
    m_session->controller.snapshot(
        resolvedRef(), this,
        [this, generation](Snapshot s) {
            if (generation != m_generation)
                return;
            m_inFlight = false;
            applySnapshot(s);
        },
        maxAgeMs);
}

qint64 SemaphorePage::sharedReadAgeMs() const {
    // The list's, the watcher's and this page's reads of the semaphore are one per interval.
    return m_timer.interval();
}

void SemaphorePage::setPaused(bool paused) {
    m_paused = paused;
    m_header->setPaused(paused);
    if (paused)
        stopUpdates();
    else
        startUpdates();
    updateAge();
}

void SemaphorePage::setIntervalMs(int ms) {
    m_timer.setInterval(std::max(100, ms));
    m_liveness.setIntervalMs(ms);
    if (ms >= 1000)
        m_header->setIntervalSeconds(ms / 1000);
}

void SemaphorePage::applySnapshot(const Snapshot &incoming) {
    Snapshot snapshot = incoming;
    if (m_session)
        m_session->stampFirstSeen(snapshot);
    m_lastSnapshot = snapshot;
    ++m_applied;
    m_lastReadLocalMs = QDateTime::currentMSecsSinceEpoch();
    m_holders.setSnapshot(snapshot);
    m_proxy.resortIfNeeded();
    m_history.addSnapshot(snapshot, m_lastReadLocalMs);
    int noTtl = 0;
    m_charts->setTtlHistogram(model::HistorySeries::ttlHistogram(snapshot, snapshot.serverNowMs, &noTtl),
                              noTtl);
    // The list first: the page's banner shows the warnings it holds for this semaphore.
    const bool listed = m_session && m_session->list.rowOf(snapshot.ref) >= 0;
    if (listed)
        m_session->list.updateSnapshot(snapshot);
    // Every warning of the semaphore: discovery's (a slot held twice, a key of the wrong type) as
    // well as this read's, as the list counts them.
    const model::SemaphoreHeaderText header = model::semaphoreHeaderText(snapshot);
    m_header->showRead(header, listed ? m_session->list.warningsOf(snapshot.ref) : snapshot.warnings);
    m_actions->editProfile->setEnabled(header.limitFromProfile);
    updateColumns(snapshot);
    if (!m_selectOnRead.isEmpty() && selectHolder(m_selectOnRead))
        m_selectOnRead.clear();
    updateActions();
    updateCard();
    updateAge();
    m_view->viewport()->update();
    if (listed)
        updatePlace(); // the read names the master serving it now
    m_replication->noteServingNode(snapshot.node);
    Q_EMIT snapshotApplied(snapshot);
}

void SemaphorePage::updateColumns(const Snapshot &s) {
    const QMap<int, bool> hidden = model::holderColumnsHidden(s, m_columnChoices);
    for (auto it = hidden.begin(); it != hidden.end(); ++it)
        m_view->setColumnHidden(it.key(), it.value());
    m_view->refitColumns();
}

void SemaphorePage::updateActions() {
    const bool has = m_session != nullptr;
    m_actions->rawKeys->setEnabled(has);
    m_actions->refreshNow->setEnabled(has);
    const auto selected = selectedHolders();
    m_actions->copyId->setEnabled(!selected.isEmpty());
    m_actions->copyRows->setEnabled(!selected.isEmpty());
    if (!has) {
        for (QAction *a : writeActions())
            a->setEnabled(false);
        return;
    }
    model::SemaphoreActionInputs in;
    in.kind = m_ref.kind;
    in.readOnly = !m_session->actions.canWrite();
    // Until the first read the store has not said; it is asked again on every read.
    if (m_lastSnapshot.ref.name == m_ref.name && m_lastSnapshot.ref.kind == m_ref.kind)
        in.writeRefusal = m_lastSnapshot.writeRefusal;
    in.writeRefusalAdvice = m_lastSnapshot.writeRefusalAdvice;
    in.selectedHolders = int(selected.size());
    for (const auto &o : selected)
        in.ownHolderSelected =
            in.ownHolderSelected || m_session->actions.grantFor(m_ref, o.holder.rawId).has_value();
    const model::SemaphoreActionRules rules = model::semaphoreActionRules(in);
    m_actions->apply(rules);
    m_header->setWritesRefused(rules.banner);
}

void SemaphorePage::updateCard() {
    const auto rows = m_view->selectionModel()->selectedRows();
    if (rows.size() != 1) {
        m_liveness.setHolders({});
        if (rows.isEmpty())
            m_card->showHolder(nullptr, &m_holders);
        return;
    }
    const int row = m_proxy.mapToSource(rows.first()).row();
    const Holder *holder = m_holders.holderAt(row);
    // Only the holder on the card is asked about: CLIENT LIST costs the server a line per client.
    m_liveness.setHolders(holder ? QList<Holder>{*holder} : QList<Holder>{});
    m_card->showHolder(holder, &m_holders, holder ? m_liveness.livenessOf(holder->id) : std::nullopt);
}

void SemaphorePage::updateAge() {
    if (!m_session || m_lastReadLocalMs == 0) {
        m_header->setLastRead(m_session ? tr("reading…") : QString(), false);
        return;
    }
    const qint64 ago = QDateTime::currentMSecsSinceEpoch() - m_lastReadLocalMs;
    const bool watching = m_watching.has_value();
    m_header->setLastRead(model::lastReadText(ago, watching, m_paused),
                          model::isReadLate(ago, watching, m_paused, m_timer.interval()));
}

QList<ObservedHolder> SemaphorePage::selectedHolders() const {
    QList<ObservedHolder> out;
    const auto rows = m_view->selectionModel()->selectedRows();
    for (const QModelIndex &proxyIndex : rows) {
        const Holder *h = m_holders.holderAt(m_proxy.mapToSource(proxyIndex).row());
        if (!h)
            continue;
        ObservedHolder o;
        o.holder = *h;
        o.ageMs = m_holders.ageMs(*h);
        o.ttlMs = m_holders.ttlMs(*h);
        o.client = m_liveness.livenessOf(h->id);
        out.append(o);
    }
    return out;
}

QString SemaphorePage::selectedRowsText() const {
    const QList<int> columns{HolderTableModel::HolderColumn, HolderTableModel::TokenColumn,
                             HolderTableModel::TtlColumn, HolderTableModel::StateColumn};
    QStringList lines;
    QStringList header;
    for (int c : columns)
        header << m_proxy.headerData(c, Qt::Horizontal).toString();
    lines << header.join(QLatin1Char('\t'));
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    for (const QModelIndex &row : rows) {
        QStringList cells;
        for (int c : columns)
            cells << m_proxy.index(row.row(), c).data().toString();
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n'));
}

bool SemaphorePage::selectHolder(const QString &holderId) {
    for (int r = 0; r < m_proxy.rowCount(); ++r) {
        const QModelIndex idx = m_proxy.index(r, HolderTableModel::HolderColumn);
        if (idx.data().toString() == holderId) {
            m_view->selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect |
                                                               QItemSelectionModel::Rows);
            m_view->scrollTo(idx);
            return true;
        }
    }
    return false;
}

ForceReleaseDialog *SemaphorePage::forceReleaseSelected() {
    if (!m_session || !m_actions->forceRelease->isEnabled())
        return nullptr;
    return m_commands->forceRelease(selectedHolders(), m_holders.snapshot().version);
}

InvalidateSessionDialog *SemaphorePage::invalidateSelectedSession() {
    if (!m_session || !m_actions->invalidate->isEnabled())
        return nullptr;
    const auto selected = selectedHolders();
    if (selected.size() != 1)
        return nullptr;
    return m_commands->invalidateSession(selected.first());
}

void SemaphorePage::purgeExpired() {
    // The question names how many expired records the operator sees now.
    qint64 expired = 0;
    if (m_holders.snapshot().ref == m_ref) {
        for (int r = 0; r < m_holders.rowCount(); ++r)
            expired +=
                m_holders.effectiveState(*m_holders.holderAt(r)) == HolderState::ExpiredPresent ? 1 : 0;
    }
    m_commands->purgeExpired(expired);
}

void SemaphorePage::showContextMenu(const QPoint &pos) {
    if (!m_session)
        return;
    QMenu menu(this);
    for (QAction *a : contextMenuActions()) {
        if (a)
            menu.addAction(a);
        else
            menu.addSeparator();
    }
    if (!m_lastSnapshot.ref.name.isEmpty()) {
        menu.addSeparator();
        menu.addMenu(makeColumnMenu(&menu));
    }
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

QMenu *SemaphorePage::makeColumnMenu(QWidget *parent) {
    auto *menu = new QMenu(tr("Columns"), parent);
    menu->setObjectName(QStringLiteral("holderColumnMenu"));
    addHolderColumnEntries(menu, m_view, model::holderColumnsToChoose(m_lastSnapshot),
                           [this](int column, bool on) {
                               m_columnChoices[column] = on;
                               updateColumns(m_lastSnapshot);
                           });
    return menu;
}

QVariantMap SemaphorePage::columnChoices() const {
    QVariantMap choices;
    for (auto it = m_columnChoices.begin(); it != m_columnChoices.end(); ++it)
        choices.insert(m_holders.headerData(it.key(), Qt::Horizontal).toString(), it.value());
    return choices;
}

void SemaphorePage::setColumnChoices(const QVariantMap &choices) {
    m_columnChoices.clear();
    for (int c = 0; c < m_holders.columnCount(); ++c) {
        const QString title = m_holders.headerData(c, Qt::Horizontal).toString();
        if (choices.contains(title))
            m_columnChoices[c] = choices.value(title).toBool();
    }
    if (!m_lastSnapshot.ref.name.isEmpty()) // else the first read applies them
        updateColumns(m_lastSnapshot);
}

QByteArray SemaphorePage::saveViewState() const {
    return m_view->horizontalHeader()->saveState();
}

void SemaphorePage::restoreViewState(const QByteArray &state) {
    if (!state.isEmpty())
        m_view->horizontalHeader()->restoreState(state);
    keepKeyColumnsInFront(); // also in a layout saved before they moved there
}

void SemaphorePage::keepKeyColumnsInFront() {
    // Holder, TTL and state are what an operator looks for; long tokens and the Consul columns
    // come after them, so a narrow window never scrolls these three out of view.
    QHeaderView *header = m_view->horizontalHeader();
    int at = header->visualIndex(HolderTableModel::HolderColumn) + 1;
    for (int column : {HolderTableModel::TtlColumn, HolderTableModel::StateColumn})
        header->moveSection(header->visualIndex(column), at++);
    // The age is on every page and is the one to stretch over what room is left. A column that
    // only some pages show must not be last: Qt gives a stretched last column, once others are
    // shown after it, the width it had before it stretched (Consul's "watched for …" was cut).
    header->moveSection(header->visualIndex(HolderTableModel::AgeColumn), header->count() - 1);
}

RawKeysWindow *SemaphorePage::openRawKeys() {
    if (!m_session || m_ref.name.isEmpty())
        return nullptr;
    return RawKeysWindow::showFor(this, m_session, resolvedRef());
}

} // namespace semscope::ui
