#pragma once

#include "model/TopologyEventModel.h"
#include "model/TopologyModel.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QSortFilterProxyModel>
#include <QTimer>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace semscope::model {
class ConnectionSession;
}
namespace semscope::ui {

using model::ConnectionSession;

// Tools → Topology (issue 17 item 4): every node behind one Redis connection, live — address,
// role, master, slot ranges, link, replication offset, lag in bytes and seconds (coloured), error —
// with the summary ("Cluster: 3 masters, 3 replicas"), when it was read ("read 1 s ago"), and the
// connection's failovers below. Standalone (a master and its replicas), Sentinel (the master of
// the moment and its replicas) and Cluster alike. Re-read every kRefreshMs on the connection's
// worker thread (model::readTopology); a read still running is never doubled. One window per
// connection, closed with it.
class TopologyWindow : public QWidget {
    Q_OBJECT
public:
    explicit TopologyWindow(ConnectionSession *session, QWidget *parent = nullptr);

    static constexpr int kRefreshMs = 2000;
    void setRefreshInterval(int ms) { m_timer.setInterval(ms); }

    const QString &connectionId() const { return m_connectionId; }
    model::TopologyModel *model() { return &m_model; }
    model::TopologyEventModel *events() { return &m_events; }
    QTableView *view() const { return m_view; }
    QTableView *eventView() const { return m_eventView; }
    QLabel *summaryLabel() const { return m_summary; }
    QLabel *ageLabel() const { return m_age; }
    bool isReading() const { return m_reading; }

    void refresh();

Q_SIGNALS:
    void refreshed(bool ok);

private:
    void apply(const redis::topology::TopologyReport &report);
    void updateAge();

    QPointer<ConnectionSession> m_session;
    QString m_connectionId;
    model::TopologyModel m_model;
    QSortFilterProxyModel m_proxy;
    model::TopologyEventModel m_events;
    QTimer m_timer;
    QTimer m_ageTimer;
    QElapsedTimer m_sinceRead;
    bool m_reading = false;
    QString m_lastError;
    QTableView *m_view = nullptr;
    QTableView *m_eventView = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_age = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_refresh = nullptr;
};

} // namespace semscope::ui
