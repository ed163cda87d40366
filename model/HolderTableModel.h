#pragma once

#include "ServerClock.h"
#include "core/SemaphoreTypes.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QSet>
#include <QTimer>

namespace semscope::model {

// The holders of one semaphore. A new snapshot updates rows in place (dataChanged / insert / remove,
// never a reset), so selection, scroll position and sorting survive a refresh of 10,000 holders.
// TTL and age count down locally between reads from each holder's expiry and the server clock
// offset measured on the last read.
class HolderTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        RankColumn,
        HolderColumn,
        SlotColumn,
        TokenColumn,
        AcquiredColumn,
        AgeColumn,
        TtlColumn,
        StateColumn,
        SessionColumn,
        NodeColumn,
        BehaviorColumn,
        HealthColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1,
        StateRole,   // int(core::HolderState), with a running-out lease already counted as expired
        TtlMsRole,   // qint64 remaining, or invalid when the holder has no TTL
        RawIdRole,   // QByteArray
        TtlBandRole, // QString: "none", "ok", "low", "critical", "expired"
    };

    explicit HolderTableModel(QObject *parent = nullptr, ServerClock::LocalClock clock = {});

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setSnapshot(const core::Snapshot &snapshot);
    void clear();
    const core::Snapshot &snapshot() const { return m_snapshot; }
    const core::Holder *holderAt(int row) const;
    int rowOf(const QByteArray &rawId) const;
    core::HolderState effectiveState(const core::Holder &holder) const;
    std::optional<qint64> ttlMs(const core::Holder &holder) const;
    qint64 ageMs(const core::Holder &holder) const;
    const ServerClock &clock() const { return m_clock; }

    // Emits dataChanged for the columns that move with time (age, TTL, state). The model's own timer
    // does this every `intervalMs` while running.
    void tick();
    void setTickInterval(int intervalMs);
    // Off: the model never emits for the passing of time; the view repaints its visible rows on
    // its own timer instead (data() reads the clock). With 10,000 rows a dataChanged for every row
    // each tick costs more than a frame, a viewport repaint only touches the ~30 rows on screen.
    void setAutoTick(bool on);
    bool hasConsulColumns() const { return m_consul; }

    // Numeric sort key of a cell for the numeric columns (rank, slot, token, times, state), without
    // going through QVariant: sorting 10,000 rows makes ~130,000 comparisons per refresh.
    std::optional<qint64> numericSortKey(int row, int column) const;
    // Whether numericSortKey() answers for this column (the others sort by their text).
    static bool hasNumericSortKey(int column);

    static QString ttlBand(std::optional<qint64> ttlMs);
    // A Consul holder's session TTL ("15s", "1m30s": a Go duration), nullopt without one. Consul
    // holders carry no expiry of their own: they last as long as their session is renewed.
    static std::optional<qint64> sessionTtlMs(const core::Holder &holder);
    // Reads a Consul detail by any of its spellings ("sessionName", "SessionName", "session_name").
    static QString detail(const core::Holder &holder, const QStringList &names);

private:
    struct Row {
        core::Holder holder;
        qint64 firstSeenLocalMs = 0;
        QByteArray key; // its key in m_index
        int slot = -1;  // its entry in m_slotRow
    };
    qint64 ageMs(const Row &row) const;
    QByteArray keyOf(const core::Holder &holder) const;
    QVariant display(const Row &row, int column) const;
    QVariant sortValue(const Row &row, int column) const;

    ServerClock m_clock;
    core::Snapshot m_snapshot; // holders list emptied: the rows are the truth
    int rowOfKey(const QByteArray &key) const;

    QList<Row> m_rows;
    // key -> slot -> row. A slot stays with its holder while rows above it come and go, so a
    // removal rewrites plain positions, never re-hashes the 10,000 keys below it.
    QHash<QByteArray, int> m_index;
    QList<int> m_slotRow;
    QList<int> m_freeSlots;
    QTimer m_ticker;
    bool m_consul = false;
    bool m_autoTick = true;
};

bool sameHolder(const core::Holder &a, const core::Holder &b);

} // namespace semscope::model
