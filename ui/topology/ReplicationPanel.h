#pragma once

#include "core/SemaphoreTypes.h"
#include "model/TopologyEventModel.h"
#include "redis/topology/TopologyReport.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QTimer>
#include <QWidget>

class QLabel;
class QTableView;

namespace semscope::model {
class ConnectionSession;
}
namespace semscope::ui {

using model::ConnectionSession;

// The semaphore page's Replication tab (issues 17 and 18): the master serving the semaphore (its
// slot on a Cluster, the sentinel that named it through Sentinel), that master's replicas with
// what each lacks (replicaLagSentence: "replica … is 12 KB behind: an acquire made in that window
// is not on it yet; a failover now would lose it"), and every failover of the connection with its
// time and from → to. Re-read every kRefreshMs while the tab is on show, on the connection's
// worker thread (model::readTopology); the GUI thread only gets finished reports. Consul: one line
// saying replication there is Raft's.
class ReplicationPanel : public QWidget {
    Q_OBJECT
public:
    explicit ReplicationPanel(QWidget *parent = nullptr);

    static constexpr int kRefreshMs = 3000;
    void setRefreshInterval(int ms) { m_timer.setInterval(ms); }

    void setSemaphore(ConnectionSession *session, const core::SemaphoreRef &ref);
    void clear();
    // Reads now (a read already running is not doubled).
    void refresh();
    // The master the semaphore's latest read reached: on a Cluster, one other than the master shown
    // means the picture is out of date (a failover or resharding), so it is read again at once.
    void noteServingNode(const QString &node);

    QLabel *masterLabel() const { return m_master; }
    QLabel *replicasLabel() const { return m_replicas; }
    QLabel *ageLabel() const { return m_age; }
    QTableView *eventView() const { return m_eventView; }
    model::TopologyEventModel *events() { return &m_events; }
    const redis::topology::TopologyReport &lastReport() const { return m_report; }
    // "Replication" or "Replication (2 failovers)": the page's tab title.
    QString tabTitle() const;

Q_SIGNALS:
    void refreshed(bool ok);
    void tabTitleChanged(const QString &title);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void apply(const redis::topology::TopologyReport &report);
    void updateAge();
    void addEvent(const core::TopologyEvent &event);

    QPointer<ConnectionSession> m_session;
    core::SemaphoreRef m_ref;
    quint64 m_generation = 0; // answers for a semaphore no longer shown are dropped
    bool m_reading = false;
    redis::topology::TopologyReport m_report;
    QString m_shownMaster; // the master the last report was shown for
    QElapsedTimer m_sinceRead;
    QTimer m_timer;
    QTimer m_ageTimer;
    model::TopologyEventModel m_events;
    QMetaObject::Connection m_eventConnection;
    QPointer<ConnectionSession> m_eventsOf; // whose events the list follows

    QLabel *m_master = nullptr;
    QLabel *m_replicas = nullptr;
    QLabel *m_age = nullptr;
    QLabel *m_eventsTitle = nullptr;
    QTableView *m_eventView = nullptr;
};

// The master serving `slot` in a Cluster report ("host:port"), or empty when no range holds it.
QString masterOfSlot(const redis::topology::TopologyReport &report, int slot);

} // namespace semscope::ui
