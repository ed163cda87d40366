#pragma once

#include "ServerClock.h"
#include "core/SemaphoreStore.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QTimer>

namespace semscope::model {

// The semaphores found on one connection, with a summary of each from its latest snapshot.
// Rows are added as discovery reports them and updated in place as snapshots arrive.
class SemaphoreListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        KindColumn,
        NameColumn,
        UsageColumn,
        HoldersColumn,
        ExpiryColumn,
        StaleColumn,
        WarningsColumn,
        NodeColumn, // Redis Cluster: the master serving it (slot in the tooltip); hidden elsewhere
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1,
        KindRole,         // int(core::Kind)
        StaleCountRole,   // qint64 holders that need attention (expired, stale, orphan, over limit)
        SoonestTtlMsRole, // qint64 ms until the soonest expiry (server clock), invalid when none
        UsedRole,         // qint64, invalid before the first snapshot
        LimitRole,        // qint64, invalid when unknown
        SearchTextRole,   // name, kind and keys, for the text filter
    };

    explicit SemaphoreListModel(QObject *parent = nullptr, ServerClock::LocalClock clock = {});

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void clear();
    // Adds semaphores not yet listed; updates keys and warnings of those that are.
    void addDiscovered(const QList<core::DiscoveredSemaphore> &found);
    // Updates the summary of the semaphore the snapshot belongs to (adds it if not listed).
    void updateSnapshot(const core::Snapshot &snapshot);
    // Keeps only the semaphores in `present` (after a complete discovery), and those pinned or
    // kept while empty: a scan that misses them does not drop them.
    void retainOnly(const QList<core::SemaphoreRef> &present);

    // Keys the operator opened by name (File → Open key…): listed whether or not a scan finds them.
    void addPinned(const QList<core::SemaphoreRef> &refs);
    bool isPinned(int row) const;
    // A semaphore seen before whose keys are gone (Redis deletes a ZSET with no members): listed as
    // "empty since <lastSeenMs>" until a scan finds it again (addDiscovered clears the mark).
    void markEmpty(const core::SemaphoreRef &ref, qint64 lastSeenMs);
    std::optional<qint64> emptySinceMs(int row) const;
    // Takes the row away (Forget); false when it is not listed.
    bool remove(const core::SemaphoreRef &ref);

    int rowOf(const core::SemaphoreRef &ref) const;
    core::SemaphoreRef refAt(int row) const;
    // What discovery said of the row: keys, warnings, the serving node and slot.
    core::DiscoveredSemaphore discoveredAt(int row) const;
    // Every warning of a listed semaphore, discovery's and its last read's, each once (what the
    // Warnings column counts and the semaphore's page shows).
    QStringList warningsOf(const core::SemaphoreRef &ref) const;
    // Whether any listed semaphore has a Cluster slot (the Node column is worth showing).
    bool hasClusterNodes() const;
    // The hash slot of every listed semaphore, -1 where there is none (the Topology window counts
    // them per master by its slot ranges, which follow a failover at once).
    QList<int> listedSlots() const;
    QList<core::SemaphoreRef> refs() const;
    std::optional<qint64> soonestTtlMs(int row) const;
    void tick();

private:
    struct Row {
        core::DiscoveredSemaphore found;
        bool summarised = false;
        qint64 used = 0;
        std::optional<qint64> limit;
        core::LimitSource limitSource = core::LimitSource::Unknown;
        qint64 holders = 0;
        qint64 waiters = 0;
        qint64 attention = 0;
        std::optional<qint64> soonestExpiryMs;
        std::optional<qint64> sessionTtlMs; // Consul: shortest session TTL among the holders
        QStringList snapshotWarnings;
        bool pinned = false;
        std::optional<qint64> emptySinceMs;
    };
    // Marked empty and its last read found nobody (or there was none yet).
    static bool showsEmpty(const Row &row);
    // "empty since 04:12" (today) or "empty since 28 Nov 23:10".
    static QString emptySinceText(qint64 ms);
    void reindex();
    QString keyOf(const core::SemaphoreRef &ref) const;
    QVariant display(const Row &row, int column) const;
    QStringList allWarnings(const Row &row) const;

    ServerClock m_clock;
    QList<Row> m_rows;
    QHash<QString, int> m_index;
    QTimer m_ticker;
};

// Holders of a snapshot that need an operator's attention.
qint64 attentionCount(const core::Snapshot &snapshot);

} // namespace semscope::model
