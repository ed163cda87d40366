#include "SemaphoreFilterProxy.h"

#include "SemaphoreListModel.h"

namespace semscope::model {

SemaphoreFilterProxy::SemaphoreFilterProxy(QObject *parent)
    : QSortFilterProxyModel(parent) {
    setSortRole(SemaphoreListModel::SortRole);
    setDynamicSortFilter(true);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void SemaphoreFilterProxy::setText(const QString &text) {
    m_text = text.trimmed();
    invalidateFilter();
}

void SemaphoreFilterProxy::setKind(std::optional<core::Kind> kind) {
    m_kind = kind;
    invalidateFilter();
}

void SemaphoreFilterProxy::setStaleOnly(bool staleOnly) {
    m_staleOnly = staleOnly;
    invalidateFilter();
}

void SemaphoreFilterProxy::setExpiringWithinSeconds(std::optional<int> seconds) {
    m_expiringWithin = seconds;
    invalidateFilter();
}

bool SemaphoreFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const {
    const QModelIndex idx = sourceModel()->index(sourceRow, 0, sourceParent);
    if (m_kind && idx.data(SemaphoreListModel::KindRole).toInt() != int(*m_kind))
        return false;
    if (m_staleOnly && idx.data(SemaphoreListModel::StaleCountRole).toLongLong() <= 0)
        return false;
    if (m_expiringWithin) {
        const QVariant ttl = idx.data(SemaphoreListModel::SoonestTtlMsRole);
        if (!ttl.isValid() || ttl.toLongLong() > qint64(*m_expiringWithin) * 1000)
            return false;
    }
    if (!m_text.isEmpty() &&
        !idx.data(SemaphoreListModel::SearchTextRole).toString().contains(m_text, Qt::CaseInsensitive))
        return false;
    return true;
}

} // namespace semscope::model
