// The dialogs on their own, driven through their widgets: the acquire dialog, the profile dialog,
// and the connection dialog's "Test connection" against a real redis-server, a dead port, and a
// server that accepts but never answers (the dialog stays usable and the test can be cancelled).

#include "RedisServer.h"
#include "model/StoreFactory.h"
#include "ui/AcquireDialog.h"
#include "ui/ConnectionDialog.h"
#include "ui/ProfileDialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTcpServer>
#include <QTcpSocket>
#include <QtTest>

using namespace semscope;

class TestDialogs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void acquireDefaultsAndValidates();
    void profileRoundTrip();
    void profileRefusesABadTimeout();
    void testConnectionAgainstRealRedis();
    void testConnectionToDeadPort();
    void testConnectionToSilentServerCanBeCancelled();
    void connectionDialogShowsNoLiteralAmpersand();
    void malformedAddressCannotBeSaved();

private:
    ui::ConnectionDialog *redisDialog(quint16 port);
    std::unique_ptr<ui::ConnectionDialog> m_dialog;
};

namespace {
QPushButton *okButton(QDialog *d) {
    return d->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
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

QTEST_MAIN(TestDialogs)
#include "tst_dialogs.moc"
