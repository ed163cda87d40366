#pragma once

#include "core/SemaphoreTypes.h"
#include "model/RawKeyListModel.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace semscope::model {
class ConnectionSession;
}
namespace semscope::ui {

using model::ConnectionSession;

// The keys a semaphore is made of, as stored: for Redis each key's type, TTL and value (a string as
// text; hash, list, zset and set as tables: field/value, index/value, member/score, member), for
// Consul each KV entry under the prefix (flags, session, indices, the value pretty-printed when it
// is JSON). Collections show a bounded window ("first 200 of 2345 shown"). Strictly read-only:
// nothing here writes. Reached from the semaphore page (Raw keys…, Ctrl+K); F5 reads again,
// Ctrl+C copies the selected rows of either table.
class RawKeysWindow : public QWidget {
    Q_OBJECT
public:
    RawKeysWindow(ConnectionSession *session, const core::SemaphoreRef &ref, QWidget *parent);

    // The window for `ref` on `session` among `parent`'s children, or a new one; shown and raised.
    static RawKeysWindow *showFor(QWidget *parent, ConnectionSession *session, const core::SemaphoreRef &ref);

    const QString &connectionId() const { return m_connectionId; }
    const core::SemaphoreRef &ref() const { return m_ref; }
    model::RawKeyListModel *keysModel() { return &m_keys; }
    model::RawKeyContentModel *contentModel() { return &m_content; }
    QTableView *keysView() const { return m_keysView; }
    QTableView *contentView() const { return m_contentView; }
    QPlainTextEdit *valueView() const { return m_value; }
    QLabel *noteLabel() const { return m_note; }
    QLabel *statusLabel() const { return m_status; }

    void refresh();
    // Copies the selected rows of the focused table (keys or contents), tab-separated.
    void copySelection();

Q_SIGNALS:
    void loaded(bool ok);

private:
    void apply(const core::RawKeys &keys);
    void showKey(int row);
    void copyRows(QTableView *view);

    QPointer<ConnectionSession> m_session;
    QString m_connectionId;
    core::SemaphoreRef m_ref;
    model::RawKeyListModel m_keys;
    model::RawKeyContentModel m_content;
    bool m_reading = false;
    QTableView *m_keysView = nullptr;
    QTableView *m_contentView = nullptr;
    QPlainTextEdit *m_value = nullptr;
    QLabel *m_note = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_refresh = nullptr;
};

} // namespace semscope::ui
