#include "ReplicationPanel.h"

#include "model/ConnectionSession.h"
#include "model/StatusColors.h"
#include "model/TopologyModel.h"
#include "model/TopologyReader.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace semscope::ui {

using redis::topology::NodeReport;
using redis::topology::TopologyReport;

QString masterOfSlot(const TopologyReport &report, int slot) {
    for (const NodeReport &n : report.nodes) {
        if (n.role != QLatin1String("master"))
            continue;
        for (const QString &range : n.slotRanges.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const QStringList ends = range.split(QLatin1Char('-'));
            const int from = ends.first().toInt();
            const int to = ends.last().toInt();
            if (slot >= from && slot <= to)
                return n.address;
        }
    }
    return {};
}

ReplicationPanel::ReplicationPanel(QWidget *parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("replicationPanel"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    auto *head = new QHBoxLayout;
    m_master = new QLabel(this);
    m_master->setObjectName(QStringLiteral("replicationMaster"));
    m_master->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_master->setWordWrap(true);
    m_age = new QLabel(this);
    m_age->setObjectName(QStringLiteral("replicationAge"));
    m_age->setToolTip(tr("When the replicas were last read (INFO replication on the master, every %1 s while "
                         "this tab is on show)")
                          .arg(kRefreshMs / 1000));
    head->addWidget(m_master, 1);
    head->addWidget(m_age);
    layout->addLayout(head);

    m_replicas = new QLabel(this);
    m_replicas->setObjectName(QStringLiteral("replicationReplicas"));
    m_replicas->setTextFormat(Qt::RichText);
    m_replicas->setWordWrap(true);
    m_replicas->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_replicas->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    layout->addWidget(m_replicas);

    m_eventsTitle = new QLabel(this);
    m_eventsTitle->setObjectName(QStringLiteral("replicationEventsTitle"));
    layout->addWidget(m_eventsTitle);
    m_eventView = new QTableView(this);
    m_eventView->setObjectName(QStringLiteral("replicationEvents"));
    m_eventView->setModel(&m_events);
    m_eventView->verticalHeader()->hide();
    m_eventView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_eventView->setWordWrap(false);
    m_eventView->setTabKeyNavigation(false);
    m_eventView->horizontalHeader()->setStretchLastSection(true);
    m_eventView->horizontalHeader()->resizeSection(
        model::TopologyEventModel::TimeColumn,
        fontMetrics().horizontalAdvance(QStringLiteral("2026-11-26 14:02:03")) + 16);
    m_eventView->horizontalHeader()->resizeSection(
        model::TopologyEventModel::KindColumn,
        fontMetrics().horizontalAdvance(QStringLiteral("failover started")) + 16);
    layout->addWidget(m_eventView, 1);

    m_timer.setInterval(kRefreshMs);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (isVisible())
            refresh();
    });
    m_ageTimer.setInterval(1000);
    connect(&m_ageTimer, &QTimer::timeout, this, &ReplicationPanel::updateAge);
    clear();
}

QString ReplicationPanel::tabTitle() const {
    const int n = m_events.rowCount();
    if (n == 0)
        return tr("Replication");
    return n == 1 ? tr("Replication (1 event)") : tr("Replication (%1 events)").arg(n);
}

void ReplicationPanel::clear() {
    ++m_generation;
    m_reading = false;
    m_session = nullptr;
    m_ref = {};
    m_report = {};
    m_shownMaster.clear();
    m_timer.stop();
    m_ageTimer.stop();
    disconnect(m_eventConnection);
    m_eventsOf = nullptr;
    m_events.setEvents({});
    m_master->setText(tr("No semaphore"));
    m_replicas->clear();
    m_age->clear();
    m_eventsTitle->hide();
    m_eventView->hide();
    Q_EMIT tabTitleChanged(tabTitle());
}

void ReplicationPanel::setSemaphore(ConnectionSession *session, const core::SemaphoreRef &ref) {
    ++m_generation;
    m_reading = false;
    m_session = session;
    m_ref = ref;
    m_sinceRead.invalidate();
    m_shownMaster.clear();
    m_age->clear();
    if (session->config().backend == core::Backend::Consul) {
        m_timer.stop();
        m_ageTimer.stop();
        disconnect(m_eventConnection);
        m_eventsOf = nullptr;
        m_events.setEvents({});
        m_master->setText(model::consulReplicationNote());
        m_replicas->clear();
        m_eventsTitle->hide();
        m_eventView->hide();
        Q_EMIT tabTitleChanged(tabTitle());
        return;
    }
    if (m_eventsOf != session) {
        disconnect(m_eventConnection);
        m_eventsOf = session;
        m_events.setEvents(session->controller.topologyEvents());
        m_eventConnection = connect(&session->controller, &model::ConnectionController::topologyEvent, this,
                                    &ReplicationPanel::addEvent);
    }
    m_eventsTitle->show();
    m_eventView->show();
    m_eventsTitle->setText(m_events.rowCount() == 0
                               ? tr("<b>Failovers</b> on this connection: none since it opened")
                               : tr("<b>Failovers</b> on this connection (newest first)"));
    m_master->setText(
        tr("Reading the replication of the master serving <b>%1</b>…").arg(ref.name.toHtmlEscaped()));
    m_replicas->clear();
    m_timer.start();
    m_ageTimer.start();
    Q_EMIT tabTitleChanged(tabTitle());
    if (isVisible())
        refresh();
}

void ReplicationPanel::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    // Not read while hidden: coming into view reads at once when the last read is old.
    if (m_session && m_timer.isActive() && (!m_sinceRead.isValid() || m_sinceRead.elapsed() > kRefreshMs))
        refresh();
}

void ReplicationPanel::refresh() {
    if (!m_session || m_reading || m_session->config().backend == core::Backend::Consul)
        return;
    m_reading = true;
    const quint64 generation = m_generation;
    model::readTopology(m_session->controller, this, [this, generation](const TopologyReport &report) {
        if (generation != m_generation)
            return;
        m_reading = false;
        apply(report);
    });
}

void ReplicationPanel::noteServingNode(const QString &node) {
    // Cluster only: elsewhere the one master may be spelled differently by the report and the
    // read (a host name, an address), and a read every second would follow.
    if (m_report.mode == QLatin1String("cluster") && !node.isEmpty() && !m_shownMaster.isEmpty() &&
        node != m_shownMaster && isVisible())
        refresh();
}

void ReplicationPanel::addEvent(const core::TopologyEvent &event) {
    m_events.add(event);
    if (m_events.rowCount() > 0)
        m_eventsTitle->setText(tr("<b>Failovers</b> on this connection (newest first)"));
    Q_EMIT tabTitleChanged(tabTitle());
    // The master may have moved: read again now rather than at the next tick.
    if (core::isFailoverEvent(event) && isVisible())
        refresh();
}

void ReplicationPanel::apply(const TopologyReport &report) {
    if (!report.error.isEmpty() && report.nodes.isEmpty()) {
        // The last picture stays (it may be all an operator has); the reason is said above it.
        m_master->setText(QStringLiteral("<span style='color:%1'>%2</span>")
                              .arg(model::toneText(model::Tone::Bad, palette()).name(),
                                   tr("Replication not read: %1").arg(report.error).toHtmlEscaped()));
        Q_EMIT refreshed(false);
        return;
    }
    m_report = report;
    m_sinceRead.start();
    updateAge();
    // Which master serves this semaphore: on a Cluster the one whose ranges hold its slot now (it
    // may have moved since discovery), else the one master there is.
    QString master;
    int slot = -1;
    if (m_session) {
        const core::DiscoveredSemaphore found = m_session->list.discoveredAt(m_session->list.rowOf(m_ref));
        slot = found.slot;
        if (report.mode == QLatin1String("cluster") && slot >= 0) {
            master = masterOfSlot(report, slot);
            if (master.isEmpty())
                master = found.node; // no range holds it in this map: where discovery found it
        }
    }
    if (master.isEmpty()) {
        for (const NodeReport &n : report.nodes) {
            if (n.role == QLatin1String("master")) {
                master = n.address;
                break;
            }
        }
    }
    m_shownMaster = master;
    QString head = tr("Master <b>%1</b>").arg(master.toHtmlEscaped());
    if (slot >= 0 && report.mode == QLatin1String("cluster"))
        head += tr(" · hash slot <b>%1</b>").arg(slot);
    if (m_session && !m_session->controller.servingMaster().isEmpty())
        head = tr("<b>%1</b>").arg(m_session->controller.servingMaster().toHtmlEscaped());
    head += QStringLiteral(" · ") + report.summary().toHtmlEscaped();
    m_master->setText(head);

    const QList<NodeReport> replicas = report.replicasOf(master);
    QStringList lines;
    for (const NodeReport &r : replicas) {
        model::Tone tone = model::Tone::Bad;
        if (r.lagBytes && model::isLinkUp(r.link))
            tone = *r.lagBytes == 0 ? model::Tone::Good : model::Tone::Caution;
        lines << QStringLiteral("<span style='color:%1'>●</span> %2")
                     .arg(model::toneText(tone, palette()).name(),
                          redis::topology::replicaLagSentence(r).toHtmlEscaped());
    }
    if (lines.isEmpty())
        lines << tr(
            "This master has no replica: nothing is copied, so no replica can lack a grant, and there "
            "is nothing to fail over to.");
    m_replicas->setText(lines.join(QStringLiteral("<br>")));
    Q_EMIT refreshed(true);
}

void ReplicationPanel::updateAge() {
    if (!m_sinceRead.isValid()) {
        m_age->clear();
        return;
    }
    m_age->setText(tr("read %1 s ago").arg(m_sinceRead.elapsed() / 1000));
}

} // namespace semscope::ui
