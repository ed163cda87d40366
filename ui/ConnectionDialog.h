#pragma once

#include "model/ConnectionController.h"

#include <QDialog>
#include <QPointer>
#include <memory>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QStackedWidget;

namespace semscope::model {
class SecretStore;
}

namespace semscope::ui {

class EnvironmentBadge;

// Makes the store factory for a connection; the GUI passes the real one, tests a fake.
using StoreFactoryProvider = std::function<core::StoreFactory(const model::ConnectionConfig &)>;

// Adds or edits one connection: Redis (URL or host/port or Unix socket, TLS files, skip-verify, ACL
// user, password, db; for a redis+sentinel:// URL the sentinels' own password; discovery from Cluster
// replicas) or Consul (address, token, datacenter, CA); environment tag and read-only.
// "Test connection" runs on a throwaway worker thread and can be cancelled; for Redis it also reads
// the deployment and says what it found ("Cluster: 3 masters, 3 replicas").
class ConnectionDialog : public QDialog {
    Q_OBJECT
public:
    ConnectionDialog(StoreFactoryProvider provider, QWidget *parent = nullptr);
    ~ConnectionDialog() override;

    void setConfig(const model::ConnectionConfig &config);
    // The connection as entered, secret included (in memory only).
    model::ConnectionConfig config() const;
    // Whether the operator wants the secret kept in the system keyring.
    bool rememberSecret() const;
    void setKeyringAvailable(bool available);
    // Where the passwords shown as "(unchanged)" are kept: Test connection reads them from there
    // (without a store it tests without them and says so).
    void setSecretStore(model::SecretStore *store);

    // Why this connection failed last (wrong password, refused port): repeated at the top of the
    // dialog, whole, so the field to fix is chosen knowing it. Empty hides it.
    void setFailure(const QString &text);
    QString failure() const;

    QString testResult() const;
    // What the last test found behind a Redis URL ("Standalone: 1 master, 0 replicas"); empty
    // before a test, for Consul, and when it failed.
    QString detectedTopology() const { return m_detected; }

Q_SIGNALS:
    void testFinished(bool ok, const QString &message);

private:
    void updateBackend();
    void updateBadge();
    void testConnection();
    // Runs the test with `c`, whose secrets are all at hand.
    void startTest(const model::ConnectionConfig &c);
    void finishTest(bool ok, const QString &message);
    // After a successful SCAN: reads the topology on the tester's thread, then finishes the test.
    void detectTopology(const QString &endpoint);
    // Shows the Sentinel password only for a redis+sentinel:// URL.
    void updateSentinelRow();
    void validate();
    // Why the URL (Redis) or address (Consul) cannot be used; empty when it can.
    QString addressProblem() const;
    // The discovery glob's, when it cannot mean what was typed (core::GlobPattern::problem).
    QString matchProblem() const;
    QWidget *buildRedisPage();
    QWidget *buildConsulPage();
    QLineEdit *fileField(QWidget *parent, QWidget **row);

    StoreFactoryProvider m_provider;
    model::ConnectionConfig m_config;

    QLineEdit *m_name = nullptr;
    QComboBox *m_backend = nullptr;
    QStackedWidget *m_pages = nullptr;
    QComboBox *m_environment = nullptr;
    EnvironmentBadge *m_badge = nullptr;
    QCheckBox *m_readOnly = nullptr;
    QLineEdit *m_match = nullptr;
    // Redis
    QLineEdit *m_url = nullptr;
    QLineEdit *m_host = nullptr;
    QSpinBox *m_port = nullptr;
    QLineEdit *m_socket = nullptr;
    QSpinBox *m_db = nullptr;
    QLineEdit *m_user = nullptr;
    QLineEdit *m_password = nullptr;
    QFormLayout *m_redisForm = nullptr;
    QLineEdit *m_sentinelPassword = nullptr;
    QCheckBox *m_discoverReplicas = nullptr;
    QCheckBox *m_tls = nullptr;
    QLineEdit *m_ca = nullptr;
    QLineEdit *m_cert = nullptr;
    QLineEdit *m_key = nullptr;
    QCheckBox *m_insecure = nullptr;
    // Consul
    QLineEdit *m_address = nullptr;
    QLineEdit *m_token = nullptr;
    QLineEdit *m_datacenter = nullptr;
    QLineEdit *m_consulCa = nullptr;

    QCheckBox *m_remember = nullptr;
    QPushButton *m_testButton = nullptr;
    QLabel *m_testStatus = nullptr;
    QLabel *m_failure = nullptr;
    QPushButton *m_okButton = nullptr;
    std::unique_ptr<model::ConnectionController> m_tester;
    QPointer<model::SecretStore> m_secrets;
    bool m_readingSecrets = false; // Test connection waits for the kept passwords
    core::Cancellation m_testCancel;
    QString m_testResult;
    QString m_detected;
};

} // namespace semscope::ui
