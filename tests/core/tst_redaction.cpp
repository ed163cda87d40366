#include "TestMain.h"
#include "core/Redaction.h"

#include <QTest>

using namespace semscope::core;

class TestRedaction : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void redactedUrl_data() {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no user info") << "redis://127.0.0.1:6379/0"
                                      << "redis://127.0.0.1:6379/0";
        // Without a ':' the user info may be a token or a password given alone.
        QTest::newRow("user info alone") << "redis://s3cret@host:6379"
                                         << "redis://***@host:6379";
        QTest::newRow("user and password") << "redis://ops:hunter2@host:6379/1"
                                           << "redis://ops:***@host:6379/1";
        QTest::newRow("password only") << "redis://:hunter2@host"
                                       << "redis://:***@host";
        QTest::newRow("base64 password with slashes") << "redis://u:ab/cd+ef/gh==@127.0.0.1:bad"
                                                      << "redis://u:***@127.0.0.1:bad";
        QTest::newRow("password with ? and #") << "redis://u:a?b#c@host"
                                               << "redis://u:***@host";
        QTest::newRow("password with @") << "redis://u:p@ss@host:1"
                                         << "redis://u:***@host:1";
        QTest::newRow("no scheme") << "u:secret/x@host:6379"
                                   << "u:***@host:6379";
        QTest::newRow("consul https") << "https://t:tok/en@consul:8501"
                                      << "https://t:***@consul:8501";
        QTest::newRow("empty") << ""
                               << "";
    }
    void redactedUrl() {
        QFETCH(QString, url);
        QFETCH(QString, expected);
        QCOMPARE(semscope::core::redactedUrl(url), expected);
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestRedaction)
#include "tst_redaction.moc"
