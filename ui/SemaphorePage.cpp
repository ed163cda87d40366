#include "SemaphorePage.h"

#include "model/StatusColors.h"

#include "AcquireDialog.h"
#include "ChartsPanel.h"
#include "ElidedLabel.h"
#include "EnvironmentBadge.h"
#include "HeaderFit.h"
#include "HistoryPanel.h"
#include "HolderDetailCard.h"
#include "HolderTableView.h"
#include "InvalidateSessionDialog.h"
#include "ProfileDialog.h"
#include "core/Duration.h"
#include "core/Kind.h"
#include "model/ConnectionSession.h"
#include "model/SemaphoreActionRules.h"
#include "model/WatchController.h"
#include "rawkeys/RawKeysWindow.h"
#include "topology/ReplicationPanel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace semscope::ui {

using namespace semscope::core;
using model::HolderTableModel;

namespace {
// Setting a style sheet re-polishes the widget even when the sheet is the same: at every read and
// every countdown tick that was a needless restyle of the gauge and the "read … ago" label.
void setStyleSheetIfChanged(QWidget *widget, const QString &sheet) {
    if (widget->styleSheet() != sheet)
        widget->setStyleSheet(sheet);
}
} // namespace

SemaphorePage::SemaphorePage(ProfileStore *profiles, QWidget *parent)
    : QWidget(parent)
    , m_profiles(profiles) {
    setObjectName(QStringLiteral("semaphorePage"));
    m_proxy.setSourceModel(&m_holders);
    m_holders.setAutoTick(false); // the age timer below repaints the visible rows instead
    m_timer.setInterval(1000);
    connect(&m_timer, &QTimer::timeout, this, [this] { requestSnapshot(sharedReadAgeMs()); });
    m_ageTimer.setInterval(500);
    connect(&m_ageTimer, &QTimer::timeout, this, &SemaphorePage::tick);
    connect(&m_liveness, &model::ClientLivenessWatcher::livenessChanged, this, &SemaphorePage::updateCard);

    buildActions();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);

    // Header, first row: which connection (and its environment) the page belongs to.
    auto *where = new QHBoxLayout;
    m_badge = new EnvironmentBadge(this);
    m_connection = new QLabel(this);
    m_connection->setObjectName(QStringLiteral("pageConnection"));
    m_connection->setTextFormat(Qt::PlainText);
    m_connection->setTextInteractionFlags(Qt::TextSelectableByMouse);
    where->addWidget(m_badge);
    where->addWidget(m_connection, 1);
    layout->addLayout(where);

    // Second row: what, and the refresh controls.
    auto *row1 = new QHBoxLayout;
    m_kind = new QLabel(this);
    m_kind->setObjectName(QStringLiteral("kindLabel"));
    m_kind->setStyleSheet(QStringLiteral("QLabel { background: #37474f; color: white; border-radius: 8px; "
                                         "padding: 2px 8px; font-weight: bold; }"));
    m_name = new ElidedLabel(this);
    m_name->setObjectName(QStringLiteral("nameLabel"));
    m_name->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long name (or "Select a semaphore on the left" in the big font) must not make the window
    // wider than a 1024 px screen: it gives way to the refresh controls, cut in the middle so both
    // ends stay readable (the tooltip has it all). ElidedLabel asks for the whole name and settles
    // for a few characters, so it is cut only when the row lacks room, not beside the stretch.
    m_lastRead = new QLabel(this);
    m_lastRead->setObjectName(QStringLiteral("lastRead"));
    m_lastRead->setToolTip(tr("When the holders were last read from the server. TTLs count down locally in "
                              "between."));
    // Never narrower than its text: "watching · last change 1.0 s ago" was cut to "… s ag".
    m_lastRead->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Preferred);
    m_interval = new QSpinBox(this);
    m_interval->setObjectName(QStringLiteral("interval"));
    m_interval->setRange(1, 3600);
    m_interval->setValue(1);
    m_interval->setPrefix(tr("every "));
    m_interval->setSuffix(tr(" s"));
    m_interval->setToolTip(tr("Auto-refresh interval"));
    m_pauseButton = new QPushButton(tr("Pause"), this);
    m_pauseButton->setObjectName(QStringLiteral("pauseButton"));
    m_pauseButton->setCheckable(true);
    m_pauseButton->setToolTip(tr("Stop re-reading (TTLs keep counting down from the last read)"));
    auto *refreshButton = new QPushButton(tr("Refresh"), this);
    refreshButton->setToolTip(tr("Read now (F5)"));
    row1->addWidget(m_kind);
    row1->addWidget(m_name); // no stretch factor: it would share out the room the name asks for
    m_watchToggle = new QAction(this);
    m_watchToggle->setObjectName(QStringLiteral("watchToggle"));
    m_watchToggle->setCheckable(true);
    auto *watchButton = new QToolButton(this);
    watchButton->setObjectName(QStringLiteral("watchButton"));
    watchButton->setDefaultAction(m_watchToggle);
    watchButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    watchButton->setAutoRaise(true);
    row1->addWidget(watchButton);
    row1->addStretch(1);
    row1->addWidget(m_lastRead);
    row1->addWidget(m_interval);
    row1->addWidget(m_pauseButton);
    row1->addWidget(refreshButton);
    layout->addLayout(row1);

    // Third row: the limit, where it comes from, and how full the semaphore is.
    auto *row2 = new QHBoxLayout;
    m_limit = new QLabel(this);
    m_limit->setObjectName(QStringLiteral("limitLabel"));
    m_profileButton = new QPushButton(tr("Edit profile…"), this);
    m_profileButton->setObjectName(QStringLiteral("profileButton"));
    m_profileButton->setToolTip(tr("Set the limit (and timeout) of a layout that does not store them"));
    m_gauge = new QProgressBar(this);
    m_gauge->setObjectName(QStringLiteral("gauge"));
    m_gauge->setMinimumWidth(220);
    m_gauge->setTextVisible(true);
    m_gauge->setAlignment(Qt::AlignCenter);
    row2->addWidget(m_limit);
    row2->addWidget(m_profileButton);
    auto *rawKeysButton = new QPushButton(tr("Raw keys…"), this);
    rawKeysButton->setObjectName(QStringLiteral("rawKeysButton"));
    rawKeysButton->setToolTip(tr("The keys this semaphore is made of, as stored (Ctrl+K); read-only"));
    connect(rawKeysButton, &QPushButton::clicked, this, [this] { openRawKeys(); });
    row2->addWidget(rawKeysButton);
    row2->addSpacing(12);
    row2->addWidget(m_gauge, 1);
    layout->addLayout(row2);

    m_warnings = new QLabel(this);
    m_warnings->setObjectName(QStringLiteral("warnings"));
    m_warnings->setWordWrap(true);
    m_warnings->hide();
    layout->addWidget(m_warnings);

    m_readOnlyBanner = new QLabel(tr("Read-only connection: viewing only, every write is disabled."), this);
    m_readOnlyBanner->setObjectName(QStringLiteral("readOnlyBanner"));
    m_readOnlyBanner->hide();
    layout->addWidget(m_readOnlyBanner);
    m_writesRefusedBanner = new QLabel(this);
    m_writesRefusedBanner->setObjectName(QStringLiteral("writesRefusedBanner"));
    m_writesRefusedBanner->setTextFormat(Qt::PlainText);
    m_writesRefusedBanner->setWordWrap(true);
    m_writesRefusedBanner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_writesRefusedBanner->hide();
    layout->addWidget(m_writesRefusedBanner);
    applyTones();

    m_toolbar = new QToolBar(this);
    m_toolbar->setObjectName(QStringLiteral("holderActions"));
    m_toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    for (QAction *a :
         {m_acquire, m_refreshMine, m_releaseMine, m_forceRelease, m_invalidate, m_purge, m_repair})
        m_toolbar->addAction(a);
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
    m_view->addAction(m_forceRelease);
    m_view->addAction(m_copyRows);
    connect(m_view, &HolderTableView::deleteRefused, this, [this] {
        Q_EMIT statusMessage(!m_session || !m_session->actions.canWrite()
                                 ? tr("Delete force-releases holders, but this connection is read-only.")
                                 : tr("Delete force-releases the selected holders: select one first (arrow "
                                      "keys or a click)."));
    });
    // Tab leaves the table for the next pane; the arrows move between holders.
    m_view->setTabKeyNavigation(false);
    connect(m_view, &QWidget::customContextMenuRequested, this, &SemaphorePage::showContextMenu);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        updateCard();
        updateActions();
    });

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

    connect(m_interval, &QSpinBox::valueChanged, this, [this](int s) { setIntervalMs(s * 1000); });
    connect(m_pauseButton, &QPushButton::toggled, this, &SemaphorePage::setPaused);
    connect(refreshButton, &QPushButton::clicked, this, &SemaphorePage::refreshNow);
    connect(m_profileButton, &QPushButton::clicked, this, &SemaphorePage::editProfile);
    connect(m_watchToggle, &QAction::toggled, this, [this](bool on) {
        if (m_watch && m_session)
            m_watch->setWatched(m_session->config().id, m_ref, on);
        updateWatchToggle();
    });

    clearSemaphore();
}

SemaphorePage::~SemaphorePage() = default;

void SemaphorePage::setMonitoring(model::WatchController *watch, monitor::HistoryWorker *history) {
    m_watch = watch;
    m_historyPanel->setMonitoring(watch, history);
    if (m_watch)
        connect(m_watch, &model::WatchController::watchedChanged, this, &SemaphorePage::updateWatchToggle);
    updateWatchToggle();
}

void SemaphorePage::updateWatchToggle() {
    const bool on = m_watch && m_session && m_watch->isWatched(m_session->config().id, m_ref);
    const QSignalBlocker block(m_watchToggle);
    m_watchToggle->setChecked(on);
    m_watchToggle->setText(on ? tr("★ Watched") : tr("☆ Watch"));
    m_watchToggle->setToolTip(
        on ? tr("Watched in the background: a desktop notification when a holder turns "
                "stale or over-limit, the semaphore stays full, or someone else "
                "force-releases a holder. Click to stop watching.")
           : tr("Watch this semaphore in the background and get desktop notifications"));
    m_watchToggle->setVisible(m_watch != nullptr);
    m_watchToggle->setEnabled(m_session != nullptr);
}

void SemaphorePage::fitToFont() {
    QFont big = font();
    big.setPointSizeF(big.pointSizeF() * 1.35);
    big.setBold(true);
    m_name->setFont(big);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    // "read 999 ms ago" changes every tick: room for the longest, or the big name squeezes it.
    m_lastRead->setMinimumWidth(m_lastRead->fontMetrics().horizontalAdvance(tr("read 999 ms ago")) + 4);
    // Widths in units of the font's average character, so a zoomed page keeps its columns readable.
    const int ch = std::max(6, m_view->fontMetrics().averageCharWidth());
    fitHeaderSections(m_view->horizontalHeader(),
                      {{HolderTableModel::HolderColumn, 21 * ch},
                       {HolderTableModel::AcquiredColumn, 10 * ch},
                       {HolderTableModel::AgeColumn, 18 * ch}, // "watched for 3 m 10 s"
                       {HolderTableModel::TtlColumn, 16 * ch}, // "expired 12 s ago"
                       {HolderTableModel::StateColumn, 11 * ch}});
}

void SemaphorePage::changeEvent(QEvent *event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        fitToFont();
    if (event->type() == QEvent::PaletteChange)
        applyTones();
}

void SemaphorePage::applyTones() {
    // From the palette in use, so a dark theme keeps the banners legible (StatusColors).
    using model::Tone;
    // The palette's own text on a tint: the tint says the tone, the text stays at full contrast.
    const QString text = palette().color(QPalette::Text).name();
    m_warnings->setStyleSheet(QStringLiteral("QLabel { color: %1; background: %2; padding: 4px; }")
                                  .arg(text, model::toneBackground(Tone::Bad, palette()).name()));
    m_readOnlyBanner->setStyleSheet(QStringLiteral("QLabel { color: %1; background: %2; padding: 4px; }")
                                        .arg(text, model::toneBackground(Tone::Info, palette()).name()));
    m_writesRefusedBanner->setStyleSheet(
        QStringLiteral("QLabel { color: %1; background: %2; padding: 4px; }")
            .arg(text, model::toneBackground(Tone::Caution, palette()).name()));
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

void SemaphorePage::buildActions() {
    m_refreshNow = new QAction(tr("&Refresh now"), this);
    m_refreshNow->setShortcut(QKeySequence::Refresh);
    m_refreshNow->setToolTip(tr("Read the semaphore again now (F5)"));
    connect(m_refreshNow, &QAction::triggered, this, &SemaphorePage::refreshNow);

    m_acquire = new QAction(tr("&Acquire…"), this);
    m_acquire->setObjectName(QStringLiteral("acquireAction"));
    m_acquire->setToolTip(tr("Take a slot yourself (holder id defaults to user@host)"));
    connect(m_acquire, &QAction::triggered, this, &SemaphorePage::acquire);

    m_refreshMine = new QAction(tr("Re&new my slot"), this);
    m_refreshMine->setToolTip(tr("Extend the lease of a slot this window acquired"));
    connect(m_refreshMine, &QAction::triggered, this, &SemaphorePage::refreshMine);

    m_releaseMine = new QAction(tr("Re&lease my slot"), this);
    m_releaseMine->setToolTip(tr("Give back a slot this window acquired"));
    connect(m_releaseMine, &QAction::triggered, this, &SemaphorePage::releaseMine);

    m_forceRelease = new QAction(tr("&Force-release…"), this);
    m_forceRelease->setObjectName(QStringLiteral("forceReleaseAction"));
    m_forceRelease->setShortcuts({QKeySequence::Delete, QKeySequence(QStringLiteral("Ctrl+Shift+Del"))});
    // Only where the holders are in view and focused: a window-wide Delete would reach a holder the
    // operator is not looking at (while typing in the filter, or with another pane in front).
    m_forceRelease->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_forceRelease->setToolTip(tr("Remove the selected holders, only if they are still exactly what you see "
                                  "(Del, Ctrl+Shift+Del)"));
    connect(m_forceRelease, &QAction::triggered, this, [this] { forceReleaseSelected(); });

    m_purge = new QAction(tr("&Purge expired"), this);
    m_purge->setObjectName(QStringLiteral("purgeAction"));
    m_purge->setToolTip(tr("Remove every holder whose lease ran out but whose record is still there"));
    connect(m_purge, &QAction::triggered, this, &SemaphorePage::purgeExpired);

    m_repair = new QAction(tr("Repair &slots"), this);
    m_repair->setObjectName(QStringLiteral("repairAction"));
    m_repair->setToolTip(tr("slots layout: put missing slot numbers back and drop duplicates"));
    connect(m_repair, &QAction::triggered, this, &SemaphorePage::repair);

    m_invalidate = new QAction(tr("&Invalidate session…"), this);
    m_invalidate->setObjectName(QStringLiteral("invalidateAction"));
    m_invalidate->setToolTip(
        tr("Consul: destroy the selected holder's session. Consul then releases or deletes "
           "its keys (per the session's behavior) and its owner loses the slot."));
    connect(m_invalidate, &QAction::triggered, this, [this] { invalidateSelectedSession(); });

    m_rawKeys = new QAction(tr("Raw &keys…"), this);
    m_rawKeys->setObjectName(QStringLiteral("rawKeysAction"));
    m_rawKeys->setShortcut(QKeySequence(QStringLiteral("Ctrl+K")));
    connect(m_rawKeys, &QAction::triggered, this, [this] { openRawKeys(); });

    m_editProfile = new QAction(tr("&Edit profile…"), this);
    connect(m_editProfile, &QAction::triggered, this, &SemaphorePage::editProfile);

    m_copyRows = new QAction(tr("&Copy rows"), this);
    m_copyRows->setObjectName(QStringLiteral("copyRowsAction"));
    m_copyRows->setShortcut(QKeySequence::Copy);
    m_copyRows->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_copyRows->setToolTip(tr("Copy the selected holders as text: holder, token, TTL, state (Ctrl+C)"));
    connect(m_copyRows, &QAction::triggered, this,
            [this] { QApplication::clipboard()->setText(selectedRowsText()); });

    m_copyId = new QAction(tr("Copy holder &id"), this);
    connect(m_copyId, &QAction::triggered, this, [this] {
        QStringList ids;
        for (const auto &o : selectedHolders())
            ids << o.holder.id;
        QApplication::clipboard()->setText(ids.join(QLatin1Char('\n')));
    });
}

QList<QAction *> SemaphorePage::writeActions() const {
    return {m_acquire, m_refreshMine, m_releaseMine, m_forceRelease, m_invalidate, m_purge, m_repair};
}

QList<QAction *> SemaphorePage::allActions() const {
    return {m_refreshNow, m_acquire, m_refreshMine, m_releaseMine, m_forceRelease,
            m_invalidate, m_purge,   m_repair,      m_editProfile, m_rawKeys};
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
    const auto &cfg = session->config();
    m_kind->setText(kindName(ref.kind));
    m_kind->setToolTip(kindDescription(ref.kind));
    m_name->setFullText(ref.name);
    m_badge->setEnvironment(cfg.environment, cfg.readOnly);
    m_badge->show();
    updatePlace();
    // A failover moves the master the header names.
    disconnect(m_placeConnection);
    m_placeConnection = connect(&session->controller, &model::ConnectionController::topologyEvent, this,
                                &SemaphorePage::updatePlace);
    m_replication->setSemaphore(session, ref);
    m_limit->setText(tr("Limit: reading…"));
    m_gauge->setRange(0, 1);
    m_gauge->setValue(0);
    m_gauge->setFormat(tr("reading…"));
    m_warnings->hide();
    m_writesRefusedBanner->hide();
    m_readOnlyBanner->setVisible(cfg.readOnly);
    // Read-only connections offer no write at all: the actions are not just greyed, they are gone.
    for (QAction *a : writeActions())
        a->setVisible(!cfg.readOnly);
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
    QString text = tr("on %1 · %2").arg(cfg.name, cfg.endpoint());
    const int row = m_session->list.rowOf(m_ref);
    const core::DiscoveredSemaphore found = m_session->list.discoveredAt(row);
    if (found.slot >= 0 && !found.node.isEmpty())
        text += tr(" · master %1, slot %2").arg(found.node).arg(found.slot);
    else if (!m_session->controller.servingMaster().isEmpty())
        text += QStringLiteral(" · ") + m_session->controller.servingMaster();
    m_connection->setText(text);
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
        // Nothing to set there: the box goes, and its room goes to the name and "watching …".
        m_interval->hide();
        return;
    }
    m_interval->show();
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
    m_kind->setText(tr("no semaphore"));
    m_name->setFullText(tr("Select a semaphore on the left"));
    m_badge->hide();
    m_connection->clear();
    m_profileButton->hide(); // nothing to give a profile to
    m_repair->setVisible(false);
    m_limit->clear();
    m_gauge->setRange(0, 1);
    m_gauge->setValue(0);
    m_gauge->setFormat(QString());
    m_warnings->hide();
    m_readOnlyBanner->hide();
    m_writesRefusedBanner->hide();
    m_lastRead->clear();
    m_historyPanel->clear();
    disconnect(m_placeConnection);
    m_replication->clear();
    updateWatchToggle();
    for (QAction *a : allActions())
        a->setEnabled(false);
    m_copyRows->setEnabled(false);
    m_copyId->setEnabled(false);
}

SemaphoreRef SemaphorePage::resolvedRef() const {
    SemaphoreRef r = m_ref;
    if (m_profiles && m_session)
        r.profile = m_profiles->resolve(m_session->config().endpoint(), m_ref);
    return r;
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
    if (m_pauseButton->isChecked() != paused)
        m_pauseButton->setChecked(paused);
    m_pauseButton->setText(paused ? tr("Resume") : tr("Pause"));
    if (paused)
        stopUpdates();
    else
        startUpdates();
    updateAge();
}

void SemaphorePage::setIntervalMs(int ms) {
    m_timer.setInterval(std::max(100, ms));
    m_liveness.setIntervalMs(ms);
    if (m_interval->value() != ms / 1000 && ms >= 1000)
        m_interval->setValue(ms / 1000);
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
    updateHeader(snapshot);
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

void SemaphorePage::updateHeader(const Snapshot &s) {
    const qint64 used = s.usedCount();
    if (s.limit) {
        m_limit->setText(tr("Limit <b>%1</b> (%2)").arg(*s.limit).arg(limitSourceName(s.limitSource)));
        m_limit->setToolTip(
            s.limitSource == LimitSource::Stored
                ? tr("The limit is stored with the semaphore.")
                : tr("This layout does not store its limit; it comes from the semaphore's profile "
                     "(%1).")
                      .arg(limitSourceName(s.limitSource)));
        m_gauge->setRange(0, int(std::max<qint64>(1, *s.limit)));
        m_gauge->setValue(int(std::min(used, *s.limit)));
        m_gauge->setFormat(used > *s.limit ? tr("%1 / %2 used — OVER THE LIMIT").arg(used).arg(*s.limit)
                                           : tr("%1 / %2 used").arg(used).arg(*s.limit));
        const double ratio = double(used) / double(std::max<qint64>(1, *s.limit));
        using model::Tone;
        const QString color = (used > *s.limit ? model::toneFill(Tone::Bad)
                               : ratio >= 0.8  ? model::toneFill(Tone::Caution)
                                               : model::toneFill(Tone::Good))
                                  .name();
        // A style sheet for the chunk styles the whole bar: its groove takes the palette's base
        // (it was white under a dark theme).
        setStyleSheetIfChanged(
            m_gauge, QStringLiteral("QProgressBar { background: %2; color: %3; border: 1px solid "
                                    "%4; border-radius: 3px; text-align: center; } "
                                    "QProgressBar::chunk { background: %1; }")
                         .arg(color, palette().color(QPalette::Base).name(),
                              palette().color(QPalette::Text).name(), palette().color(QPalette::Mid).name()));
    } else {
        m_limit->setText(tr("Limit <b>unknown</b> — not stored in this layout"));
        m_limit->setToolTip(tr("Set it with Edit profile so usage and over-limit holders can be shown."));
        m_gauge->setRange(0, 1);
        m_gauge->setValue(0);
        m_gauge->setFormat(tr("%1 used / limit unknown").arg(used));
        setStyleSheetIfChanged(m_gauge, {});
    }
    const bool profileMatters = s.limitSource != LimitSource::Stored;
    m_profileButton->setVisible(profileMatters);
    m_editProfile->setEnabled(profileMatters);
    // Every warning of the semaphore: discovery's (a slot held twice, a key of the wrong type) as
    // well as this read's, as the list counts them.
    const QStringList warnings =
        m_session && m_session->list.rowOf(s.ref) >= 0 ? m_session->list.warningsOf(s.ref) : s.warnings;
    if (warnings.isEmpty()) {
        m_warnings->hide();
    } else {
        m_warnings->setText(QStringLiteral("⚠ ") + warnings.join(QStringLiteral("\n⚠ ")));
        m_warnings->show();
    }
}

void SemaphorePage::updateColumns(const Snapshot &s) {
    bool rank = false, slot = false, token = false, acquired = false, ttl = false;
    for (const Holder &h : s.holders) {
        rank = rank || h.rank.has_value();
        slot = slot || h.slot.has_value();
        token = token || h.token.has_value();
        acquired = acquired || h.acquiredAtMs.has_value();
        ttl = ttl || h.expiresAtMs.has_value();
    }
    const bool consul = core::backendOf(s.ref.kind) == core::Backend::Consul;
    const bool empty = s.holders.isEmpty();
    m_view->setColumnHidden(HolderTableModel::RankColumn, !rank && !empty);
    m_view->setColumnHidden(HolderTableModel::SlotColumn, !slot && s.ref.kind != Kind::Slots);
    m_view->setColumnHidden(HolderTableModel::TokenColumn, !token && !empty);
    m_view->setColumnHidden(HolderTableModel::AcquiredColumn, !acquired);
    // Consul holders live as long as their session: its TTL is in the Session column and the card.
    m_view->setColumnHidden(HolderTableModel::TtlColumn, !ttl && (s.ref.kind == Kind::Slots || consul));
    for (int c : {HolderTableModel::SessionColumn, HolderTableModel::NodeColumn,
                  HolderTableModel::BehaviorColumn, HolderTableModel::HealthColumn})
        m_view->setColumnHidden(c, !consul);
    m_view->refitColumns();
}

void SemaphorePage::updateActions() {
    const bool has = m_session != nullptr;
    m_rawKeys->setEnabled(has);
    m_refreshNow->setEnabled(has);
    const auto selected = selectedHolders();
    m_copyId->setEnabled(!selected.isEmpty());
    m_copyRows->setEnabled(!selected.isEmpty());
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
    in.selectedHolders = int(selected.size());
    for (const auto &o : selected)
        in.ownHolderSelected =
            in.ownHolderSelected || m_session->actions.grantFor(m_ref, o.holder.rawId).has_value();
    const model::SemaphoreActionRules rules = model::semaphoreActionRules(in);
    using A = model::SemaphoreAction;
    const QList<std::pair<QAction *, A>> actions{{m_acquire, A::Acquire},
                                                 {m_refreshMine, A::RenewMine},
                                                 {m_releaseMine, A::ReleaseMine},
                                                 {m_forceRelease, A::ForceRelease},
                                                 {m_purge, A::Purge},
                                                 {m_repair, A::Repair},
                                                 {m_invalidate, A::InvalidateSession}};
    for (const auto &[action, which] : actions) {
        const model::SemaphoreActionVerdict v = rules.verdict(which);
        // The tooltip it was built with, then why it is greyed (rich text, so a long reason wraps).
        if (!action->property("baseToolTip").isValid())
            action->setProperty("baseToolTip", action->toolTip());
        const QString base = action->property("baseToolTip").toString();
        action->setVisible(v.offered);
        action->setEnabled(v.offered && v.allowed);
        action->setToolTip(
            v.why.isEmpty()
                ? base
                : QStringLiteral("<p>%1</p><p><b>%2</b> %3</p>")
                      .arg(base.toHtmlEscaped(), tr("Not available:").toHtmlEscaped(),
                           v.why.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"))));
    }
    m_writesRefusedBanner->setText(rules.banner);
    m_writesRefusedBanner->setVisible(!rules.banner.isEmpty());
}

void SemaphorePage::updateCard() {
    const auto rows = m_view->selectionModel()->selectedRows();
    if (rows.size() != 1) {
        m_liveness.setHolders({});
        if (rows.isEmpty())
            m_card->showHolder(nullptr, nullptr);
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
        m_lastRead->setText(m_session ? tr("reading…") : QString());
        return;
    }
    const qint64 ago = QDateTime::currentMSecsSinceEpoch() - m_lastReadLocalMs;
    QString text =
        m_watching ? tr("watching · last change %1 ago").arg(core::formatDurationMs(std::max<qint64>(0, ago)))
                   : tr("read %1 ago").arg(core::formatDurationMs(std::max<qint64>(0, ago)));
    if (m_paused)
        text += tr(" · paused");
    m_lastRead->setText(text);
    // A read far older than the interval means the server is slow or gone: say so. (A watch is
    // quiet while nothing changes, so it never counts as late.)
    const bool late = !m_paused && !m_watching && ago > std::max(5000, 3 * m_timer.interval());
    setStyleSheetIfChanged(
        m_lastRead,
        late ? QStringLiteral("color: %1; font-weight: bold;").arg(model::toneText(model::Tone::Bad).name())
             : QString());
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
    if (!m_session || !m_forceRelease->isEnabled())
        return nullptr;
    const auto holders = selectedHolders();
    if (holders.isEmpty())
        return nullptr;
    auto *dialog =
        new ForceReleaseDialog(&m_session->actions, m_ref, holders, m_holders.snapshot().version, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ForceReleaseDialog::released, this, &SemaphorePage::refreshNow);
    dialog->open();
    return dialog;
}

QList<QAction *> SemaphorePage::contextMenuActions() const {
    // Hidden actions (writes on a read-only connection, Consul-only ones elsewhere) are left out,
    // so the menu never offers what the toolbar does not. nullptr marks a separator.
    QList<QAction *> out{m_copyRows, m_copyId, nullptr};
    for (QAction *a : {m_refreshMine, m_releaseMine, m_forceRelease, m_invalidate, m_purge}) {
        if (a->isVisible())
            out.append(a);
    }
    out.append(nullptr);
    out.append(m_refreshNow);
    return out;
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
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

void SemaphorePage::acquire() {
    if (!m_session)
        return;
    // The dialog acquires itself (with "Wait for N replicas" where the kind can) and says in place
    // why an acquire did not go through; it closes accepted on a grant.
    AcquireDialog dialog(m_ref.name, model::OperatorActions::defaultHolderId(), this);
    dialog.attach(&m_session->actions, resolvedRef(), m_holders.snapshot().node);
    if (dialog.exec() == QDialog::Accepted) {
        const core::Grant &grant = dialog.acquireResult().grant;
        const QStringList warnings = grant.warnings();
        Q_EMIT statusMessage(warnings.isEmpty()
                                 ? tr("Acquired %1 as %2").arg(m_ref.name, grant.holder)
                                 : tr("Acquired %1 as %2, but: %3")
                                       .arg(m_ref.name, grant.holder, warnings.join(QStringLiteral("; "))));
        // Selected as soon as it is read back, so Renew and Release my slot are ready at once.
        m_selectOnRead = grant.holder;
    }
    refreshNow();
}

void SemaphorePage::refreshMine() {
    if (!m_session)
        return;
    for (const auto &o : selectedHolders()) {
        if (auto grant = m_session->actions.grantFor(m_ref, o.holder.rawId)) {
            m_session->actions.refresh(*grant, 30000, this, [this](RefreshResult) { refreshNow(); });
        }
    }
}

void SemaphorePage::releaseMine() {
    if (!m_session)
        return;
    for (const auto &o : selectedHolders()) {
        if (auto grant = m_session->actions.grantFor(m_ref, o.holder.rawId))
            m_session->actions.release(*grant, this, [this](ReleaseResult) { refreshNow(); });
    }
}

void SemaphorePage::purgeExpired() {
    if (!m_session)
        return;
    const qint64 expired = m_holders.snapshot().ref == m_ref ? [this] {
        qint64 n = 0;
        for (int r = 0; r < m_holders.rowCount(); ++r)
            n += m_holders.effectiveState(*m_holders.holderAt(r)) == HolderState::ExpiredPresent ? 1 : 0;
        return n;
    }() : 0;
    const auto answer = QMessageBox::question(
        this, tr("Purge expired holders"),
        tr("Remove the %n holder(s) of %1 whose lease has run out but whose record is still there?\nHolders "
           "whose lease is still running are not touched.",
           nullptr, int(expired))
            .arg(m_ref.name));
    if (answer != QMessageBox::Yes)
        return;
    m_session->actions.purgeExpired(resolvedRef(), this, [this](MaintenanceResult r) {
        Q_EMIT statusMessage(r.ok ? tr("Purged %1 expired holder(s) from %2").arg(r.affected).arg(m_ref.name)
                                  : tr("Purge failed: %1").arg(r.message));
        refreshNow();
    });
}

void SemaphorePage::repair() {
    if (!m_session)
        return;
    const auto answer = QMessageBox::question(
        this, tr("Repair slots"),
        tr("Put missing slot numbers of %1 back on the free list and remove duplicates? Holders are kept.")
            .arg(m_ref.name));
    if (answer != QMessageBox::Yes)
        return;
    m_session->actions.repair(resolvedRef(), this, [this](MaintenanceResult r) {
        Q_EMIT statusMessage(
            r.ok ? tr("Repaired %1: %2")
                       .arg(m_ref.name, r.message.isEmpty() ? QString::number(r.affected) : r.message)
                 : tr("Repair failed: %1").arg(r.message));
        refreshNow();
    });
}

InvalidateSessionDialog *SemaphorePage::invalidateSelectedSession() {
    if (!m_session || !m_invalidate->isEnabled())
        return nullptr;
    const auto selected = selectedHolders();
    if (selected.size() != 1)
        return nullptr;
    auto *dialog = new InvalidateSessionDialog(&m_session->actions, m_ref, selected.first(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &InvalidateSessionDialog::answered, this, &SemaphorePage::refreshNow);
    dialog->open();
    return dialog;
}

void SemaphorePage::editProfile() {
    if (!m_session || !m_profiles)
        return;
    ProfileDialog dialog(resolvedRef(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    m_profiles->save(m_session->config().endpoint(), m_ref.kind, m_ref.name, dialog.profile());
    refreshNow();
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
