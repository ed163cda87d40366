#pragma once

#include "RawJson.h"

#include <QStringList>
#include <optional>

namespace semscope::consul {

// The JSON in a Consul semaphore's `<prefix>/.lock`, in whichever of the three dialects it was
// written (hashicorp/consul api/semaphore.go; Consul's HTTP semaphore guide; the seed client):
//   go-map       {"Limit":3,"Holders":{"<sid>":true}}      Go api.Semaphore / `consul lock -n N`
//   guide-array  {"Limit":3,"Holders":["<sid>"]}           the HTTP semaphore guide
//   seed-array   {"limit":3,"holders":["<sid>"]}           the lower-case array clients write
// Field names are matched case-insensitively (as Go's decoder does). Writing back keeps the
// member spelling, member order, container type and any members semscope does not know.
class LockDocument {
public:
    enum class Container { Object, Array };
    enum class Dialect { GoMap, GuideArray, SeedArray };

    static std::optional<LockDocument> parse(const QByteArray &value, QString *error);
    // A new `.lock` in `dialect`, as the first acquirer writes it.
    static LockDocument create(qint64 limit, Dialect dialect);

    qint64 limit() const { return m_limit; }
    void setLimit(qint64 limit) { m_limit = limit; }
    const QStringList &holders() const { return m_holders; }
    bool contains(const QString &sid) const { return m_holders.contains(sid); }
    void addHolder(const QString &sid);
    bool removeHolder(const QString &sid);
    void setHolders(const QStringList &holders) { m_holders = holders; }

    Container container() const { return m_container; }
    Dialect dialect() const;
    QString dialectName() const;
    static QString dialectName(Dialect d);

    QByteArray serialize() const;

private:
    RawJson m_object = RawJson::object();
    QString m_limitName = QStringLiteral("Limit");
    QString m_holdersName = QStringLiteral("Holders");
    qint64 m_limit = 0;
    QStringList m_holders;
    Container m_container = Container::Object;
};

} // namespace semscope::consul
