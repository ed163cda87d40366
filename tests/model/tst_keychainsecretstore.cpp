// The keychain secret store (qtkeychain) against a real Secret Service: Debian's gnome-keyring-daemon
// on a private D-Bus session bus that this fixture starts, with a keyring unlocked by a test password.
// Nothing of the desktop's own bus or keyring is touched: the bus address is set for this test
// process only, and the keyring lives in a temporary home.
#include "TestMain.h"
#include "TestWait.h"
#include "model/KeychainSecretStore.h"

#include <QDir>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <optional>

using namespace semscope;

namespace {

const QByteArray kKeyringPassword = "semscope-test-keyring";

// A session bus with no service directories: nothing is started on demand, so a request that
// arrives before our gnome-keyring-daemon has taken its name fails instead of starting another.
QByteArray busConfig(const QString &dir) {
    return "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n"
           " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
           "<busconfig><type>session</type><listen>unix:dir=" +
           dir.toUtf8() +
           "</listen><auth>EXTERNAL</auth>"
           "<policy context=\"default\"><allow send_destination=\"*\" eavesdrop=\"true\"/>"
           "<allow eavesdrop=\"true\"/><allow own=\"*\"/></policy></busconfig>\n";
}

} // namespace

class TestKeychainSecretStore : public QObject {
    Q_OBJECT

    QTemporaryDir m_home;
    QProcess m_bus;
    QProcess m_keyring;
    QProcessEnvironment m_env;

    // One read through a store of its own (no cache of an earlier write): (found, secret), or
    // nullopt when the keyring did not answer.
    static std::optional<std::pair<bool, QString>> readFresh(const QString &id) {
        model::KeychainSecretStore store;
        std::optional<std::pair<bool, QString>> out;
        store.read(id, [&out](bool found, QString secret) { out = {found, secret}; });
        test::waitFor([&out] { return out.has_value(); }, 10000);
        return out;
    }

    // Whether the Secret Service has taken its name on the private bus.
    bool secretServiceOnTheBus() {
        QProcess ask;
        ask.setProcessEnvironment(m_env);
        ask.start(QStringLiteral("dbus-send"),
                  {QStringLiteral("--session"), QStringLiteral("--print-reply"),
                   QStringLiteral("--dest=org.freedesktop.DBus"), QStringLiteral("/org/freedesktop/DBus"),
                   QStringLiteral("org.freedesktop.DBus.NameHasOwner"),
                   QStringLiteral("string:org.freedesktop.secrets")});
        return ask.waitForFinished(5000) && ask.readAllStandardOutput().contains("boolean true");
    }

    // What `secret-tool lookup` finds in the private keyring for a connection id ("" for nothing).
    QString secretToolLookup(const QString &id) {
        QProcess tool;
        tool.setProcessEnvironment(m_env);
        tool.start(QStringLiteral("secret-tool"),
                   {QStringLiteral("lookup"), QStringLiteral("server"),
                    QStringLiteral("io.github.semscope.Semscope"), QStringLiteral("user"), id});
        if (!test::waitFor([&tool] { return tool.state() == QProcess::NotRunning; }, 10000))
            return QStringLiteral("<secret-tool did not finish>");
        return QString::fromUtf8(tool.readAllStandardOutput());
    }

    static void stop(QProcess &p) {
        if (p.state() == QProcess::NotRunning)
            return;
        p.terminate();
        if (!p.waitForFinished(5000)) {
            p.kill();
            p.waitForFinished(5000);
        }
    }

private Q_SLOTS:
    void initTestCase() {
        for (const char *tool : {"dbus-daemon", "dbus-send", "gnome-keyring-daemon", "secret-tool"}) {
            if (QStandardPaths::findExecutable(QString::fromLatin1(tool)).isEmpty())
                QSKIP(qPrintable(
                    QStringLiteral("%1 is not installed (Debian: dbus, gnome-keyring, libsecret-tools; "
                                   "scripts/bootstrap.sh installs them): the real keyring "
                                   "cannot be tested here")
                        .arg(QString::fromLatin1(tool))));
        }
        QVERIFY(m_home.isValid());
        const QString runtime = m_home.filePath(QStringLiteral("run"));
        QVERIFY(QDir().mkpath(runtime));
        QVERIFY(QFile::setPermissions(runtime, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        QFile config(m_home.filePath(QStringLiteral("bus.conf")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(busConfig(runtime));
        config.close();

        m_env = QProcessEnvironment::systemEnvironment();
        m_env.insert(QStringLiteral("HOME"), m_home.path());
        m_env.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtime);
        m_env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.filePath(QStringLiteral("data")));
        m_env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.filePath(QStringLiteral("config")));
        m_env.remove(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"));

        m_bus.setProcessEnvironment(m_env);
        m_bus.start(QStringLiteral("dbus-daemon"),
                    {QStringLiteral("--config-file=") + config.fileName(),
                     QStringLiteral("--print-address=1"), QStringLiteral("--nofork")});
        QVERIFY2(m_bus.waitForStarted(10000), qPrintable(m_bus.errorString()));
        QVERIFY(
            test::waitFor([this] { return m_bus.canReadLine() || m_bus.state() == QProcess::NotRunning; }));
        const QByteArray address = m_bus.readLine().trimmed();
        QVERIFY2(!address.isEmpty(), m_bus.readAllStandardError().constData());
        m_env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), QString::fromUtf8(address));

        // --unlock reads the login keyring's password on stdin (and creates the keyring with it).
        m_keyring.setProcessEnvironment(m_env);
        m_keyring.start(QStringLiteral("gnome-keyring-daemon"),
                        {QStringLiteral("--unlock"), QStringLiteral("--components=secrets"),
                         QStringLiteral("--foreground")});
        QVERIFY2(m_keyring.waitForStarted(10000), qPrintable(m_keyring.errorString()));
        m_keyring.write(kKeyringPassword);
        m_keyring.closeWriteChannel();
        QVERIFY2(test::waitFor(
                     [this] { return secretServiceOnTheBus() || m_keyring.state() == QProcess::NotRunning; },
                     15000) &&
                     m_keyring.state() == QProcess::Running,
                 m_keyring.readAllStandardError().constData());

        // This process only: qtkeychain (libsecret) talks to the private bus from here on.
        qputenv("DBUS_SESSION_BUS_ADDRESS", address);
    }

    void cleanupTestCase() {
        stop(m_keyring);
        stop(m_bus);
    }

    void storesReadsBackAndDeletes() {
        const QString id = QStringLiteral("connection-7f3a");
        const QString secret = QStringLiteral("pä$$ wörd/+@ ✓");
        model::KeychainSecretStore writer; // lives until its jobs are done: they are its children
        QVERIFY(writer.isPersistent());
        writer.write(id, secret);
        // Read back by a store that never saw the write (as the app's next start would): the
        // keyring has it, once the write has gone through.
        std::optional<std::pair<bool, QString>> read;
        QVERIFY2(test::waitFor(
                     [&] {
                         read = readFresh(id);
                         return read && read->first;
                     },
                     15000),
                 "the secret never arrived in the keyring");
        QCOMPARE(read->second, secret);
        // And it is the Secret Service that has it, not a copy anywhere else: libsecret's own tool
        // finds it under the attributes qtkeychain gives it (service and key).
        QCOMPARE(secretToolLookup(id), secret);
        // Another connection's secret is not this one's.
        const auto other = readFresh(QStringLiteral("connection-other"));
        QVERIFY(other.has_value());
        QVERIFY(!other->first);

        writer.remove(id);
        QVERIFY2(test::waitFor(
                     [&] {
                         read = readFresh(id);
                         return read && !read->first;
                     },
                     15000),
                 "the secret is still in the keyring after remove()");
        QCOMPARE(secretToolLookup(id), QString());
    }

    void createDefaultUsesTheKeyring() {
        qunsetenv("SEMSCOPE_NO_KEYRING");
        const auto store = model::SecretStore::createDefault();
        QVERIFY(store);
        QVERIFY(store->isPersistent());
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestKeychainSecretStore)
#include "tst_keychainsecretstore.moc"
