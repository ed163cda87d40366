#include "ConnectionDialog.h"

#include "model/ConnectionSecrets.h"
#include "model/StatusColors.h"
#include "model/TopologyProbe.h"

#include "EnvironmentBadge.h"
#include "consul/ConsulTypes.h"
#include "core/GlobPattern.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace semscope::ui {

using model::ConnectionConfig;
using model::Environment;

namespace {

// The sentinels refusing their password looks, from the resolver, like "no sentinel named the master"
// with each one's WRONGPASS: say what to fix first.
QString sentinelProblem(const QString &error) {
    const bool refused = error.contains(QLatin1String("WRONGPASS")) ||
                         error.contains(QLatin1String("NOAUTH")) ||
                         error.contains(QLatin1String("invalid password"), Qt::CaseInsensitive) ||
                         error.contains(QLatin1String("AUTH"));
    if (!refused || !error.contains(QLatin1String("no sentinel named")))
        return error;
    return ConnectionDialog::tr("The sentinels refused the Sentinel password (or it is missing): check the "
                                "Sentinel password field. %1")
        .arg(error);
}

} // namespace

ConnectionDialog::ConnectionDialog(StoreFactoryProvider provider, QWidget *parent)
    : QDialog(parent)
    , m_provider(std::move(provider))
    , m_config(ConnectionConfig::create(core::Backend::Redis)) {
    setWindowTitle(tr("Connection"));
    setObjectName(QStringLiteral("connectionDialog"));
    auto *layout = new QVBoxLayout(this);

    m_failure = new QLabel(this);
    m_failure->setObjectName(QStringLiteral("connectionFailure"));
    m_failure->setTextFormat(Qt::PlainText);
    m_failure->setWordWrap(true);
    m_failure->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_failure->setStyleSheet(QStringLiteral("QLabel { color: %1; background: %2; padding: 4px; }")
                                 .arg(palette().color(QPalette::Text).name(),
                                      model::toneBackground(model::Tone::Bad, palette()).name()));
    m_failure->hide();
    layout->addWidget(m_failure);

    auto *top = new QFormLayout;
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("name"));
    m_name->setPlaceholderText(tr("e.g. payments-prod redis"));
    top->addRow(tr("&Name:"), m_name);
    m_backend = new QComboBox(this);
    m_backend->setObjectName(QStringLiteral("backend"));
    m_backend->addItem(tr("Redis"));
    m_backend->addItem(tr("Consul"));
    top->addRow(tr("&Backend:"), m_backend);

    auto *envRow = new QHBoxLayout;
    m_environment = new QComboBox(this);
    m_environment->setObjectName(QStringLiteral("environment"));
    m_environment->addItem(tr("development"));
    m_environment->addItem(tr("staging"));
    m_environment->addItem(tr("production"));
    m_environment->setToolTip(tr("Production connections ask you to type the semaphore name before a "
                                 "force-release."));
    m_badge = new EnvironmentBadge(this);
    envRow->addWidget(m_environment, 1);
    envRow->addWidget(m_badge);
    // A label made for a layout has no buddy and would show the '&' itself: give it the combo box.
    auto *envLabel = new QLabel(tr("&Environment:"), this);
    envLabel->setBuddy(m_environment);
    top->addRow(envLabel, envRow);
    m_readOnly = new QCheckBox(tr("Read-only: never write (no acquire, release or force-release)"), this);
    m_readOnly->setObjectName(QStringLiteral("readOnly"));
    top->addRow(QString(), m_readOnly);
    m_match = new QLineEdit(this);
    m_match->setObjectName(QStringLiteral("match"));
    m_match->setToolTip(tr("Redis: SCAN MATCH glob for discovery (\"*\" = all keys). Consul: KV prefix."));
    top->addRow(tr("&Discover keys:"), m_match);
    layout->addLayout(top);

    m_pages = new QStackedWidget(this);
    m_pages->addWidget(buildRedisPage());
    m_pages->addWidget(buildConsulPage());
    layout->addWidget(m_pages);

    m_remember = new QCheckBox(tr("Remember the passwords/token in the system keyring"), this);
    m_remember->setObjectName(QStringLiteral("remember"));
    layout->addWidget(m_remember);

    auto *testRow = new QHBoxLayout;
    m_testButton = new QPushButton(tr("&Test connection"), this);
    m_testButton->setObjectName(QStringLiteral("testButton"));
    m_testStatus = new QLabel(this);
    m_testStatus->setObjectName(QStringLiteral("testStatus"));
    m_testStatus->setWordWrap(true);
    m_testStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The status goes under the button, full width: a Sentinel or Cluster answer names the master
    // and the endpoint, which would squeeze the button and lose its last line beside it.
    // Wide enough for both of its texts, so it does not jump (or clip) between Test and Cancel.
    m_testButton->setMinimumWidth(
        m_testButton->sizeHint().width() +
        std::max(0, m_testButton->fontMetrics().horizontalAdvance(tr("Cancel test")) -
                        m_testButton->fontMetrics().horizontalAdvance(tr("Test connection"))));
    m_testStatus->setMinimumHeight(2 * m_testStatus->fontMetrics().lineSpacing());
    m_testStatus->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    testRow->addWidget(m_testButton);
    testRow->addStretch(1);
    layout->addLayout(testRow);
    layout->addWidget(m_testStatus);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_okButton = buttons->button(QDialogButtonBox::Ok);
    m_okButton->setText(tr("Save"));
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_backend, &QComboBox::currentIndexChanged, this, &ConnectionDialog::updateBackend);
    connect(m_environment, &QComboBox::currentIndexChanged, this, &ConnectionDialog::updateBadge);
    connect(m_readOnly, &QCheckBox::toggled, this, &ConnectionDialog::updateBadge);
    connect(m_testButton, &QPushButton::clicked, this, &ConnectionDialog::testConnection);
    connect(m_name, &QLineEdit::textChanged, this, &ConnectionDialog::validate);
    connect(m_url, &QLineEdit::textChanged, this, &ConnectionDialog::validate);
    connect(m_address, &QLineEdit::textChanged, this, &ConnectionDialog::validate);
    connect(m_match, &QLineEdit::textChanged, this, &ConnectionDialog::validate);
    connect(m_backend, &QComboBox::currentIndexChanged, this, &ConnectionDialog::validate);

    setConfig(m_config);
}

ConnectionDialog::~ConnectionDialog() {
    m_testCancel.cancel();
}

QLineEdit *ConnectionDialog::fileField(QWidget *parent, QWidget **row) {
    auto *w = new QWidget(parent);
    auto *h = new QHBoxLayout(w);
    h->setContentsMargins(0, 0, 0, 0);
    auto *edit = new QLineEdit(w);
    auto *browse = new QToolButton(w);
    browse->setText(QStringLiteral("…"));
    browse->setToolTip(tr("Choose a file"));
    h->addWidget(edit, 1);
    h->addWidget(browse);
    connect(browse, &QToolButton::clicked, this, [this, edit] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Choose a file"), edit->text());
        if (!f.isEmpty())
            edit->setText(f);
    });
    *row = w;
    return edit;
}

QWidget *ConnectionDialog::buildRedisPage() {
    auto *page = new QWidget(this);
    auto *form = new QFormLayout(page);
    m_url = new QLineEdit(page);
    m_url->setObjectName(QStringLiteral("url"));
    m_url->setPlaceholderText(
        QStringLiteral("redis://host:6379/0, rediss://…, redis+sentinel://host:26379/mymaster, unix:///…"));
    m_url->setToolTip(tr("When set, the URL wins over host, port and socket below. Put no password in it: "
                         "use the password field."));
    form->addRow(tr("&URL:"), m_url);
    connect(m_url, &QLineEdit::textChanged, this, &ConnectionDialog::updateSentinelRow);
    m_host = new QLineEdit(page);
    m_host->setObjectName(QStringLiteral("host"));
    form->addRow(tr("&Host:"), m_host);
    m_port = new QSpinBox(page);
    m_port->setObjectName(QStringLiteral("port"));
    m_port->setRange(1, 65535);
    form->addRow(tr("&Port:"), m_port);
    m_socket = new QLineEdit(page);
    m_socket->setObjectName(QStringLiteral("socket"));
    m_socket->setPlaceholderText(tr("/run/redis/redis.sock (instead of host and port)"));
    form->addRow(tr("Unix &socket:"), m_socket);
    m_db = new QSpinBox(page);
    m_db->setObjectName(QStringLiteral("db"));
    m_db->setRange(0, 15);
    form->addRow(tr("&Database:"), m_db);
    m_user = new QLineEdit(page);
    m_user->setObjectName(QStringLiteral("user"));
    m_user->setPlaceholderText(tr("ACL user (empty: default)"));
    form->addRow(tr("U&ser:"), m_user);
    m_password = new QLineEdit(page);
    m_password->setObjectName(QStringLiteral("password"));
    m_password->setEchoMode(QLineEdit::Password);
    form->addRow(tr("Pass&word:"), m_password);
    m_sentinelPassword = new QLineEdit(page);
    m_sentinelPassword->setObjectName(QStringLiteral("sentinelPassword"));
    m_sentinelPassword->setEchoMode(QLineEdit::Password);
    m_sentinelPassword->setPlaceholderText(tr("the sentinels' requirepass (empty: none)"));
    m_sentinelPassword->setToolTip(tr("The sentinels' own password. The password above is the data nodes'. "
                                      "Kept in the keyring like it, never in the settings file."));
    form->addRow(tr("Sentinel pass&word:"), m_sentinelPassword);
    m_discoverReplicas = new QCheckBox(tr("Read discovery from replicas (Cluster)"), page);
    m_discoverReplicas->setObjectName(QStringLiteral("discoverFromReplicas"));
    m_discoverReplicas->setToolTip(tr("On a Redis Cluster, discovery reads each master's replicas (READONLY) "
                                      "to spare the masters. What it shows can lag the masters by the "
                                      "replicas' lag; every write still goes to the master."));
    form->addRow(QString(), m_discoverReplicas);
    m_redisForm = form;

    auto *tlsBox = new QGroupBox(tr("TLS"), page);
    auto *tlsForm = new QFormLayout(tlsBox);
    m_tls = new QCheckBox(tr("Use TLS"), tlsBox);
    m_tls->setObjectName(QStringLiteral("tls"));
    tlsForm->addRow(m_tls);
    QWidget *row = nullptr;
    m_ca = fileField(tlsBox, &row);
    tlsForm->addRow(tr("CA file:"), row);
    m_cert = fileField(tlsBox, &row);
    tlsForm->addRow(tr("Client certificate:"), row);
    m_key = fileField(tlsBox, &row);
    tlsForm->addRow(tr("Client key:"), row);
    m_insecure = new QCheckBox(tr("Skip certificate verification (insecure)"), tlsBox);
    m_insecure->setObjectName(QStringLiteral("tlsInsecure"));
    tlsForm->addRow(m_insecure);
    form->addRow(tlsBox);
    return page;
}

QWidget *ConnectionDialog::buildConsulPage() {
    auto *page = new QWidget(this);
    auto *form = new QFormLayout(page);
    m_address = new QLineEdit(page);
    m_address->setObjectName(QStringLiteral("address"));
    m_address->setPlaceholderText(QStringLiteral("http://127.0.0.1:8500"));
    form->addRow(tr("&Address:"), m_address);
    m_token = new QLineEdit(page);
    m_token->setObjectName(QStringLiteral("token"));
    m_token->setEchoMode(QLineEdit::Password);
    m_token->setPlaceholderText(tr("ACL token (optional)"));
    form->addRow(tr("&Token:"), m_token);
    m_datacenter = new QLineEdit(page);
    m_datacenter->setObjectName(QStringLiteral("datacenter"));
    m_datacenter->setPlaceholderText(tr("empty: the agent's datacenter"));
    form->addRow(tr("&Datacenter:"), m_datacenter);
    QWidget *row = nullptr;
    m_consulCa = fileField(page, &row);
    form->addRow(tr("CA file:"), row);
    return page;
}

void ConnectionDialog::setConfig(const ConnectionConfig &c) {
    m_config = c;
    m_name->setText(c.name);
    m_backend->setCurrentIndex(c.backend == core::Backend::Consul ? 1 : 0);
    m_environment->setCurrentIndex(int(c.environment));
    m_readOnly->setChecked(c.readOnly);
    m_match->setText(c.discoverMatch);
    m_url->setText(c.url);
    m_host->setText(c.host);
    m_port->setValue(c.port);
    m_socket->setText(c.socketPath);
    m_db->setValue(c.db);
    m_user->setText(c.user);
    m_tls->setChecked(c.tls);
    m_ca->setText(c.caFile);
    m_cert->setText(c.certFile);
    m_key->setText(c.keyFile);
    m_insecure->setChecked(c.tlsInsecure);
    m_address->setText(c.address);
    m_datacenter->setText(c.datacenter);
    m_consulCa->setText(c.caFile);
    m_password->setText(c.backend == core::Backend::Redis ? c.secret : QString());
    m_token->setText(c.backend == core::Backend::Consul ? c.secret : QString());
    if (c.hasSecret && c.secret.isEmpty()) {
        m_password->setPlaceholderText(tr("(unchanged)"));
        m_token->setPlaceholderText(tr("(unchanged)"));
    }
    m_sentinelPassword->setText(c.sentinelSecret);
    if (c.hasSentinelSecret && c.sentinelSecret.isEmpty())
        m_sentinelPassword->setPlaceholderText(tr("(unchanged)"));
    m_discoverReplicas->setChecked(c.discoverFromReplicas);
    updateSentinelRow();
    updateBackend();
    updateBadge();
    validate();
}

ConnectionConfig ConnectionDialog::config() const {
    ConnectionConfig c = m_config;
    c.name = m_name->text().trimmed();
    c.backend = m_backend->currentIndex() == 1 ? core::Backend::Consul : core::Backend::Redis;
    c.environment = Environment(m_environment->currentIndex());
    c.readOnly = m_readOnly->isChecked();
    c.discoverMatch = m_match->text().trimmed();
    if (c.backend == core::Backend::Redis && c.discoverMatch.isEmpty())
        c.discoverMatch = QStringLiteral("*");
    c.url = m_url->text().trimmed();
    c.host = m_host->text().trimmed();
    c.port = quint16(m_port->value());
    c.socketPath = m_socket->text().trimmed();
    c.db = m_db->value();
    c.user = m_user->text().trimmed();
    c.tls = m_tls->isChecked();
    c.certFile = m_cert->text().trimmed();
    c.keyFile = m_key->text().trimmed();
    c.tlsInsecure = m_insecure->isChecked();
    c.address = m_address->text().trimmed();
    c.datacenter = m_datacenter->text().trimmed();
    c.caFile = c.backend == core::Backend::Consul ? m_consulCa->text().trimmed() : m_ca->text().trimmed();
    const QString secret = c.backend == core::Backend::Consul ? m_token->text() : m_password->text();
    if (!secret.isEmpty()) {
        c.secret = secret;
        c.hasSecret = true;
    } else if (!m_config.hasSecret || m_config.backend != c.backend) {
        c.hasSecret = false;
        c.secret.clear();
    }
    c.discoverFromReplicas = c.backend == core::Backend::Redis && m_discoverReplicas->isChecked();
    // Like the data password: a typed one replaces the kept one; an empty field keeps it ("(unchanged)")
    // while the URL still goes through sentinels.
    const QString sentinelSecret = m_sentinelPassword->text();
    if (!c.usesSentinel()) {
        c.hasSentinelSecret = false;
        c.sentinelSecret.clear();
    } else if (!sentinelSecret.isEmpty()) {
        c.sentinelSecret = sentinelSecret;
        c.hasSentinelSecret = true;
    } else if (!m_config.hasSentinelSecret) {
        c.hasSentinelSecret = false;
        c.sentinelSecret.clear();
    }
    if (c.name.isEmpty())
        c.name = c.endpoint();
    return c;
}

bool ConnectionDialog::rememberSecret() const {
    return m_remember->isEnabled() && m_remember->isChecked();
}

void ConnectionDialog::setKeyringAvailable(bool available) {
    m_remember->setEnabled(available);
    m_remember->setChecked(available);
    if (!available)
        m_remember->setText(tr("No system keyring: the password/token is kept for this session only, asked "
                               "for again at the next start and never saved"));
}

void ConnectionDialog::updateBackend() {
    m_pages->setCurrentIndex(m_backend->currentIndex());
    if (m_backend->currentIndex() == 1 && m_match->text() == QLatin1String("*"))
        m_match->clear();
    else if (m_backend->currentIndex() == 0 && m_match->text().isEmpty())
        m_match->setText(QStringLiteral("*"));
}

void ConnectionDialog::updateSentinelRow() {
    const QString u = m_url->text().trimmed();
    const bool sentinel = u.startsWith(QLatin1String("redis+sentinel://"), Qt::CaseInsensitive) ||
                          u.startsWith(QLatin1String("rediss+sentinel://"), Qt::CaseInsensitive);
    m_redisForm->setRowVisible(m_sentinelPassword, sentinel);
}

void ConnectionDialog::updateBadge() {
    m_badge->setEnvironment(Environment(m_environment->currentIndex()), m_readOnly->isChecked());
}

QString ConnectionDialog::addressProblem() const {
    const ConnectionConfig c = config();
    QString error;
    if (c.backend == core::Backend::Consul) {
        const bool https = c.address.startsWith(QLatin1String("https"), Qt::CaseInsensitive);
        if (!consul::ConsulConfig::parseAddress(c.address, https, &error))
            return error.isEmpty() ? tr("not a Consul address") : error;
        return {};
    }
    if (!c.redisSettings(&error))
        return error.isEmpty() ? tr("not a Redis URL") : error;
    return {};
}

QString ConnectionDialog::matchProblem() const {
    // `a[` would discover nothing on every refresh, silently: Redis closes the class at the end.
    const QString glob = m_match->text().trimmed();
    const QString problem = core::GlobPattern::problem(glob);
    return problem.isEmpty() ? QString() : tr("Discover keys “%1”: %2").arg(glob, problem);
}

void ConnectionDialog::validate() {
    // A connection that cannot even be opened is not saved: say why, where the operator typed it.
    QString problem = addressProblem();
    if (problem.isEmpty())
        problem = matchProblem();
    m_okButton->setEnabled(problem.isEmpty());
    if (!problem.isEmpty()) {
        m_testStatus->setText(tr("Cannot save: %1").arg(problem));
        m_testStatus->setStyleSheet(
            QStringLiteral("color: %1;").arg(model::toneText(model::Tone::Bad).name()));
    } else if (m_testStatus->text().startsWith(tr("Cannot save:"))) {
        m_testStatus->clear();
        m_testStatus->setStyleSheet({});
    }
}

QString ConnectionDialog::testResult() const {
    return m_testResult;
}

void ConnectionDialog::setSecretStore(model::SecretStore *store) {
    m_secrets = store;
}

void ConnectionDialog::testConnection() {
    if (m_tester) {
        // Second click while testing: cancel.
        m_testCancel.cancel();
        finishTest(false, tr("cancelled"));
        return;
    }
    if (m_readingSecrets)
        return; // the test starts once the keyring answered
    const ConnectionConfig c = config();
    if (!c.lacksKeptSecret() || !m_secrets) {
        startTest(c);
        return;
    }
    // "(unchanged)": the password the connection uses is in the keyring, not in the dialog.
    m_readingSecrets = true;
    m_testStatus->setText(tr("Reading the kept password …"));
    m_testStatus->setStyleSheet({});
    model::readConnectionSecrets(*m_secrets, c,
                                 [this, guard = QPointer<ConnectionDialog>(this), c = ConnectionConfig(c)](
                                     std::optional<QString> data, std::optional<QString> sentinel) mutable {
                                     if (!guard)
                                         return;
                                     m_readingSecrets = false;
                                     if (!data || !sentinel) {
                                         finishTest(false, tr("The kept password is not in the keyring any "
                                                              "more: type it to test the connection."));
                                         return;
                                     }
                                     if (c.hasSecret && c.secret.isEmpty())
                                         c.secret = *data;
                                     if (c.hasSentinelSecret && c.sentinelSecret.isEmpty())
                                         c.sentinelSecret = *sentinel;
                                     startTest(c);
                                 });
}

void ConnectionDialog::startTest(const ConnectionConfig &c) {
    if (c.backend == core::Backend::Redis) {
        QString error;
        if (!c.redisSettings(&error)) {
            finishTest(false, error.isEmpty() ? tr("invalid URL") : error);
            return;
        }
    }
    m_tester = std::make_unique<model::ConnectionController>(c, m_provider(c));
    m_tester->open();
    m_detected.clear();
    m_testButton->setText(tr("Cancel test"));
    m_testStatus->setText(tr("Connecting to %1 …").arg(c.endpoint()));
    m_testStatus->setStyleSheet({});
    core::DiscoverRequest request;
    request.match = QStringLiteral("semscope-connection-test-*");
    request.batch = 10;
    m_testCancel = m_tester->discover(
        request, this,
        [this](core::DiscoverProgress) {
            // The server answered a SCAN page: that is all the test needs.
            m_testCancel.cancel();
        },
        [this, endpoint = c.endpoint(), backend = c.backend,
         sentinel = c.usesSentinel()](core::DiscoverResult r) {
            if (!m_tester)
                return;
            if (!(r.ok || r.cancelled)) {
                // A refused password closes the connection, and the discovery then fails with
                // "connection closed": the controller kept the server's own words.
                const QString error = m_tester->needsCredentials() ? m_tester->stateText() : r.error;
                finishTest(false, sentinel ? sentinelProblem(error) : error);
            } else if (backend == core::Backend::Redis)
                detectTopology(endpoint);
            else
                finishTest(true, tr("Connected to %1.").arg(endpoint));
        });
    QTimer::singleShot(20000, m_tester.get(), [this] { finishTest(false, tr("no answer within 20 s")); });
}

void ConnectionDialog::detectTopology(const QString &endpoint) {
    m_testStatus->setText(tr("Connected to %1; reading its topology …").arg(endpoint));
    model::readConnectionTopology(
        *m_tester, this, [this, endpoint](const redis::topology::TopologyReport &report) {
            if (!m_tester)
                return; // cancelled or timed out meanwhile
            if (!report.error.isEmpty()) {
                // Reads work: the connection is usable even if this server will not say more.
                finishTest(
                    true,
                    tr("Connected to %1 (its topology could not be read: %2).").arg(endpoint, report.error));
                return;
            }
            m_detected = report.summary();
            finishTest(true, tr("%1 — Connected to %2.").arg(m_detected, endpoint));
        });
}

void ConnectionDialog::finishTest(bool ok, const QString &message) {
    // Destroying the controller stops its thread; late results are dropped with it.
    auto tester = std::move(m_tester);
    QTimer::singleShot(0, this, [t = tester.release()] { delete t; });
    m_testButton->setText(tr("&Test connection"));
    m_testResult = ok ? QStringLiteral("ok: ") + message : QStringLiteral("failed: ") + message;
    m_testStatus->setText(ok ? QStringLiteral("✔ ") + message : QStringLiteral("✘ ") + message);
    m_testStatus->setStyleSheet(
        QStringLiteral("color: %1;").arg(model::toneText(ok ? model::Tone::Good : model::Tone::Bad).name()));
    Q_EMIT testFinished(ok, message);
}

} // namespace semscope::ui

namespace semscope::ui {

void ConnectionDialog::setFailure(const QString &text) {
    m_failure->setText(text.isEmpty() ? QString() : tr("Last attempt failed: %1").arg(text));
    m_failure->setVisible(!text.isEmpty());
}

QString ConnectionDialog::failure() const {
    return m_failure->text();
}

} // namespace semscope::ui
