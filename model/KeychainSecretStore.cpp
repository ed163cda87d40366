#include "KeychainSecretStore.h"

#include <qt6keychain/keychain.h>

namespace semscope::model {

namespace {
const QString kService = QStringLiteral("io.github.semscope.Semscope");
}

KeychainSecretStore::KeychainSecretStore(QObject *parent)
    : SecretStore(parent) {}

void KeychainSecretStore::read(const QString &connectionId, std::function<void(bool, QString)> done) {
    if (m_cache.contains(connectionId)) {
        m_sessionCopy.write(connectionId, m_cache.value(connectionId));
        m_sessionCopy.read(connectionId, std::move(done));
        return;
    }
    auto *job = new QKeychain::ReadPasswordJob(kService, this);
    job->setAutoDelete(true);
    job->setKey(connectionId);
    connect(job, &QKeychain::Job::finished, this, [this, job, connectionId, done] {
        if (job->error() == QKeychain::NoError) {
            m_cache.insert(connectionId, job->textData());
            done(true, job->textData());
        } else {
            done(false, QString());
        }
    });
    job->start();
}

void KeychainSecretStore::write(const QString &connectionId, const QString &secret) {
    m_cache.insert(connectionId, secret);
    auto *job = new QKeychain::WritePasswordJob(kService, this);
    job->setAutoDelete(true);
    job->setKey(connectionId);
    job->setTextData(secret);
    job->start();
}

void KeychainSecretStore::remove(const QString &connectionId) {
    m_cache.remove(connectionId);
    auto *job = new QKeychain::DeletePasswordJob(kService, this);
    job->setAutoDelete(true);
    job->setKey(connectionId);
    job->start();
}

} // namespace semscope::model
