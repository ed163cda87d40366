// Issue 31 item 6 on the page: the card of a holder taken by a `semscope-cli acquire` that has
// exited says its client is gone, on a real redis-server, without the operator doing anything but
// selecting the holder; a holder of a client still connected says so.

#include "LabelText.h"
#include "RedisServer.h"
#include "TestMain.h"
#include "core/audit/AuditLog.h"
#include "model/ConnectionSession.h"
#include "model/ConnectionStores.h"
#include "ui/ForceReleaseDialog.h"
#include "ui/SemaphorePage.h"

#include <QDir>
#include <QLabel>
#include <QProcess>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>
#include <memory>

using namespace semscope;

class TestHolderLiveness : public QObject {
    Q_OBJECT

    test::RedisServer m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<core::AuditLog> m_audit;
    std::unique_ptr<model::ConnectionSession> m_session;

    // A slot taken by a `semscope-cli acquire` that then exits, as a finished cron job leaves it;
    // without `holder` the CLI names it.
    bool acquireByExitedCli(const QString &name, const QString &holder = {}) {
        QStringList args{QStringLiteral("--redis"), m_server.url(),
                         QStringLiteral("acquire"), name,
                         QStringLiteral("--kind"),  QStringLiteral("leased"),
                         QStringLiteral("--limit"), QStringLiteral("2"),
                         QStringLiteral("--ttl"),   QStringLiteral("10m")};
        if (!holder.isEmpty())
            args << QStringLiteral("--holder") << holder;
        QProcess cli;
        cli.start(qEnvironmentVariable("SEMSCOPE_CLI"), args);
        return cli.waitForFinished(30000) && cli.exitCode() == 0;
    }

    // A slot taken by this process, whose connection stays open.
    bool acquireHere(const core::SemaphoreRef &ref, const QString &holder) {
        core::AcquireRequest req;
        req.holder = holder;
        bool granted = false;
        m_session->controller.acquire(ref, req, {}, this, [&granted](core::AcquireResult r) {
            granted = r.status == core::AcquireResult::Status::Granted;
        });
        return QTest::qWaitFor([&granted] { return granted; }, 15000);
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        m_audit = std::make_unique<core::AuditLog>(m_dir.filePath(QStringLiteral("audit.jsonl")));
        model::ConnectionConfig c = model::ConnectionConfig::create(core::Backend::Redis);
        c.name = QStringLiteral("liveness");
        c.url = m_server.url();
        m_session = std::make_unique<model::ConnectionSession>(c, model::storeFactoryFor(c), m_audit.get());
        m_session->controller.open();
    }
    void cleanupTestCase() { m_session.reset(); }

    void cardSaysTheExitedClientIsGone() {
        QVERIFY(acquireByExitedCli(QStringLiteral("report")));

        ui::SemaphorePage page(nullptr);
        page.resize(1280, 600);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        core::SemaphoreRef ref;
        ref.kind = core::Kind::Leased;
        ref.name = QStringLiteral("report");
        page.setSemaphore(m_session.get(), ref);
        QTRY_COMPARE_WITH_TIMEOUT(page.holderModel()->rowCount(), 1, 15000);
        page.holderView()->selectRow(0);
        auto *line = page.findChild<QLabel *>(QStringLiteral("holderLiveness"));
        QVERIFY(line);
        QTRY_VERIFY_WITH_TIMEOUT(line->isVisible(), 10000);
        QTRY_VERIFY2_WITH_TIMEOUT(test::shownText(line).startsWith(QStringLiteral("client gone")),
                                  qPrintable(test::shownText(line)), 10000);
        QVERIFY2(test::shownText(line).contains(QStringLiteral("no connection of pid ")),
                 qPrintable(test::shownText(line)));
        QVERIFY2(test::shownText(line).contains(QStringLiteral("until its lease runs out")),
                 qPrintable(test::shownText(line)));

        // A holder taken by this process, whose connection is open: connected.
        QVERIFY(acquireHere(ref, QStringLiteral("mine")));
        QTRY_VERIFY_WITH_TIMEOUT(page.selectHolder(QStringLiteral("mine")), 15000);
        QTRY_VERIFY2_WITH_TIMEOUT(test::shownText(line).startsWith(QStringLiteral("client connected")),
                                  qPrintable(test::shownText(line)), 10000);
        page.clearSemaphore();
        QVERIFY(!line->isVisible());
    }

    // The force-release dialog says the same before anything is typed: a holder whose client is
    // still connected is named in a warning, since releasing it lets a second client in while the
    // first still runs; a holder whose client has exited is not.
    void forceReleaseDialogNamesAConnectedClient() {
        QVERIFY(acquireByExitedCli(QStringLiteral("export"), QStringLiteral("exited")));
        core::SemaphoreRef ref;
        ref.kind = core::Kind::Leased;
        ref.name = QStringLiteral("export");
        QVERIFY(acquireHere(ref, QStringLiteral("running")));

        ui::SemaphorePage page(nullptr);
        page.resize(1280, 600);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        page.setSemaphore(m_session.get(), ref);
        QTRY_COMPARE_WITH_TIMEOUT(page.holderModel()->rowCount(), 2, 15000);
        auto *line = page.findChild<QLabel *>(QStringLiteral("holderLiveness"));
        QVERIFY(line);

        const auto dialogFor = [&page, line](const QString &holder,
                                             const QString &state) -> ui::ForceReleaseDialog * {
            page.selectHolder(holder);
            if (!QTest::qWaitFor([&] { return test::shownText(line).startsWith(state); }, 10000)) {
                qWarning() << "the card says" << test::shownText(line);
                return nullptr;
            }
            return page.forceReleaseSelected();
        };
        ui::ForceReleaseDialog *running =
            dialogFor(QStringLiteral("running"), QStringLiteral("client connected"));
        QVERIFY(running);
        auto *warning = running->findChild<QLabel *>(QStringLiteral("clientStillConnected"));
        QVERIFY(warning);
        QVERIFY(!warning->isHidden());
        QVERIFY2(warning->text().contains(QStringLiteral("running")), qPrintable(warning->text()));
        auto *holders = running->findChild<QTreeWidget *>(QStringLiteral("holders"));
        QVERIFY(holders);
        QCOMPARE(holders->topLevelItem(0)->text(6), QStringLiteral("client connected"));
        QVERIFY(QDir().mkpath(QStringLiteral(SEMSCOPE_SCREENSHOT_DIR)));
        running->resize(900, 480);
        QVERIFY(running->grab().save(
            QStringLiteral(SEMSCOPE_SCREENSHOT_DIR "/forcerelease-client-connected.png")));
        running->reject();

        ui::ForceReleaseDialog *exited = dialogFor(QStringLiteral("exited"), QStringLiteral("client gone"));
        QVERIFY(exited);
        QVERIFY(exited->findChild<QLabel *>(QStringLiteral("clientStillConnected"))->isHidden());
        QVERIFY(exited->findChild<QTreeWidget *>(QStringLiteral("holders"))
                    ->topLevelItem(0)
                    ->text(6)
                    .startsWith(QStringLiteral("client gone")));
        exited->reject();
        page.clearSemaphore();
    }
};

SEMSCOPE_TEST_MAIN(TestHolderLiveness)
#include "tst_holderliveness.moc"
