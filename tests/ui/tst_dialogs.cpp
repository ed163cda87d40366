// The dialogs on their own, driven through their widgets: the acquire dialog, the profile dialog,
// and the connection dialog's "Test connection" against a real redis-server, a dead port, and a
// server that accepts but never answers (the dialog stays usable and the test can be cancelled).

#include "RedisCluster.h"
#include "RedisServer.h"
#include "SentinelGroup.h"
#include "TestMain.h"
#include "core/audit/AuditLog.h"
#include "model/ConnectionStores.h"
#include "model/OperatorActions.h"
#include "ui/AcquireDialog.h"
#include "ui/ConnectionDialog.h"
#include "ui/ProfileDialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

using namespace semscope;

class TestDialogs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void acquireDefaultsAndValidates();
    void grantWithWarningsStaysOnScreen();
    void profileRoundTrip();
    void profileRefusesABadTimeout();
    void testConnectionAgainstRealRedis();
    void testConnectionToDeadPort();
    void testConnectionToSilentServerCanBeCancelled();
    void connectionDialogShowsNoLiteralAmpersand();
    void malformedAddressCannotBeSaved();
    void discoveryGlobThatCannotMatchCannotBeSaved();
    // Issue 17 item 1, issue 18 item 1: the Test button says what stands behind the URL.
    void testDetectsTheDeployment_data();
    void testDetectsTheDeployment();
    void sentinelPasswordOnlyForSentinelUrls();
    void wrongSentinelPasswordIsExplained();

private:
    ui::ConnectionDialog *redisDialog(quint16 port);
    ui::ConnectionDialog *urlDialog(const QString &url);
    // Clicks Test and waits for its answer: (ok, message).
    std::pair<bool, QString> runTest(ui::ConnectionDialog *dialog);
    std::unique_ptr<ui::ConnectionDialog> m_dialog;
};

namespace {
QPushButton *okButton(QDialog *d) {
    return d->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
}
void saveScreenshot(QWidget *w, const QString &name) {
#ifdef SEMSCOPE_SCREENSHOT_DIR
    QDir().mkpath(QStringLiteral(SEMSCOPE_SCREENSHOT_DIR));
    w->layout()->activate(); // texts just changed: lay out before the picture
    w->grab().save(QStringLiteral(SEMSCOPE_SCREENSHOT_DIR "/") + name);
#else
    Q_UNUSED(w)
    Q_UNUSED(name)
#endif
}
} // namespace

void TestDialogs::acquireDefaultsAndValidates() {
    ui::AcquireDialog dialog(QStringLiteral("jobs"), QStringLiteral("alice@laptop"));
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto *holder = dialog.findChild<QLineEdit *>(QStringLiteral("holder"));
    auto *ttl = dialog.findChild<QLineEdit *>(QStringLiteral("ttl"));
    QVERIFY(holder && ttl);
    QCOMPARE(holder->text(), QStringLiteral("alice@laptop"));
    QCOMPARE(dialog.ttlMs(), 30000);
    QVERIFY(okButton(&dialog)->isEnabled());

    ttl->selectAll();
    QTest::keyClicks(ttl, QStringLiteral("soon"));
    QCOMPARE(dialog.ttlMs(), -1);
    QVERIFY(!okButton(&dialog)->isEnabled());
    ttl->selectAll();
    QTest::keyClicks(ttl, QStringLiteral("5m"));
    QCOMPARE(dialog.ttlMs(), 300000);
    QVERIFY(okButton(&dialog)->isEnabled());

    holder->selectAll();
    QTest::keyClick(holder, Qt::Key_Delete);
    QVERIFY(!okButton(&dialog)->isEnabled());
    QTest::keyClicks(holder, QStringLiteral("  ops@bastion "));
    QVERIFY(okButton(&dialog)->isEnabled());
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    QTest::mouseClick(okButton(&dialog), Qt::LeftButton);
    QCOMPARE(accepted.size(), 1);
    QCOMPARE(dialog.holder(), QStringLiteral("ops@bastion"));
}

void TestDialogs::grantWithWarningsStaysOnScreen() {
    // A grant the store could not take as asked (here: the semaphore keeps its own 3 slots, not the
    // 5 given) must be read by the operator: the dialog used to close at once, the warning unseen.
    test::RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QTemporaryDir dir;
    core::AuditLog audit(dir.filePath(QStringLiteral("audit.jsonl")));
    model::ConnectionConfig config = model::ConnectionConfig::create(core::Backend::Redis);
    config.url = server.url();
    model::ConnectionController controller(config, model::storeFactoryFor(config));
    controller.open();
    model::OperatorActions actions(&controller, &audit);
    core::SemaphoreRef ref;
    ref.kind = core::Kind::Slots;
    ref.name = QStringLiteral("printers");
    ref.profile.limit = 3;
    std::optional<core::AcquireResult> first;
    actions.acquire(ref, QStringLiteral("someone-else"), 30000, this,
                    [&](core::AcquireResult r) { first = r; });
    QTRY_VERIFY_WITH_TIMEOUT(first.has_value(), 15000);
    QVERIFY2(first->status == core::AcquireResult::Status::Granted, qPrintable(first->error));
    QVERIFY(first->grant.warnings().isEmpty());

    ref.profile.limit = 5;
    ui::AcquireDialog dialog(ref.name, QStringLiteral("alice@laptop"));
    dialog.attach(&actions, ref, {});
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QSignalSpy done(&dialog, &ui::AcquireDialog::acquireFinished);
    QTest::mouseClick(okButton(&dialog), Qt::LeftButton);
    QVERIFY(done.wait(15000));
    QCOMPARE(dialog.acquireResult().status, core::AcquireResult::Status::Granted);
    QVERIFY(dialog.isVisible());
    auto *status = dialog.findChild<QLabel *>(QStringLiteral("acquireStatus"));
    QVERIFY(status->isVisible());
    QVERIFY2(status->text().startsWith(QStringLiteral("Acquired slot 2 as alice@laptop, but:")),
             qPrintable(status->text()));
    QVERIFY2(status->text().contains(QStringLiteral("the limit given (5) is not used")),
             qPrintable(status->text()));
    // Nothing left to cancel: the one way out is Close, and even Escape means "I have read it".
    QCOMPARE(okButton(&dialog)->text(), QStringLiteral("Close"));
    QVERIFY(!dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Cancel)->isVisible());
    QVERIFY(!dialog.findChild<QLineEdit *>(QStringLiteral("holder"))->isEnabled());
    saveScreenshot(&dialog, QStringLiteral("acquire-granted-with-warning.png"));
    QTest::keyClick(&dialog, Qt::Key_Escape);
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
}

void TestDialogs::profileRoundTrip() {
    core::SemaphoreRef ref;
    ref.kind = core::Kind::Fair;
    ref.name = QStringLiteral("fair-queue");
    ref.profile.limit = 4;
    ref.profile.timeoutMs = 10000;
    ref.profile.inferred = true;
    ref.profile.outerLockKey = QStringLiteral("fair-queue:mutex");
    ui::ProfileDialog dialog(ref);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto *hasLimit = dialog.findChild<QCheckBox *>(QStringLiteral("hasLimit"));
    auto *limit = dialog.findChild<QSpinBox *>(QStringLiteral("limit"));
    auto *timeout = dialog.findChild<QLineEdit *>(QStringLiteral("timeout"));
    auto *unit = dialog.findChild<QComboBox *>(QStringLiteral("unit"));
    QVERIFY(hasLimit && limit && timeout && unit);
    QVERIFY(hasLimit->isChecked());
    QCOMPARE(limit->value(), 4);
    QCOMPARE(dialog.profile().timeoutMs, 10000);
    // The operator is told the current values are semscope's guess.
    bool toldInferred = false;
    for (auto *label : dialog.findChildren<QLabel *>())
        toldInferred = toldInferred || label->text().contains(QLatin1String("inferred"));
    QVERIFY(toldInferred);

    limit->selectAll();
    QTest::keyClicks(limit, QStringLiteral("7"));
    timeout->selectAll();
    QTest::keyClicks(timeout, QStringLiteral("1m"));
    unit->setCurrentIndex(2);
    auto p = dialog.profile();
    QCOMPARE(p.limit, 7);
    QCOMPARE(p.timeoutMs, 60000);
    QCOMPARE(p.scoreUnit, core::ScoreUnit(2));
    QVERIFY(!p.inferred); // entered by a person now
    // Saving must not drop the fair layout's outer lock key: without it semscope's acquire would
    // look for the default names and slip in beside a client holding the real one.
    auto *outerLock = dialog.findChild<QLineEdit *>(QStringLiteral("outerLockKey"));
    QVERIFY(outerLock && outerLock->isVisibleTo(&dialog));
    QCOMPARE(p.outerLockKey, QStringLiteral("fair-queue:mutex"));
    outerLock->clear();
    QTest::keyClicks(outerLock, QStringLiteral("mutex:fair-queue"));
    QCOMPARE(dialog.profile().outerLockKey, QStringLiteral("mutex:fair-queue"));

    // An unknown limit is a state of its own, not "1".
    QTest::mouseClick(hasLimit, Qt::LeftButton, {}, QPoint(4, hasLimit->height() / 2));
    QVERIFY(!limit->isEnabled());
    QVERIFY(!dialog.profile().limit.has_value());
}

void TestDialogs::profileRefusesABadTimeout() {
    core::SemaphoreRef ref;
    ref.kind = core::Kind::Zset;
    ref.name = QStringLiteral("rate");
    ui::ProfileDialog dialog(ref);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto *save = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Save);
    auto *timeout = dialog.findChild<QLineEdit *>(QStringLiteral("timeout"));
    QVERIFY(save->isEnabled()); // empty: no timeout
    QTest::keyClicks(timeout, QStringLiteral("ten seconds"));
    QVERIFY(!save->isEnabled());
    timeout->clear();
    QTest::keyClicks(timeout, QStringLiteral("10s"));
    QVERIFY(save->isEnabled());
}

void TestDialogs::connectionDialogShowsNoLiteralAmpersand() {
    // A label shows its '&' as an underline only when it has a buddy; "&Environment:" had none.
    ui::ConnectionDialog dialog([](const model::ConnectionConfig &c) { return model::storeFactoryFor(c); });
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    int checked = 0;
    for (QLabel *label : dialog.findChildren<QLabel *>()) {
        const QString text = label->text();
        if (label->textFormat() == Qt::RichText ||
            !QRegularExpression(QStringLiteral("&[^&]")).match(text).hasMatch())
            continue;
        QVERIFY2(label->buddy(), qPrintable(text));
        ++checked;
    }
    QVERIFY(checked >= 3);
}

void TestDialogs::malformedAddressCannotBeSaved() {
    ui::ConnectionDialog dialog([](const model::ConnectionConfig &c) { return model::storeFactoryFor(c); });
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto *url = dialog.findChild<QLineEdit *>(QStringLiteral("url"));
    auto *status = dialog.findChild<QLabel *>(QStringLiteral("testStatus"));
    QVERIFY(url && status);
    QVERIFY(okButton(&dialog)->isEnabled());
    QTest::keyClicks(url, QStringLiteral("redis://cache:notaport"));
    QVERIFY(!okButton(&dialog)->isEnabled());
    QVERIFY2(status->text().startsWith(QLatin1String("Cannot save")), qPrintable(status->text()));
    url->clear();
    QTest::keyClicks(url, QStringLiteral("redis://cache:6380/1"));
    QVERIFY(okButton(&dialog)->isEnabled());
    QVERIFY(status->text().isEmpty());
    // The same for a Consul address.
    dialog.findChild<QComboBox *>(QStringLiteral("backend"))->setCurrentIndex(1);
    auto *address = dialog.findChild<QLineEdit *>(QStringLiteral("address"));
    address->clear();
    QTest::keyClicks(address, QStringLiteral("http://consul:port"));
    QVERIFY(!okButton(&dialog)->isEnabled());
    address->clear();
    QTest::keyClicks(address, QStringLiteral("http://consul:8500"));
    QVERIFY(okButton(&dialog)->isEnabled());
}

void TestDialogs::discoveryGlobThatCannotMatchCannotBeSaved() {
    // "a[" would discover nothing at every refresh, silently (Redis closes the class at the end).
    ui::ConnectionDialog dialog([](const model::ConnectionConfig &c) { return model::storeFactoryFor(c); });
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto *match = dialog.findChild<QLineEdit *>(QStringLiteral("match"));
    auto *status = dialog.findChild<QLabel *>(QStringLiteral("testStatus"));
    QVERIFY(match && status);
    QVERIFY(okButton(&dialog)->isEnabled());
    match->clear();
    QTest::keyClicks(match, QStringLiteral("jobs["));
    QVERIFY(!okButton(&dialog)->isEnabled());
    QCOMPARE(status->text(), QStringLiteral("Cannot save: Discover keys “jobs[”: '[' at position 5 is never "
                                            "closed; write \\[ for a bracket"));
    saveScreenshot(&dialog, QStringLiteral("connection-dialog-bad-glob.png"));
    QTest::keyClicks(match, QStringLiteral("ab]*"));
    QVERIFY(okButton(&dialog)->isEnabled());
    QVERIFY(status->text().isEmpty());
}

ui::ConnectionDialog *TestDialogs::redisDialog(quint16 port) {
    m_dialog = std::make_unique<ui::ConnectionDialog>(
        [](const model::ConnectionConfig &c) { return model::storeFactoryFor(c); });
    m_dialog->show();
    if (!QTest::qWaitForWindowExposed(m_dialog.get()))
        return nullptr;
    auto *host = m_dialog->findChild<QLineEdit *>(QStringLiteral("host"));
    host->clear();
    QTest::keyClicks(host, QStringLiteral("127.0.0.1"));
    m_dialog->findChild<QSpinBox *>(QStringLiteral("port"))->setValue(port);
    return m_dialog.get();
}

void TestDialogs::testConnectionAgainstRealRedis() {
    test::RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    auto *dialog = redisDialog(server.port());
    QVERIFY(dialog);
    QSignalSpy tested(dialog, &ui::ConnectionDialog::testFinished);
    QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("testButton")), Qt::LeftButton);
    QVERIFY(tested.wait(30000));
    QVERIFY2(tested.first().at(0).toBool(), qPrintable(tested.first().at(1).toString()));
    auto *status = dialog->findChild<QLabel *>(QStringLiteral("testStatus"));
    QVERIFY2(status->text().contains(QLatin1String("Connected")), qPrintable(status->text()));
    QVERIFY(status->text().contains(QString::number(server.port())));
    QVERIFY(dialog->testResult().startsWith(QLatin1String("ok")));
}

void TestDialogs::testConnectionToDeadPort() {
    // A port nobody listens on: take a free one and close it again.
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost));
    const quint16 port = probe.serverPort();
    probe.close();
    auto *dialog = redisDialog(port);
    QVERIFY(dialog);
    auto *button = dialog->findChild<QPushButton *>(QStringLiteral("testButton"));
    QSignalSpy tested(dialog, &ui::ConnectionDialog::testFinished);
    QTest::mouseClick(button, Qt::LeftButton);
    QVERIFY(tested.wait(30000));
    QVERIFY(!tested.first().at(0).toBool());
    // The message says what went wrong and where, in words.
    const QString text = dialog->findChild<QLabel *>(QStringLiteral("testStatus"))->text();
    QVERIFY2(text.contains(QLatin1String("refused"), Qt::CaseInsensitive) ||
                 text.contains(QLatin1String("connect"), Qt::CaseInsensitive),
             qPrintable(text));
    QVERIFY2(text.contains(QString::number(port)), qPrintable(text));
    QVERIFY(button->isEnabled());
    QVERIFY(button->text().contains(QLatin1String("Test connection")));
}

void TestDialogs::testConnectionToSilentServerCanBeCancelled() {
    // Accepts the TCP connection and never says a word: the test waits on its own thread while
    // the dialog keeps answering, and a second click cancels it at once.
    QTcpServer silent;
    QVERIFY(silent.listen(QHostAddress::LocalHost));
    QList<QTcpSocket *> held;
    connect(&silent, &QTcpServer::newConnection, this, [&] {
        while (auto *s = silent.nextPendingConnection())
            held.append(s);
    });
    auto *dialog = redisDialog(silent.serverPort());
    QVERIFY(dialog);
    auto *button = dialog->findChild<QPushButton *>(QStringLiteral("testButton"));
    auto *status = dialog->findChild<QLabel *>(QStringLiteral("testStatus"));
    QSignalSpy tested(dialog, &ui::ConnectionDialog::testFinished);
    QTest::mouseClick(button, Qt::LeftButton);
    QVERIFY(tested.isEmpty());
    QVERIFY(button->text().contains(QLatin1String("Cancel")));
    QVERIFY(status->text().contains(QLatin1String("Connecting")));
    QTRY_VERIFY_WITH_TIMEOUT(!held.isEmpty(), 10000); // it did reach the server
    // The GUI thread is free: the dialog still takes typing while the test waits.
    auto *name = dialog->findChild<QLineEdit *>(QStringLiteral("name"));
    QTest::keyClicks(name, QStringLiteral("still responsive"));
    QCOMPARE(name->text(), QStringLiteral("still responsive"));
    QVERIFY(tested.isEmpty());

    QTest::mouseClick(button, Qt::LeftButton);
    QCOMPARE(tested.size(), 1);
    QVERIFY(!tested.first().at(0).toBool());
    QVERIFY(status->text().contains(QLatin1String("cancelled")));
    QVERIFY(button->text().contains(QLatin1String("Test connection")));
    m_dialog.reset();
    qDeleteAll(held);
}

ui::ConnectionDialog *TestDialogs::urlDialog(const QString &url) {
    m_dialog = std::make_unique<ui::ConnectionDialog>(
        [](const model::ConnectionConfig &c) { return model::storeFactoryFor(c); });
    m_dialog->resize(640, 700);
    m_dialog->show();
    if (!QTest::qWaitForWindowExposed(m_dialog.get()))
        return nullptr;
    QTest::keyClicks(m_dialog->findChild<QLineEdit *>(QStringLiteral("name")), QStringLiteral("detected"));
    QTest::keyClicks(m_dialog->findChild<QLineEdit *>(QStringLiteral("url")), url);
    return m_dialog.get();
}

std::pair<bool, QString> TestDialogs::runTest(ui::ConnectionDialog *dialog) {
    QSignalSpy tested(dialog, &ui::ConnectionDialog::testFinished);
    QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("testButton")), Qt::LeftButton);
    if (!tested.wait(30000))
        return {false, QStringLiteral("no answer from the test")};
    return {tested.first().at(0).toBool(), tested.first().at(1).toString()};
}

void TestDialogs::testDetectsTheDeployment_data() {
    QTest::addColumn<QString>("deployment");
    QTest::addColumn<QString>("expected"); // regular expression; {master} is the master's port
    QTest::newRow("standalone") << QStringLiteral("standalone")
                                << QStringLiteral("^Standalone: 1 master, 0 replicas$");
    QTest::newRow("cluster") << QStringLiteral("cluster")
                             << QStringLiteral("^Cluster: 3 masters, 3 replicas$");
    QTest::newRow("sentinel") << QStringLiteral("sentinel")
                              << QStringLiteral(
                                     "^Sentinel mymaster: master 127\\.0\\.0\\.1:{master}, 1 replica$");
}

void TestDialogs::testDetectsTheDeployment() {
    QFETCH(QString, deployment);
    QFETCH(QString, expected);
    test::RedisServer server;
    test::RedisCluster cluster;
    test::SentinelGroup group;
    QString url;
    if (deployment == QLatin1String("standalone")) {
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        url = QStringLiteral("redis://127.0.0.1:%1").arg(server.port());
    } else if (deployment == QLatin1String("cluster")) {
        QVERIFY2(cluster.start(), qPrintable(cluster.errorString()));
        url = cluster.url();
    } else {
        QVERIFY2(group.start(), qPrintable(group.errorString()));
        url = group.url();
        expected.replace(QStringLiteral("{master}"), QString::number(group.node(0).port()));
    }
    auto *dialog = urlDialog(url);
    QVERIFY(dialog);
    const auto [ok, message] = runTest(dialog);
    QVERIFY2(ok, qPrintable(message));
    QVERIFY2(QRegularExpression(expected).match(dialog->detectedTopology()).hasMatch(),
             qPrintable(dialog->detectedTopology()));
    // Said where the operator looks, with the endpoint it reached.
    const QString status = dialog->findChild<QLabel *>(QStringLiteral("testStatus"))->text();
    QVERIFY2(status.contains(dialog->detectedTopology()), qPrintable(status));
    QVERIFY2(status.contains(QLatin1String("Connected to")), qPrintable(status));
    if (deployment == QLatin1String("cluster")) {
        dialog->findChild<QLineEdit *>(QStringLiteral("name"))->setText(QStringLiteral("payments cluster"));
        saveScreenshot(dialog, QStringLiteral("connection-dialog-cluster.png"));
    }
    m_dialog.reset();
}

void TestDialogs::sentinelPasswordOnlyForSentinelUrls() {
    auto *dialog = urlDialog(QStringLiteral("redis://127.0.0.1:6379"));
    QVERIFY(dialog);
    auto *field = dialog->findChild<QLineEdit *>(QStringLiteral("sentinelPassword"));
    auto *url = dialog->findChild<QLineEdit *>(QStringLiteral("url"));
    auto *replicas = dialog->findChild<QCheckBox *>(QStringLiteral("discoverFromReplicas"));
    QVERIFY(field && url && replicas);
    QVERIFY(!field->isVisible());
    url->clear();
    QTest::keyClicks(url, QStringLiteral("redis+sentinel://127.0.0.1:26379/mymaster"));
    QVERIFY(field->isVisible());
    QCOMPARE(field->echoMode(), QLineEdit::Password);
    QTest::keyClicks(field, QStringLiteral("s3ntinel-pw"));
    QTest::mouseClick(replicas, Qt::LeftButton);
    model::ConnectionConfig c = dialog->config();
    QVERIFY(c.usesSentinel());
    QVERIFY(c.hasSentinelSecret);
    QCOMPARE(c.sentinelSecret, QStringLiteral("s3ntinel-pw"));
    QVERIFY(c.discoverFromReplicas);
    // ...reaches the connection settings (the data password stays apart)...
    const auto settings = c.redisSettings();
    QVERIFY(settings);
    QCOMPARE(settings->sentinelPassword, QStringLiteral("s3ntinel-pw"));
    QVERIFY(settings->password.isEmpty());
    QVERIFY(settings->discoverFromReplicas);
    // ...and never the settings file.
    QTemporaryDir dir;
    {
        QSettings ini(dir.filePath(QStringLiteral("c.ini")), QSettings::IniFormat);
        c.save(ini);
        ini.sync();
        const auto back = model::ConnectionConfig::load(ini);
        QVERIFY(back.hasSentinelSecret);
        QVERIFY(back.sentinelSecret.isEmpty());
        QVERIFY(back.discoverFromReplicas);
    }
    QFile file(dir.filePath(QStringLiteral("c.ini")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(!file.readAll().contains("s3ntinel-pw"));
    // Back to a plain URL: the field goes, and so does its secret.
    url->clear();
    QTest::keyClicks(url, QStringLiteral("redis://127.0.0.1:6379"));
    QVERIFY(!field->isVisible());
    QVERIFY(!dialog->config().hasSentinelSecret);
    m_dialog.reset();
}

void TestDialogs::wrongSentinelPasswordIsExplained() {
    test::SentinelGroup group;
    test::SentinelGroup::Options options;
    options.sentinelPassword = QStringLiteral("right-sentinel-pw");
    QVERIFY2(group.start(options), qPrintable(group.errorString()));
    auto *dialog = urlDialog(group.url());
    QVERIFY(dialog);
    auto *field = dialog->findChild<QLineEdit *>(QStringLiteral("sentinelPassword"));
    QTest::keyClicks(field, QStringLiteral("wrong-sentinel-pw"));
    const auto [ok, message] = runTest(dialog);
    QVERIFY(!ok);
    QVERIFY2(message.contains(QLatin1String("refused the Sentinel password")), qPrintable(message));
    QVERIFY2(message.contains(QString::number(group.sentinel(0).port())), qPrintable(message));
    QVERIFY2(!message.contains(QLatin1String("sentinel-pw")), qPrintable(message));
    QVERIFY(dialog->detectedTopology().isEmpty());

    // The right one: detected, with the master the sentinel names.
    field->clear();
    QTest::keyClicks(field, QStringLiteral("right-sentinel-pw"));
    const auto [ok2, message2] = runTest(dialog);
    QVERIFY2(ok2, qPrintable(message2));
    QVERIFY2(dialog->detectedTopology().startsWith(QLatin1String("Sentinel mymaster: master")),
             qPrintable(dialog->detectedTopology()));
    dialog->findChild<QLineEdit *>(QStringLiteral("name"))->setText(QStringLiteral("orders via sentinel"));
    saveScreenshot(dialog, QStringLiteral("connection-dialog-sentinel.png"));
    m_dialog.reset();
}

SEMSCOPE_TEST_MAIN(TestDialogs)
#include "tst_dialogs.moc"
