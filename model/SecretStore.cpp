#include "SecretStore.h"

#include <QTimer>

#ifdef SEMSCOPE_HAVE_KEYCHAIN
#include "KeychainSecretStore.h"
#endif

namespace semscope::model {

void MemorySecretStore::read(const QString &connectionId, std::function<void(bool, QString)> done) {
    const auto it = m_secrets.constFind(connectionId);
    const bool found = it != m_secrets.cend();
    const QString secret = found ? *it : QString();
    // Asynchronous like the keyring, so callers cannot come to rely on an immediate answer.
    QTimer::singleShot(0, this, [done, found, secret] { done(found, secret); });
}

void MemorySecretStore::write(const QString &connectionId, const QString &secret) {
    m_secrets.insert(connectionId, secret);
}

void MemorySecretStore::remove(const QString &connectionId) {
    m_secrets.remove(connectionId);
}

std::unique_ptr<SecretStore> SecretStore::createDefault(QObject *parent) {
#ifdef SEMSCOPE_HAVE_KEYCHAIN
    if (qEnvironmentVariableIsEmpty("SEMSCOPE_NO_KEYRING"))
        return std::make_unique<KeychainSecretStore>(parent);
#endif
    return std::make_unique<MemorySecretStore>(parent);
}

} // namespace semscope::model
