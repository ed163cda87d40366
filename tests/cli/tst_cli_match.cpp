// `--match` means one thing everywhere (core::GlobPattern, Redis MATCH syntax): on Consul a '*'
// crosses '/', so the CLI keeps exactly what the store found. Before the one matcher, the CLI
// filtered again with a glob whose '*' stopped at '/', and `list --match 'svc/*'` printed
// "found 1 semaphores" and then "(no semaphores found)".
#include "CliRun.h"
#include "TestMain.h"
#include "consuldouble/ConsulDouble.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace semscope;

class TestCliMatch : public QObject {
    Q_OBJECT

    consul::ConsulDouble m_consul;
    QTemporaryDir m_home;

    test::CliRun cli(const QStringList &args, int timeoutMs = 30000) {
        return test::runCliServing(QStringList{QStringLiteral("--consul"), m_consul.url().toString()} + args,
                                   {{QStringLiteral("HOME"), m_home.path()},
                                    {QStringLiteral("XDG_CONFIG_HOME"), m_home.path()},
                                    {QStringLiteral("XDG_DATA_HOME"), m_home.path()}},
                                   timeoutMs);
    }

    static QString describe(const test::CliRun &r) {
        return QStringLiteral("exit %1\nstdout: %2\nstderr: %3").arg(r.exitCode).arg(r.out, r.err);
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_consul.listen());
        for (const QString &name : {QStringLiteral("deploy"), QStringLiteral("svc/batch/jobs")}) {
            const test::CliRun r =
                cli({QStringLiteral("acquire"), name, QStringLiteral("--kind"), QStringLiteral("consul"),
                     QStringLiteral("--limit"), QStringLiteral("2"), QStringLiteral("--holder"),
                     QStringLiteral("h"), QStringLiteral("--ttl"), QStringLiteral("60s")});
            QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        }
    }

    void listMatchesConsulNames_data() {
        QTest::addColumn<QString>("match");
        QTest::addColumn<QStringList>("names");
        QTest::newRow("star before slash") << "svc*" << QStringList{QStringLiteral("svc/batch/jobs")};
        QTest::newRow("star after slash") << "svc/*" << QStringList{QStringLiteral("svc/batch/jobs")};
        QTest::newRow("leading star") << "*jobs" << QStringList{QStringLiteral("svc/batch/jobs")};
        QTest::newRow("question mark crosses slash")
            << "svc?batch*" << QStringList{QStringLiteral("svc/batch/jobs")};
        QTest::newRow("literal") << "deploy" << QStringList{QStringLiteral("deploy")};
        QTest::newRow("everything") << "*"
                                    << QStringList{QStringLiteral("deploy"),
                                                   QStringLiteral("svc/batch/jobs")};
        QTest::newRow("nothing") << "nightly*" << QStringList{};
    }
    void listMatchesConsulNames() {
        QFETCH(QString, match);
        QFETCH(QStringList, names);
        const test::CliRun r =
            cli({QStringLiteral("list"), QStringLiteral("--match"), match, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QStringList listed;
        for (const QJsonValue &v : QJsonDocument::fromJson(r.out.toUtf8()).array())
            listed << v.toObject().value(QStringLiteral("name")).toString();
        listed.sort();
        QCOMPARE(listed, names);

        // The human table says the same: what was found is what is printed.
        const test::CliRun human = cli({QStringLiteral("list"), QStringLiteral("--match"), match});
        QVERIFY2(human.exitCode == 0, qPrintable(describe(human)));
        for (const QString &name : names)
            QVERIFY2(human.out.contains(name), qPrintable(describe(human)));
        QCOMPARE(human.out.contains(QStringLiteral("(no semaphores found)")), names.isEmpty());
        // The count in words: "found 1 semaphore", not "found 1 semaphores".
        const QString found = names.size() == 1 ? QStringLiteral(", found 1 semaphore\n")
                                                : QStringLiteral(", found %1 semaphores\n").arg(names.size());
        QVERIFY2(human.err.contains(found), qPrintable(describe(human)));
    }

    // A glob that cannot mean what was typed is refused before anything is read: `--match '['`
    // (Redis closes the class at the end, so it matches nothing) used to list nothing and exit 0,
    // and `watch`/`serve` watched nothing for as long as they ran.
    void globThatCannotMeanWhatWasTypedIsAUsageError_data() {
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<QString>("glob");
        QTest::addColumn<QString>("problem");
        const QString bracket = QStringLiteral("'[' at position 1 is never closed; write \\[ for a bracket");
        QTest::newRow("list, lone bracket") << QStringList{"list"} << "[" << bracket;
        QTest::newRow("list, unclosed class")
            << QStringList{"list"} << "svc/[ab"
            << QStringLiteral("'[' at position 5 is never closed; write \\[ for a bracket");
        QTest::newRow("list, trailing backslash")
            << QStringList{"list"} << "deploy\\"
            << QStringLiteral("'\\' at position 7 escapes nothing; write \\\\ for a backslash");
        QTest::newRow("watch") << QStringList{"watch", "--for", "2s"} << "[" << bracket;
        QTest::newRow("serve") << QStringList{"serve", "--metrics", "127.0.0.1:0"} << "[" << bracket;
    }
    void globThatCannotMeanWhatWasTypedIsAUsageError() {
        QFETCH(QStringList, command);
        QFETCH(QString, glob);
        QFETCH(QString, problem);
        const QString line = QStringLiteral("--match '%1': %2").arg(glob, problem);
        const test::CliRun r = cli(command + QStringList{QStringLiteral("--match"), glob}, 10000);
        QVERIFY2(r.exitCode == 2, qPrintable(describe(r)));
        QCOMPARE(r.err, QStringLiteral("semscope-cli: %1\n").arg(line));
        QVERIFY2(r.out.isEmpty(), qPrintable(describe(r)));

        // --json: the error document of every usage error.
        const test::CliRun json =
            cli(command + QStringList{QStringLiteral("--match"), glob, QStringLiteral("--json")}, 10000);
        QVERIFY2(json.exitCode == 2, qPrintable(describe(json)));
        const QJsonObject doc = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QCOMPARE(doc.value(QStringLiteral("status")).toString(), QStringLiteral("error"));
        QCOMPARE(doc.value(QStringLiteral("error")).toString(), line);
        QCOMPARE(doc.value(QStringLiteral("exit_code")).toInt(), 2);
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestCliMatch)
#include "tst_cli_match.moc"
