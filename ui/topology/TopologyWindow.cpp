#include "TopologyWindow.h"

#include "model/ConnectionSession.h"
#include "model/StatusColors.h"
#include "model/TopologyReader.h"
#include "ui/EnvironmentBadge.h"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace semscope::ui {

using model::TopologyModel;
using redis::topology::TopologyReport;

TopologyWindow::TopologyWindow(ConnectionSession *session, QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_session(session)
    , m_connectionId(session->config().id) {
    setObjectName(QStringLiteral("topologyWindow"));
    const auto &cfg = session->config();
    setWindowTitle(tr("Topology — %1").arg(cfg.name));
    auto *layout = new QVBoxLayout(this);

    auto *head = connectionHeader(
        this,
        tr("<b>Topology</b> of <b>%1</b> · %2").arg(cfg.name.toHtmlEscaped(), cfg.endpoint().toHtmlEscaped()),
        QStringLiteral("topologyTitle"), cfg);
    layout->addLayout(head);

    auto *bar = new QHBoxLayout;
    m_summary = new QLabel(tr("Reading…"), this);
    m_summary->setObjectName(QStringLiteral("topologySummary"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont big = m_summary->font();
    big.setBold(true);
    m_summary->setFont(big);
    m_age = new QLabel(this);
    m_age->setObjectName(QStringLiteral("topologyAge"));
    m_age->setToolTip(
        tr("Read every %1 s: CLUSTER SHARDS and INFO replication of every master").arg(kRefreshMs / 1000));
    m_refresh = new QPushButton(tr("&Refresh"), this);
    m_refresh->setObjectName(QStringLiteral("refreshTopology"));
    m_refresh->setShortcut(QKeySequence::Refresh);
    bar->addWidget(m_summary, 1);
    bar->addWidget(m_age);
    bar->addWidget(m_refresh);
    layout->addLayout(bar);

    m_proxy.setSourceModel(&m_model);
    m_proxy.setSortRole(TopologyModel::SortRole);
    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("topologyView"));
    m_view->setModel(&m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder); // the report's order: each master, then its replicas
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setTabKeyNavigation(false);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    auto *header = m_view->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setStretchLastSection(true);
    // Wide enough for what the cells hold, in the (zoomed) font.
    const QFontMetrics fm = fontMetrics();
    auto fit = [&](int column, const QString &sample) {
        header->resizeSection(column, fm.horizontalAdvance(sample) + 18);
    };
    fit(TopologyModel::AddressColumn, QStringLiteral("127.0.0.1:55555"));
    fit(TopologyModel::RoleColumn, QStringLiteral("replica"));
    fit(TopologyModel::MasterColumn, QStringLiteral("127.0.0.1:55555"));
    fit(TopologyModel::SlotsColumn, QStringLiteral("10922-16383"));
    fit(TopologyModel::SemaphoresColumn, QStringLiteral("Semaphores"));
    fit(TopologyModel::LinkColumn, QStringLiteral("wait_bgsave"));
    fit(TopologyModel::OffsetColumn, QStringLiteral("123456789"));
    fit(TopologyModel::LagBytesColumn, QStringLiteral("123.4 KB"));
    fit(TopologyModel::LagSecondsColumn, QStringLiteral("Last ack"));

    m_eventView = new QTableView(this);
    m_eventView->setObjectName(QStringLiteral("topologyEvents"));
    m_eventView->setModel(&m_events);
    m_eventView->verticalHeader()->hide();
    m_eventView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_eventView->setTabKeyNavigation(false);
    m_eventView->setWordWrap(false);
    m_eventView->horizontalHeader()->setStretchLastSection(true);
    m_eventView->horizontalHeader()->resizeSection(
        model::TopologyEventModel::TimeColumn,
        fm.horizontalAdvance(QStringLiteral("2026-11-26 14:02:03")) + 18);
    m_eventView->horizontalHeader()->resizeSection(
        model::TopologyEventModel::KindColumn, fm.horizontalAdvance(QStringLiteral("failover started")) + 18);
    auto *eventsBox = new QWidget(this);
    auto *eventsLayout = new QVBoxLayout(eventsBox);
    eventsLayout->setContentsMargins(0, 0, 0, 0);
    auto *eventsTitle =
        new QLabel(tr("<b>Failovers and map changes</b> seen on this connection (newest first)"), eventsBox);
    eventsLayout->addWidget(eventsTitle);
    eventsLayout->addWidget(m_eventView, 1);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(eventsBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("topologyStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setText(
        tr("Lag: the bytes of the replication stream a replica has not received yet. An acquire "
           "made in that window is not on the replica; a failover now would lose it."));
    layout->addWidget(m_status);

    auto *closeAction = new QAction(this);
    closeAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_W));
    addAction(closeAction);
    connect(closeAction, &QAction::triggered, this, &QWidget::close);
    connect(m_refresh, &QPushButton::clicked, this, &TopologyWindow::refresh);
    connect(&m_timer, &QTimer::timeout, this, &TopologyWindow::refresh);
    connect(&m_ageTimer, &QTimer::timeout, this, &TopologyWindow::updateAge);
    m_events.setEvents(session->controller.topologyEvents());
    connect(&session->controller, &model::ConnectionController::topologyEvent, this,
            [this](const core::TopologyEvent &e) { m_events.add(e); });
    // Its connection closed: nothing left to show.
    connect(session, &QObject::destroyed, this, &QWidget::close);
    // Semaphores per master follow the connection's list as discovery adds and drops them.
    auto recount = [this] {
        if (m_session)
            m_model.setSemaphoreSlots(m_session->list.listedSlots());
    };
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(&session->list, signal, this, recount);
    connect(&session->list, &QAbstractItemModel::modelReset, this, recount);
    connect(&session->list, &QAbstractItemModel::dataChanged, this, recount);
    recount();

    m_timer.setInterval(kRefreshMs);
    m_timer.start();
    m_ageTimer.setInterval(500);
    m_ageTimer.start();
    resize(1180, 560);
    refresh();
}

void TopologyWindow::refresh() {
    if (!m_session || m_reading)
        return;
    m_reading = true;
    model::readTopology(m_session->controller, this, [this](const TopologyReport &report) {
        m_reading = false;
        apply(report);
    });
}

void TopologyWindow::apply(const TopologyReport &report) {
    if (!report.error.isEmpty() && report.nodes.isEmpty()) {
        // The last table stays (it may be all an operator has); the reason stays until a read works.
        m_lastError = report.error;
        m_summary->setText(QStringLiteral("<span style='color:%1'>%2</span>")
                               .arg(model::toneText(model::Tone::Bad, palette()).name(),
                                    tr("Not read: %1").arg(report.error).toHtmlEscaped()));
        Q_EMIT refreshed(false);
        return;
    }
    m_lastError.clear();
    m_model.setReport(report);
    m_sinceRead.start();
    QString summary = report.summary();
    if (m_session && !m_session->controller.servingMaster().isEmpty())
        summary += QStringLiteral(" · ") + m_session->controller.servingMaster();
    if (!report.error.isEmpty())
        summary += QStringLiteral(" · ") + report.error;
    m_summary->setText(summary.toHtmlEscaped());
    updateAge();
    Q_EMIT refreshed(true);
}

void TopologyWindow::updateAge() {
    if (!m_sinceRead.isValid())
        return;
    m_age->setText(tr("read %1 s ago").arg(m_sinceRead.elapsed() / 1000));
}

} // namespace semscope::ui
