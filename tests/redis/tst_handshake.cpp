// The handshake a fresh Redis connection sends (redis/connection/Handshake): which steps for which
// settings, in which order, and what each reply means for the attempt. The wire side (one write,
// queued commands only after the replies, a refused AUTH retried) is tst_redisconnection's.
#include "TestMain.h"
#include "redis/connection/Handshake.h"

#include <QTest>

using semscope::redis::ConnectionSettings;
using semscope::redis::handshakeSteps;
using semscope::redis::HandshakeVerdict;
using semscope::redis::judgeHandshakeReply;
using semscope::redis::RedisReply;
using Outcome = semscope::redis::HandshakeVerdict::Outcome;

Q_DECLARE_METATYPE(semscope::redis::ConnectionSettings)
Q_DECLARE_METATYPE(semscope::redis::RedisReply)
Q_DECLARE_METATYPE(semscope::redis::HandshakeVerdict::Outcome)

namespace {

RedisReply status(const QByteArray &text) {
    RedisReply r = RedisReply::string(text);
    r.type = RedisReply::Type::Status;
    return r;
}

RedisReply roleReply(const QByteArray &role) {
    RedisReply r;
    r.type = RedisReply::Type::Array;
    r.elements << RedisReply::string(role);
    return r;
}

// The command names of the steps, "AUTH user" style where the arguments are not secret.
QStringList commands(const ConnectionSettings &settings, bool throughSentinel) {
    QStringList names;
    for (const auto &step : handshakeSteps(settings, throughSentinel, QStringLiteral("10.0.0.7:6379")))
        names << QString::fromUtf8(step.args.constFirst());
    return names;
}

} // namespace

class TestHandshake : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void steps_data();
    void steps();
    void authNamesTheUserOnlyWhenThereIsOne();
    void verdicts_data();
    void verdicts();
};

void TestHandshake::steps_data() {
    QTest::addColumn<ConnectionSettings>("settings");
    QTest::addColumn<bool>("throughSentinel");
    QTest::addColumn<QStringList>("expected");

    ConnectionSettings bare;
    bare.clientName.clear();
    QTest::newRow("nothing to say") << bare << false << QStringList();

    ConnectionSettings named;
    QTest::newRow("default settings name the client") << named << false << QStringList{"CLIENT"};

    ConnectionSettings all;
    all.user = QStringLiteral("ops");
    all.password = QStringLiteral("secret");
    all.db = 3;
    all.clusterReadOnly = true;
    QTest::newRow("AUTH, SELECT, SETNAME, READONLY in that order")
        << all << false << QStringList{"AUTH", "SELECT", "CLIENT", "READONLY"};
    QTest::newRow("through Sentinel ROLE comes last")
        << all << true << QStringList{"AUTH", "SELECT", "CLIENT", "READONLY", "ROLE"};
}

void TestHandshake::steps() {
    QFETCH(ConnectionSettings, settings);
    QFETCH(bool, throughSentinel);
    QFETCH(QStringList, expected);
    QCOMPARE(commands(settings, throughSentinel), expected);
}

void TestHandshake::authNamesTheUserOnlyWhenThereIsOne() {
    ConnectionSettings settings;
    settings.password = QStringLiteral("secret");
    QCOMPARE(handshakeSteps(settings, false, {}).constFirst().args, (QList<QByteArray>{"AUTH", "secret"}));
    settings.user = QStringLiteral("ops");
    QCOMPARE(handshakeSteps(settings, false, {}).constFirst().args,
             (QList<QByteArray>{"AUTH", "ops", "secret"}));
}

void TestHandshake::verdicts_data() {
    QTest::addColumn<QString>("step");
    QTest::addColumn<RedisReply>("reply");
    QTest::addColumn<Outcome>("outcome");
    QTest::addColumn<QString>("message");

    QTest::newRow("AUTH accepted") << "AUTH" << status("OK") << Outcome::Passed << QString();
    QTest::newRow("AUTH refused ends the attempt")
        << "AUTH" << RedisReply::error("WRONGPASS invalid username-password pair") << Outcome::Failed
        << "authentication failed: WRONGPASS invalid username-password pair";
    QTest::newRow("SELECT refused ends the attempt")
        << "SELECT" << RedisReply::error("ERR DB index is out of range") << Outcome::Failed
        << "SELECT 3 failed: ERR DB index is out of range";
    QTest::newRow("CLIENT SETNAME refused only warns")
        << "CLIENT" << RedisReply::error("ERR unknown command") << Outcome::Warned
        << "CLIENT SETNAME failed: ERR unknown command";
    // Without a password the server answers NOAUTH to the first step: nothing else can work.
    QTest::newRow("CLIENT SETNAME NOAUTH ends the attempt")
        << "CLIENT" << RedisReply::error("NOAUTH Authentication required.") << Outcome::Failed
        << "authentication required: the server wants a password and none was given (NOAUTH "
           "Authentication required.)";
    QTest::newRow("SELECT NOAUTH ends the attempt")
        << "SELECT" << RedisReply::error("NOAUTH Authentication required.") << Outcome::Failed
        << "authentication required: the server wants a password and none was given (NOAUTH "
           "Authentication required.)";
    QTest::newRow("ROLE master") << "ROLE" << roleReply("master") << Outcome::Passed << QString();
    QTest::newRow("ROLE slave: ask the sentinels again")
        << "ROLE" << roleReply("slave") << Outcome::StaleMaster
        << "10.0.0.7:6379 is not a master (ROLE says 'slave')";
    QTest::newRow("ROLE refused ends the attempt")
        << "ROLE" << RedisReply::error("NOPERM no permissions") << Outcome::Failed
        << "role check failed: NOPERM no permissions";
}

void TestHandshake::verdicts() {
    QFETCH(QString, step);
    QFETCH(RedisReply, reply);
    QFETCH(Outcome, outcome);
    QFETCH(QString, message);

    ConnectionSettings settings;
    settings.password = QStringLiteral("secret");
    settings.db = 3;
    const auto steps = handshakeSteps(settings, true, QStringLiteral("10.0.0.7:6379"));
    const auto it = std::find_if(steps.cbegin(), steps.cend(),
                                 [&](const auto &s) { return s.args.constFirst() == step.toUtf8(); });
    QVERIFY(it != steps.cend());
    const HandshakeVerdict verdict = judgeHandshakeReply(*it, reply);
    QCOMPARE(verdict.outcome, outcome);
    QCOMPARE(verdict.message, message);
}

SEMSCOPE_TEST_GUILESS_MAIN(TestHandshake)
#include "tst_handshake.moc"
