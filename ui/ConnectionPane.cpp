#include "ConnectionPane.h"

#include "ConnectionFailurePanel.h"
#include "ConnectionStateIcon.h"
#include "model/ConnectionSecrets.h"
#include "model/ConnectionSession.h"

#include <QAction>
#include <QEvent>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace semscope::ui {

using namespace semscope::core;
using model::ConnectionConfig;
using model::ConnectionController;

namespace {
constexpr int kIdRole = Qt::UserRole + 1;
} // namespace

ConnectionPane::ConnectionPane(model::ConnectionRegistry *registry, model::SecretStore *secrets,
                               core::AuditLog *audit, core::ProfileStore *profiles,
                               StoreFactoryProvider storeFactory, QWidget *parent)
    : QWidget(parent)
    , m_registry(registry)
    , m_secrets(secrets)
    , m_audit(audit)
    , m_profiles(profiles)
    , m_storeFactory(std::move(storeFactory)) {
    setObjectName(QStringLiteral("connectionPane"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    // The title row is the window's to place: above the splitter the list is in, so the list keeps
    // its share of the splitter whatever the font makes the row's height.
    m_header = new QWidget(this);
    m_header->setObjectName(QStringLiteral("connectionPaneHeader"));
    auto *connHeader = new QHBoxLayout(m_header);
    connHeader->setContentsMargins(0, 0, 0, 0);
    auto *connTitle = new QLabel(tr("<b>Connections</b>"), m_header);
    auto *add = new QToolButton(m_header);
    add->setObjectName(QStringLiteral("addConnectionButton"));
    add->setText(tr("Add…"));
    add->setToolTip(tr("Add a Redis or Consul connection (Ctrl+N)"));
    connect(add, &QToolButton::clicked, this, [this] { addConnection(); });
    connHeader->addWidget(connTitle, 1);
    connHeader->addWidget(add);

    m_connections = new QListWidget(this);
    m_connections->setObjectName(QStringLiteral("connections"));
    m_connections->setContextMenuPolicy(Qt::CustomContextMenu);
    m_connections->setToolTip(tr("Double-click to connect. The dot shows the connection state; the tag its "
                                 "environment."));
    connect(m_connections, &QListWidget::currentItemChanged, this, &ConnectionPane::currentConnectionChanged);
    connect(m_connections, &QListWidget::itemActivated, this,
            [this](QListWidgetItem *item) { openConnection(item->data(kIdRole).toString()); });
    connect(m_connections, &QWidget::customContextMenuRequested, this, &ConnectionPane::showContextMenu);
    layout->addWidget(m_connections, 1);

    m_addAction = new QAction(tr("&Add connection…"), this);
    m_addAction->setShortcut(QKeySequence::New);
    connect(m_addAction, &QAction::triggered, this, [this] { addConnection(); });
    m_editAction = new QAction(tr("&Edit connection…"), this);
    connect(m_editAction, &QAction::triggered, this, [this] { editConnection(); });
    m_removeAction = new QAction(tr("&Remove connection"), this);
    connect(m_removeAction, &QAction::triggered, this, &ConnectionPane::removeConnection);
    m_rediscoverAction = new QAction(tr("Re&discover semaphores"), this);
    m_rediscoverAction->setShortcut(QKeySequence(QStringLiteral("Ctrl+R")));
    connect(m_rediscoverAction, &QAction::triggered, this, &ConnectionPane::rediscover);

    connect(m_registry, &model::ConnectionRegistry::changed, this, &ConnectionPane::reload);
}

ConnectionPane::~ConnectionPane() {
    dropSessions();
}

void ConnectionPane::dropSessions() {
    qDeleteAll(m_sessions);
    m_sessions.clear();
}

void ConnectionPane::showContextMenu(const QPoint &pos) {
    QMenu menu(window());
    const QString id = currentId();
    if (!id.isEmpty()) {
        if (session(id)) {
            menu.addAction(m_rediscoverAction);
            menu.addAction(tr("Disconnect"), this, [this, id] { closeConnection(id); });
        } else {
            menu.addAction(tr("Connect"), this, [this, id] { openConnection(id); });
        }
        menu.addSeparator();
        menu.addAction(m_editAction);
        menu.addAction(m_removeAction);
    }
    menu.addAction(tr("Add connection…"), this, [this] { addConnection(); });
    menu.exec(m_connections->viewport()->mapToGlobal(pos));
}

void ConnectionPane::setEmptyRetentionMs(qint64 ms) {
    m_emptyRetentionMs = ms;
    for (ConnectionSession *s : std::as_const(m_sessions))
        s->setEmptyRetentionMs(ms);
}

void ConnectionPane::reload() {
    const QString current = currentId();
    const QSignalBlocker blocker(m_connections);
    m_connections->clear();
    for (const ConnectionConfig &c : m_registry->connections()) {
        auto *item = new QListWidgetItem(m_connections);
        item->setData(kIdRole, c.id);
        updateItem(c.id);
    }
    // Sessions whose connection was removed are closed.
    for (const QString &id : m_sessions.keys()) {
        if (!m_registry->find(id))
            closeConnection(id);
    }
    if (!current.isEmpty())
        select(current);
    else if (m_connections->count() > 0)
        m_connections->setCurrentRow(0);
    currentConnectionChanged();
}

void ConnectionPane::updateItem(const QString &id) {
    const auto config = m_registry->find(id);
    for (int i = 0; i < m_connections->count(); ++i) {
        QListWidgetItem *item = m_connections->item(i);
        if (item->data(kIdRole).toString() != id || !config)
            continue;
        ConnectionSession *s = session(id);
        const auto state = s ? s->controller.state() : ConnectionController::State::Idle;
        QString text =
            QStringLiteral("%1   [%2]%3 — %4")
                .arg(config->name, model::environmentName(config->environment),
                     config->readOnly ? tr(" read-only") : QString(), model::connectionStateName(state));
        item->setText(text);
        item->setForeground(connectionStateColor(state));
        QFont f = item->font();
        f.setBold(config->isProduction());
        item->setFont(f);
        QString stateText = s ? s->controller.stateText() : tr("not connected");
        if (s && !s->controller.servingMaster().isEmpty())
            stateText += QStringLiteral("\n") + s->controller.servingMaster();
        if (s && !s->discoveryNote().isEmpty())
            stateText += QStringLiteral("\n") + s->discoveryNote();
        item->setToolTip(
            QStringLiteral("%1\n%2\n%3").arg(config->endpoint(), stateText, tr("Double-click to connect")));
        item->setIcon(connectionStateIcon(state)); // the environment is the [tag] in the text
    }
}

QString ConnectionPane::currentId() const {
    auto *item = m_connections->currentItem();
    return item ? item->data(kIdRole).toString() : QString();
}

ConnectionSession *ConnectionPane::session(const QString &id) const {
    return m_sessions.value(id, nullptr);
}

ConnectionSession *ConnectionPane::currentSession() const {
    return session(currentId());
}

void ConnectionPane::select(const QString &id) {
    for (int i = 0; i < m_connections->count(); ++i) {
        if (m_connections->item(i)->data(kIdRole).toString() == id) {
            m_connections->setCurrentRow(i);
            return;
        }
    }
}

void ConnectionPane::currentConnectionChanged() {
    const QString id = currentId();
    m_editAction->setEnabled(!id.isEmpty());
    m_removeAction->setEnabled(!id.isEmpty());
    m_rediscoverAction->setEnabled(session(id) != nullptr);
    Q_EMIT currentChanged();
}

void ConnectionPane::changeEvent(QEvent *event) {
    QWidget::changeEvent(event);
    // A theme switch: the connections' state colours are worked out from the palette.
    if (event->type() == QEvent::PaletteChange && m_connections) {
        for (int i = 0; i < m_connections->count(); ++i)
            updateItem(m_connections->item(i)->data(kIdRole).toString());
    }
}

ConnectionDialog *ConnectionPane::addConnection() {
    auto *dialog = new ConnectionDialog(m_storeFactory, window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Add connection"));
    dialog->setKeyringAvailable(m_secrets->isPersistent());
    connect(dialog, &QDialog::accepted, this, [this, dialog] { saveConnection(dialog, true); });
    dialog->open();
    return dialog;
}

ConnectionDialog *ConnectionPane::editConnection() {
    const QString id = currentId();
    const auto config = m_registry->find(id);
    if (!config)
        return nullptr;
    auto *dialog = new ConnectionDialog(m_storeFactory, window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Edit connection"));
    dialog->setKeyringAvailable(m_secrets->isPersistent());
    dialog->setSecretStore(m_secrets); // "(unchanged)" passwords for Test connection
    dialog->setConfig(*config);
    // The failure panel's reason (it is shown for the selected connection while it fails).
    if (ConnectionSession *s = session(id); s && isConnectionFailure(s->controller.state()))
        dialog->setFailure(s->controller.stateText()); // what to fix, where it is fixed
    connect(dialog, &QDialog::accepted, this, [this, dialog] { saveConnection(dialog, false); });
    dialog->open();
    return dialog;
}

void ConnectionPane::saveConnection(ConnectionDialog *dialog, bool isNew) {
    ConnectionConfig c = dialog->config();
    c.takeSecretFromUrl();
    // Kept in the keyring if the operator asked for it; without a keyring only for this session
    // (memory), so a reconnect does not ask again. Never in the settings file.
    const auto previous = m_registry->find(c.id);
    model::keepConnectionSecrets(*m_secrets, c, dialog->rememberSecret(), previous ? &*previous : nullptr);
    const bool wasOpen = session(c.id) != nullptr;
    if (wasOpen)
        closeConnection(c.id);
    m_registry->upsert(c);
    select(c.id);
    if (!isNew && !wasOpen)
        return;
    if (c.lacksKeptSecret())
        openConnection(c.id); // a password left "(unchanged)" comes from the keyring, as on any open
    else
        startSession(c); // the dialog's secret is used right away, whether or not it was kept
}

void ConnectionPane::removeConnection() {
    const QString id = currentId();
    const auto config = m_registry->find(id);
    if (!config)
        return;
    if (QMessageBox::question(
            window(), tr("Remove connection"),
            tr("Remove the connection \"%1\"? Its saved password/token is removed too.").arg(config->name)) !=
        QMessageBox::Yes)
        return;
    closeConnection(id);
    model::forgetConnectionSecrets(*m_secrets, id);
    m_registry->remove(id);
}

void ConnectionPane::openConnection(const QString &id) {
    if (session(id)) {
        select(id);
        return;
    }
    const auto config = m_registry->find(id);
    if (!config)
        return;
    if (!config->lacksKeptSecret()) {
        startSession(*config);
        return;
    }
    model::readConnectionSecrets(
        *m_secrets, *config, [this, id](std::optional<QString> secret, std::optional<QString> sentinel) {
            auto c = m_registry->find(id);
            if (!c || session(id))
                return;
            if (!secret) {
                bool ok = false;
                secret = QInputDialog::getText(window(), tr("Password for %1").arg(c->name),
                                               c->backend == Backend::Consul ? tr("Consul ACL token:")
                                                                             : tr("Redis password:"),
                                               QLineEdit::Password, QString(), &ok);
                if (!ok)
                    return;
                m_secrets->write(id, *secret); // kept for this session (and in the keyring, if any)
            }
            if (!sentinel) {
                bool ok = false;
                sentinel = QInputDialog::getText(window(), tr("Sentinel password for %1").arg(c->name),
                                                 tr("The sentinels' password:"), QLineEdit::Password,
                                                 QString(), &ok);
                if (!ok)
                    return;
                m_secrets->write(ConnectionConfig::sentinelSecretKey(id), *sentinel);
            }
            c->secret = *secret;
            c->sentinelSecret = *sentinel;
            startSession(*c);
        });
}

void ConnectionPane::startSession(ConnectionConfig config) {
    if (session(config.id))
        return;
    auto *s = new ConnectionSession(config, m_storeFactory(config), m_audit, this);
    s->resolveProfile = [profiles = m_profiles, endpoint = config.endpoint()](const SemaphoreRef &ref) {
        SemaphoreRef r = ref;
        if (profiles)
            r.profile = profiles->resolve(endpoint, ref);
        return r;
    };
    s->knownSemaphores = [profiles = m_profiles, endpoint = config.endpoint()] {
        return profiles ? profiles->named(endpoint) : QList<SemaphoreRef>{};
    };
    s->pinnedSemaphores = [registry = m_registry, id = config.id] {
        const auto c = registry->find(id);
        return c ? c->pinned : QList<SemaphoreRef>{};
    };
    s->setEmptyRetentionMs(m_emptyRetentionMs);
    s->setHistory(m_history);
    s->listPinned();
    m_sessions.insert(config.id, s);
    const QString id = config.id;
    connect(&s->controller, &ConnectionController::stateChanged, this, [this, id] { updateItem(id); });
    // The state line and tooltip name the master of the moment.
    connect(&s->controller, &ConnectionController::topologyEvent, this, [this, id] { updateItem(id); });
    connect(s, &ConnectionSession::discoveryScheduled, this, [this, s, id](qint64, const QString &why) {
        // In the connection's tooltip, and in the log when it changes (a keyspace that grew).
        qInfo().noquote() << s->located(why);
        updateItem(id);
    });
    Q_EMIT sessionStarted(s);
    s->controller.open();
    s->discover();
    select(id);
    updateItem(id);
    currentConnectionChanged();
}

void ConnectionPane::closeConnection(const QString &id) {
    ConnectionSession *s = m_sessions.take(id);
    if (!s)
        return;
    Q_EMIT sessionClosing(s);
    delete s;
    updateItem(id);
    Q_EMIT sessionClosed(id);
}

void ConnectionPane::rediscover() {
    if (auto *s = currentSession())
        s->discover();
}

} // namespace semscope::ui
