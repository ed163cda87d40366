#pragma once

#include <QHash>
#include <QObject>
#include <QString>
#include <functional>
#include <memory>

namespace semscope::model {

// Keeps connection secrets (Redis passwords, Consul tokens) out of the settings file. With a system
// keyring (qtkeychain) they persist there; without one they live only for this session and the
// app asks for them again at the next start. Either way nothing is written in plain text.
class SecretStore : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    ~SecretStore() override = default;

    // True when secrets outlive the process (a keyring is in use).
    virtual bool isPersistent() const = 0;
    // `done(found, secret)` runs later on the caller's thread.
    virtual void read(const QString &connectionId, std::function<void(bool, QString)> done) = 0;
    virtual void write(const QString &connectionId, const QString &secret) = 0;
    virtual void remove(const QString &connectionId) = 0;

    // The keyring when qtkeychain was built in and SEMSCOPE_NO_KEYRING is not set, else memory only.
    static std::unique_ptr<SecretStore> createDefault(QObject *parent = nullptr);
};

// Session-only secrets: nothing leaves the process.
class MemorySecretStore : public SecretStore {
    Q_OBJECT
public:
    using SecretStore::SecretStore;
    bool isPersistent() const override { return false; }
    void read(const QString &connectionId, std::function<void(bool, QString)> done) override;
    void write(const QString &connectionId, const QString &secret) override;
    void remove(const QString &connectionId) override;

private:
    QHash<QString, QString> m_secrets;
};

} // namespace semscope::model
