#pragma once

#include "SecretStore.h"

namespace semscope::model {

// Secrets in the system keyring through qtkeychain (Secret Service, KWallet, ...). When the keyring
// refuses (no daemon, locked), reads report "not found" so the app asks the operator instead, and a
// session copy is kept so the operator is asked only once.
class KeychainSecretStore : public SecretStore {
    Q_OBJECT
public:
    explicit KeychainSecretStore(QObject *parent = nullptr);
    bool isPersistent() const override { return true; }
    void read(const QString &connectionId, std::function<void(bool, QString)> done) override;
    void write(const QString &connectionId, const QString &secret) override;
    void remove(const QString &connectionId) override;

private:
    MemorySecretStore m_sessionCopy;
    QHash<QString, QString> m_cache;
};

} // namespace semscope::model
