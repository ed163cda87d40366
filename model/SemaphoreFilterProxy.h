#pragma once

#include "core/Kind.h"

#include <QSortFilterProxyModel>
#include <optional>

namespace semscope::model {

// Filters the semaphore list: text (name, kind, keys), one kind, "stale only" and "expiring within
// N seconds"; sorts numerically on every column through SemaphoreListModel::SortRole.
class SemaphoreFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit SemaphoreFilterProxy(QObject *parent = nullptr);

    void setText(const QString &text);
    void setKind(std::optional<core::Kind> kind);
    void setStaleOnly(bool staleOnly);
    // nullopt: no expiry filter.
    void setExpiringWithinSeconds(std::optional<int> seconds);

    QString text() const { return m_text; }
    std::optional<core::Kind> kind() const { return m_kind; }
    bool staleOnly() const { return m_staleOnly; }
    std::optional<int> expiringWithinSeconds() const { return m_expiringWithin; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_text;
    std::optional<core::Kind> m_kind;
    bool m_staleOnly = false;
    std::optional<int> m_expiringWithin;
};

} // namespace semscope::model
