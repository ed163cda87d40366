#pragma once

#include "core/ClientLiveness.h"
#include "core/SemaphoreTypes.h"

#include <QFrame>
#include <QList>

class QFormLayout;
class QLabel;
class QScrollArea;

namespace semscope::model {
class HolderTableModel;
}

namespace semscope::ui {

class WrapAnywhereLabel;

// Everything known about the selected holder, like Consul's lock-session card: who, where, since,
// TTL, state explained, and the layout's own details (session, node, behavior, health checks).
class HolderDetailCard : public QFrame {
    Q_OBJECT
public:
    explicit HolderDetailCard(QWidget *parent = nullptr);

    // nullptr: nothing selected (with a model that has no rows: nobody holds a slot). The model
    // supplies the live TTL and age. `liveness`: whether the
    // holder's client is still connected (its node's checks pass), when its record says who it is.
    void showHolder(const core::Holder *holder, const model::HolderTableModel *model,
                    const std::optional<core::ClientLiveness> &liveness = std::nullopt);
    // The line that says whether the holder's client is still there (hidden when nobody can tell who
    // that client is).
    QLabel *livenessLabel() const { return m_liveness; }
    QString holderId() const { return m_holderId; }

private:
    struct Row {
        QString label;
        QString value;
        QString toolTip;
    };
    void setRows(const QList<Row> &rows);
    // Lays the card out for its new texts now, not on the next turn of the event loop: rows that
    // wrap differently get their height before a grab or a paint.
    void layOutNow();
    void showLiveness(const std::optional<core::ClientLiveness> &liveness, const QString &consequence);

    QScrollArea *m_scroll;
    QWidget *m_content; // in m_scroll: the title, the state and the rows
    WrapAnywhereLabel *m_title;
    QLabel *m_state;
    QLabel *m_liveness;
    QFormLayout *m_form;
    QString m_holderId;
    QList<Row> m_rows;
    QList<WrapAnywhereLabel *> m_values;
};

} // namespace semscope::ui
