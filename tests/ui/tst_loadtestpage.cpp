// The load-test window against a real redis-server: the form drives the engine, Start/Stop never
// block, the summary and the verdict tell safe from unsafe, a training scenario shows the unsafe
// design over-admitting beside the atomic kind, exports are valid files, and read-only or
// production connections do not get load without consent.

#include "RedisServer.h"
#include "TestMain.h"
#include "app/privateredis/LocalPrivateRedisServer.h"
#include "consuldouble/ConsulDouble.h"
#include "core/Kind.h"
#include "core/audit/AuditLog.h"
#include "model/ConnectionConfig.h"
#include "model/LoadTestRunner.h"
#include "model/LoadTestSummaryModel.h"
#include "training/TrainingScenarios.h"
#include "ui/loadtest/DistributionEdit.h"
#include "ui/loadtest/LoadTestCharts.h"
#include "ui/loadtest/LoadTestExportButton.h"
#include "ui/loadtest/LoadTestForm.h"
#include "ui/loadtest/LoadTestPage.h"
#include "ui/loadtest/LoadTestRunView.h"
#include "ui/loadtest/LoadTestWindow.h"
#include "ui/loadtest/TrainingPage.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMessageBox>
#include <QPushButton>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabBar>
#include <QTemporaryDir>
#include <QtTest>

using namespace semscope;
using model::LoadTestSummaryModel;

namespace {
constexpr int runTimeoutMs = 120'000;

// Replaces a spin box's value the way a person does: select all, type.
void typeInto(QAbstractSpinBox *box, const QString &text) {
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, text);
    QTest::keyClick(box, Qt::Key_Tab);
}

// The letter after a single '&' in a label or button text ("Se&maphore" -> 'M'), or 0.
QChar mnemonicOf(const QString &text) {
    for (qsizetype i = 0; i + 1 < text.size(); ++i) {
        if (text.at(i) != QLatin1Char('&'))
            continue;
        if (text.at(i + 1) == QLatin1Char('&')) {
            ++i;
            continue;
        }
        return text.at(i + 1).toUpper();
    }
    return QChar();
}

// Every Alt+letter the visible part of `window` answers to, with what it belongs to.
QMultiMap<QChar, QString> visibleMnemonics(QWidget *window) {
    QMultiMap<QChar, QString> found;
    auto note = [&](const QString &text) {
        if (const QChar c = mnemonicOf(text); !c.isNull())
            found.insert(c, text);
    };
    for (QLabel *label : window->findChildren<QLabel *>()) {
        if (label->isVisible() && label->buddy())
            note(label->text());
    }
    for (QAbstractButton *button : window->findChildren<QAbstractButton *>()) {
        if (button->isVisible())
            note(button->text());
    }
    for (QTabBar *bar : window->findChildren<QTabBar *>()) {
        for (int i = 0; bar->isVisible() && i < bar->count(); ++i)
            note(bar->tabText(i));
    }
    return found;
}

bool visibleInside(QWidget *widget, QWidget *window) {
    const QRect inWindow(widget->mapTo(window, QPoint(0, 0)), widget->size());
    return widget->isVisible() && window->rect().contains(inWindow) && !widget->visibleRegion().isEmpty();
}

double summaryValue(ui::LoadTestRunView *view, int row) {
    return view->summaryModel()->index(row, 0).data(LoadTestSummaryModel::ValueRole).toDouble();
}
} // namespace

class TestLoadTestPage : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void formCoversEveryParameter();
    void formCarriesReplicas();
    void formRecommendsTheKindsAcquire();
    void leasedRunReportsNoOverAdmission();
    void exportsJsonCsvAndPng();
    void stopEndsALongRunPromptly();
    void returnStartsAndEscapeStops();
    void fitsA1280x720Projector();
    void mnemonicsAreUniquePerTab();
    void trainingShowsUnsafeBesideAtomic();
    void trainingNamesEachDesign();
    void trainingStopEndsBothRuns();
    void consulConnectionRunsTheConsulKind();
    void readOnlyConnectionRefuses();
    void productionConnectionAsksFirst();
    void statusSaysOneClientInTheSingular();

private:
    model::ConnectionConfig redisConfig(const QString &name) const;
    std::unique_ptr<ui::LoadTestWindow> window(const model::ConnectionConfig &config);

    test::RedisServer m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<ui::LoadTestWindow> m_window; // the one the run/export tests share
};

void TestLoadTestPage::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
    QVERIFY(m_dir.isValid());
    ui::LoadTestExportButton::setUseNativeDialogs(false);
}

model::ConnectionConfig TestLoadTestPage::redisConfig(const QString &name) const {
    model::ConnectionConfig c = model::ConnectionConfig::create(core::Backend::Redis);
    c.name = name;
    c.url = m_server.url();
    return c;
}

std::unique_ptr<ui::LoadTestWindow> TestLoadTestPage::window(const model::ConnectionConfig &config) {
    auto w = std::make_unique<ui::LoadTestWindow>(config, m_dir.filePath(QStringLiteral("settings.ini")));
    w->setPrivateRedisLauncher(app::localPrivateRedisLauncher()); // as the main window wires it
    w->resize(1500, 940); // the offscreen screen is 800x600: the window would shrink to fit it
    w->show();
    if (!QTest::qWaitForWindowExposed(w.get()))
        return nullptr;
    return w;
}

void TestLoadTestPage::formCoversEveryParameter() {
    ui::LoadTestForm form;
    form.kindBox()->setCurrentIndex(form.kindBox()->findText(QStringLiteral("zset")));
    form.nameEdit()->setText(QStringLiteral("jobs"));
    form.limitBox()->setValue(7);
    form.clientsBox()->setValue(40);
    form.connectionsBox()->setValue(3);
    form.threadsBox()->setValue(2);
    form.holdEdit()->setDistribution(core::Distribution::exponential(4'000'000));
    form.thinkEdit()->setDistribution(core::Distribution::uniform(1'000'000, 2'000'000));
    form.ttlBox()->setValue(3000);
    form.refreshBox()->setValue(700);
    form.acquireModeBox()->setCurrentIndex(form.acquireModeBox()->findData(ui::LoadTestForm::WaitUpTo));
    form.waitBox()->setValue(1500);
    form.stopModeBox()->setCurrentIndex(form.stopModeBox()->findData(ui::LoadTestForm::AfterOps));
    form.opsBox()->setValue(999);
    form.crashRateBox()->setValue(12.5);
    form.skewBox()->setValue(250);

    const core::LoadTestConfig c = form.config();
    QCOMPARE(c.ref.kind, core::Kind::Zset);
    QCOMPARE(c.ref.name, QStringLiteral("jobs"));
    QCOMPARE(c.limit, 7);
    QCOMPARE(c.clients, 40);
    QCOMPARE(c.connections, 3);
    QCOMPARE(c.threads, 2);
    QCOMPARE(c.hold.toString(), core::Distribution::exponential(4'000'000).toString());
    QCOMPARE(c.think.toString(), core::Distribution::uniform(1'000'000, 2'000'000).toString());
    QCOMPARE(c.ttlMs, 3000);
    QCOMPARE(c.ref.profile.timeoutMs, 3000); // zset takes its lease length from the profile
    QCOMPARE(c.refreshIntervalMs, 700);
    QCOMPARE(c.waitMs, 1500);
    QCOMPARE(c.ops, 999);
    QCOMPARE(c.crashRate, 0.125);
    QCOMPARE(c.skewMs, 250);
    QVERIFY2(form.problem().isEmpty(), qPrintable(form.problem()));

    // Remembered and given back.
    QSettings settings(m_dir.filePath(QStringLiteral("form.ini")), QSettings::IniFormat);
    form.save(settings);
    ui::LoadTestForm again;
    again.restore(settings);
    QCOMPARE(again.config().hold.toString(), c.hold.toString());
    QCOMPARE(again.config().ops, 999);
    QCOMPARE(again.config().ref.kind, core::Kind::Zset);

    // A lock has one slot; no kind that semscope cannot acquire is offered.
    form.kindBox()->setCurrentIndex(form.kindBox()->findText(QStringLiteral("lock")));
    QCOMPARE(form.config().limit, 1);
    QVERIFY(!form.limitBox()->isEnabled());
    QCOMPARE(form.kindBox()->findText(QStringLiteral("redisson-lock")), -1);
    form.setBackend(core::Backend::Consul);
    QCOMPARE(form.kindBox()->count(), 1);
    QCOMPARE(form.kindBox()->currentText(), QStringLiteral("consul"));
    form.nameEdit()->clear();
    QVERIFY(!form.problem().isEmpty());
}

void TestLoadTestPage::formCarriesReplicas() {
    // Issue 18 item 3: "Wait for replicas" in the form, for Redis leased and lock only.
    ui::LoadTestForm form;
    form.kindBox()->setCurrentIndex(form.kindBox()->findText(QStringLiteral("leased")));
    form.nameEdit()->setText(QStringLiteral("jobs"));
    QVERIFY(form.replicasBox()->isEnabled());
    QCOMPARE(form.config().replicas, 0);
    QVERIFY(!form.replicaTimeoutBox()->isEnabled()); // nothing to time out without replicas
    form.replicasBox()->setValue(1);
    QVERIFY(form.replicaTimeoutBox()->isEnabled());
    form.replicaTimeoutBox()->setValue(250);
    core::LoadTestConfig c = form.config();
    QCOMPARE(c.replicas, 1);
    QCOMPARE(c.replicaTimeoutMs, 250);
    QVERIFY2(form.problem().isEmpty(), qPrintable(form.problem()));

    QSettings settings(m_dir.filePath(QStringLiteral("replicas.ini")), QSettings::IniFormat);
    form.save(settings);
    ui::LoadTestForm again;
    again.restore(settings);
    QCOMPARE(again.config().replicas, 1);
    QCOMPARE(again.config().replicaTimeoutMs, 250);

    form.kindBox()->setCurrentIndex(form.kindBox()->findText(QStringLiteral("lock")));
    QCOMPARE(form.config().replicas, 1);
    // Kinds whose acquire is not one write on one master, and Consul, do not wait for replicas.
    form.kindBox()->setCurrentIndex(form.kindBox()->findText(QStringLiteral("fair")));
    QVERIFY(!form.replicasBox()->isEnabled());
    QCOMPARE(form.config().replicas, 0);
    form.setBackend(core::Backend::Consul);
    QVERIFY(!form.replicasBox()->isEnabled());
    QCOMPARE(form.config().replicas, 0);
}

void TestLoadTestPage::formRecommendsTheKindsAcquire() {
    // Issue 30 item 3: the form starts where the CLI does: a kind with a wait queue waits in it, the
    // others retry after a pause; the recommended mode is marked. Once the operator picks a mode,
    // changing the kind leaves it alone.
    ui::LoadTestForm form;
    QComboBox *mode = form.acquireModeBox();
    form.kindBox()->setCurrentIndex(form.kindBox()->findText(QStringLiteral("leased")));
    QCOMPARE(mode->currentData().toInt(), int(ui::LoadTestForm::WaitUpTo));
    QCOMPARE(form.config().waitMs, core::LoadTestConfig::recommendedWaitMs(core::Kind::Leased));
    QVERIFY(mode->currentText().contains(QStringLiteral("recommended")));
    form.kindBox()->setCurrentIndex(form.kindBox()->findText(QStringLiteral("slots")));
    QCOMPARE(mode->currentData().toInt(), int(ui::LoadTestForm::TryOnce));
    QCOMPARE(form.config().waitMs, 0);
    QVERIFY(mode->currentText().contains(QStringLiteral("recommended")));
    QVERIFY(
        !mode->itemText(mode->findData(ui::LoadTestForm::WaitUpTo)).contains(QStringLiteral("recommended")));

    // Not picked: a restored form follows its kind as well.
    QSettings settings(m_dir.filePath(QStringLiteral("mode.ini")), QSettings::IniFormat);
    form.kindBox()->setCurrentIndex(form.kindBox()->findText(QStringLiteral("leased")));
    form.save(settings);
    {
        ui::LoadTestForm again;
        again.restore(settings);
        QCOMPARE(again.config().waitMs, core::LoadTestConfig::recommendedWaitMs(core::Kind::Leased));
        again.kindBox()->setCurrentIndex(again.kindBox()->findText(QStringLiteral("zset")));
        QCOMPARE(again.config().waitMs, 0);
    }

    // Picked by the operator: it stays, and is remembered as picked.
    const int retry = mode->findData(ui::LoadTestForm::TryOnce);
    mode->setCurrentIndex(retry);
    Q_EMIT mode->activated(retry);
    form.kindBox()->setCurrentIndex(form.kindBox()->findText(QStringLiteral("fair")));
    form.kindBox()->setCurrentIndex(form.kindBox()->findText(QStringLiteral("leased")));
    QCOMPARE(form.config().waitMs, 0);
    form.save(settings);
    ui::LoadTestForm again;
    again.restore(settings);
    again.kindBox()->setCurrentIndex(again.kindBox()->findText(QStringLiteral("slots")));
    again.kindBox()->setCurrentIndex(again.kindBox()->findText(QStringLiteral("leased")));
    QCOMPARE(again.config().waitMs, 0);
}

void TestLoadTestPage::leasedRunReportsNoOverAdmission() {
    m_window = window(redisConfig(QStringLiteral("test redis")));
    QVERIFY(m_window);
    core::AuditLog audit(m_dir.filePath(QStringLiteral("audit.jsonl")));
    m_window->setAuditLog(&audit);
    ui::LoadTestPage *page = m_window->loadTestPage();
    ui::LoadTestForm *form = page->form();
    form->kindBox()->setCurrentIndex(form->kindBox()->findText(QStringLiteral("leased")));
    form->nameEdit()->clear();
    QTest::keyClicks(form->nameEdit(), QStringLiteral("gui:leased"));
    typeInto(form->limitBox(), QStringLiteral("5"));
    typeInto(form->clientsBox(), QStringLiteral("20"));
    typeInto(form->connectionsBox(), QStringLiteral("2"));
    typeInto(form->durationBox(), QStringLiteral("2"));
    typeInto(form->crashRateBox(), QStringLiteral("0"));

    auto *model = page->runView()->summaryModel();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy progress(page->runner(), &model::LoadTestRunner::progress);
    QSignalSpy finished(page->runner(), &model::LoadTestRunner::finished);
    QTest::mouseClick(page->startButton(), Qt::LeftButton);
    QVERIFY(page->isRunning());
    QVERIFY(!page->startButton()->isEnabled());
    QVERIFY(page->stopButton()->isEnabled());
    QVERIFY(finished.wait(runTimeoutMs));

    QVERIFY(!progress.isEmpty());
    const core::LoadTestReport r = page->runner()->reports().value(0);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.config.ref.name, QStringLiteral("gui:leased"));
    QCOMPARE(r.config.clients, 20);
    QVERIFY(r.grants > 0);
    QCOMPARE(model->columnCount(), 1);
    QCOMPARE(summaryValue(page->runView(), LoadTestSummaryModel::OverAdmissionsRow), 0.0);
    QCOMPARE(summaryValue(page->runView(), LoadTestSummaryModel::TokenViolationsRow), 0.0);
    QVERIFY(summaryValue(page->runView(), LoadTestSummaryModel::GrantsRow) > 0);
    QVERIFY(summaryValue(page->runView(), LoadTestSummaryModel::PairsPerSecondRow) > 0);
    QVERIFY(summaryValue(page->runView(), LoadTestSummaryModel::MaxHoldersRow) <= 5);
    QCOMPARE(model->index(LoadTestSummaryModel::OverAdmissionsRow, 0).data().toString(), QStringLiteral("0"));
    QVERIFY(page->runView()->verdictLabel()->text().contains(QLatin1String("0 over-admissions")));
    QVERIFY(page->runView()->charts()->throughputSeries()->count() > 0);
    QCOMPARE(page->runView()->charts()->overAdmissionSeries()->count(), 0);
    QVERIFY(page->startButton()->isEnabled());
    QVERIFY(!page->stopButton()->isEnabled());
    QVERIFY(page->exportButton()->isEnabled());
    // The semaphore was really used: every client let go, the layout is there.
    QCOMPARE(m_server.command({"ZCARD", "{gui:leased}:holders"}).integer, 0LL);
    QCOMPARE(m_server.command({"EXISTS", "{gui:leased}:meta"}).integer, 1LL);
    // And the run is in the audit log, like every write made from the app.
    const QList<core::AuditEntry> logged = audit.readRecent();
    QCOMPARE(logged.size(), 1);
    QCOMPARE(logged.constFirst().action, QStringLiteral("load-test"));
    QCOMPARE(logged.constFirst().semaphore, QStringLiteral("leased:gui:leased"));
    QCOMPARE(logged.constFirst().result, QStringLiteral("ok"));
    m_window->setAuditLog(nullptr);
}

void TestLoadTestPage::exportsJsonCsvAndPng() {
    QVERIFY(m_window);
    ui::LoadTestExportButton *exporter = m_window->loadTestPage()->exportButton();
    const QString json = m_dir.filePath(QStringLiteral("report.json"));
    const QString csv = m_dir.filePath(QStringLiteral("timeline.csv"));
    const QString png = m_dir.filePath(QStringLiteral("charts.png"));

    // Through the file dialog, as a person does it.
    exporter->jsonAction()->trigger();
    QFileDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = m_window->findChild<QFileDialog *>(QStringLiteral("exportDialog"))) != nullptr);
    QSignalSpy exported(exporter, &ui::LoadTestExportButton::exported);
    dialog->selectFile(json);
    QVERIFY(QMetaObject::invokeMethod(dialog, "accept")); // what the Save button does
    QCOMPARE(exported.size(), 1);
    QVERIFY2(exported.first().at(1).toBool(), qPrintable(exported.first().at(0).toString()));
    QFile jsonFile(json);
    QVERIFY(jsonFile.open(QIODevice::ReadOnly));
    QJsonParseError error;
    const QJsonObject o = QJsonDocument::fromJson(jsonFile.readAll(), &error).object();
    QCOMPARE(error.error, QJsonParseError::NoError);
    for (const char *key : {"pairs_per_s", "acquire_p50_ms", "acquire_p99_ms", "attempts_per_grant",
                            "jain_fairness", "over_admissions", "max_concurrent_holders", "token_violations"})
        QVERIFY2(o.contains(QLatin1String(key)), key);
    QCOMPARE(o.value(QStringLiteral("over_admissions")).toInteger(), 0);

    QVERIFY(exporter->exportCsv(csv).isEmpty());
    QFile csvFile(csv);
    QVERIFY(csvFile.open(QIODevice::ReadOnly | QIODevice::Text));
    const QList<QByteArray> lines = csvFile.readAll().trimmed().split('\n');
    QVERIFY(lines.size() >= 2);
    QVERIFY(lines.first().startsWith("run,elapsed_ms,pairs_per_s"));
    QCOMPARE(lines.at(1).count(','), lines.first().count(','));
    QVERIFY(lines.at(1).startsWith("\"leased\","));

    QVERIFY(exporter->exportPng(png).isEmpty());
    const QImage image(png);
    QVERIFY(!image.isNull());
    QVERIFY(image.width() > 400 && image.height() > 300);

    // A folder that does not exist: a message, no crash, no file.
    QVERIFY(!exporter->exportJson(m_dir.filePath(QStringLiteral("missing/report.json"))).isEmpty());
}

void TestLoadTestPage::stopEndsALongRunPromptly() {
    QVERIFY(m_window);
    ui::LoadTestPage *page = m_window->loadTestPage();
    ui::LoadTestForm *form = page->form();
    typeInto(form->durationBox(), QStringLiteral("3600"));
    QSignalSpy progress(page->runner(), &model::LoadTestRunner::progress);
    QSignalSpy finished(page->runner(), &model::LoadTestRunner::finished);
    QTest::mouseClick(page->startButton(), Qt::LeftButton);
    QVERIFY(progress.wait(runTimeoutMs)); // running for real
    QTest::mouseClick(page->stopButton(), Qt::LeftButton);
    QVERIFY(page->statusLabel()->text().contains(QLatin1String("Stopping")));
    // An hour-long run ends as soon as its clients have released: well within the drain timeout.
    QVERIFY(finished.wait(30'000));
    const core::LoadTestReport r = page->runner()->reports().value(0);
    QVERIFY(r.cancelled);
    QVERIFY(r.ok);
    QVERIFY(r.elapsedMs < 3'600'000);
    QVERIFY(page->runView()
                ->summaryModel()
                ->headerData(0, Qt::Horizontal)
                .toString()
                .contains(QLatin1String("stopped")));
    QVERIFY(page->runView()->verdictLabel()->text().contains(QLatin1String("stopped early")));
    QVERIFY(page->startButton()->isEnabled());
}

void TestLoadTestPage::returnStartsAndEscapeStops() {
    auto w = window(redisConfig(QStringLiteral("keys")));
    QVERIFY(w);
    ui::LoadTestPage *page = w->loadTestPage();
    typeInto(page->form()->durationBox(), QStringLiteral("3600"));
    QSignalSpy progress(page->runner(), &model::LoadTestRunner::progress);
    QSignalSpy finished(page->runner(), &model::LoadTestRunner::finished);
    // Return in a field starts the run, as the default button promises.
    page->form()->nameEdit()->setFocus();
    QTest::keyClick(page->form()->nameEdit(), Qt::Key_Return);
    QVERIFY(page->isRunning());
    QVERIFY(progress.wait(runTimeoutMs));
    // Escape, wherever the focus is, stops it.
    QTest::keyClick(page->stopButton(), Qt::Key_Escape);
    QVERIFY(finished.wait(30'000));
    QVERIFY(page->runner()->reports().value(0).cancelled);
}

void TestLoadTestPage::fitsA1280x720Projector() {
    auto w = window(redisConfig(QStringLiteral("projector")));
    QVERIFY(w);
    // The training room's projector: 1280x720 less the panels; every control must stay reachable.
    const QSize min = w->minimumSizeHint().expandedTo(w->minimumSize());
    QVERIFY2(min.width() <= 1024 && min.height() <= 700,
             qPrintable(QStringLiteral("minimum %1x%2").arg(min.width()).arg(min.height())));
    w->resize(1024, 700);
    QTRY_COMPARE(w->size(), QSize(1024, 700));
    ui::LoadTestPage *page = w->loadTestPage();
    for (QWidget *control :
         {static_cast<QWidget *>(page->startButton()), static_cast<QWidget *>(page->stopButton()),
          static_cast<QWidget *>(page->exportButton())})
        QVERIFY2(visibleInside(control, w.get()), qPrintable(control->objectName()));
    w->showTraining();
    // The training text wraps: the window must still not grow past the screen, also once the
    // wrapped labels have been laid out.
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QCoreApplication::processEvents();
    QCOMPARE(w->size(), QSize(1024, 700));
    ui::TrainingPage *training = w->trainingPage();
    for (QWidget *control :
         {static_cast<QWidget *>(training->startButton()), static_cast<QWidget *>(training->stopButton()),
          static_cast<QWidget *>(training->exportButton()), static_cast<QWidget *>(training->scenarioBox())})
        QVERIFY2(visibleInside(control, w.get()), qPrintable(control->objectName()));
}

void TestLoadTestPage::mnemonicsAreUniquePerTab() {
    auto w = window(redisConfig(QStringLiteral("mnemonics")));
    QVERIFY(w);
    for (bool training : {false, true}) {
        training ? w->showTraining() : w->showLoadTest();
        const auto found = visibleMnemonics(w.get());
        QVERIFY(found.size() > 5);
        for (const QChar c : found.uniqueKeys())
            QVERIFY2(
                found.count(c) == 1,
                qPrintable(
                    QStringLiteral("Alt+%1: %2").arg(c).arg(found.values(c).join(QStringLiteral(" / ")))));
    }
}

void TestLoadTestPage::trainingShowsUnsafeBesideAtomic() {
    QVERIFY(m_window);
    m_window->showTraining();
    ui::TrainingPage *page = m_window->trainingPage();
    // The INCR-counter lock bites without any pause: losers' DELs wipe the holder's counter.
    page->scenarioBox()->setCurrentIndex(page->scenarioBox()->findData(QStringLiteral("incr-lock")));
    QVERIFY(page->titleLabel()->text().contains(QLatin1String("INCR")));
    QVERIFY(page->explanationLabel()->text().contains(QLatin1String("releaseLock")));
    QVERIFY(page->setupLabel()->text().contains(QLatin1String("limit 1")));
    typeInto(page->durationBox(), QStringLiteral("3"));

    QAbstractItemModelTester unsafeTester(page->unsafeView()->summaryModel(),
                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester atomicTester(page->atomicView()->summaryModel(),
                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy finished(page->runner(), &model::LoadTestRunner::finished);
    QSignalSpy failed(page->runner(), &model::LoadTestRunner::failed);
    QTest::mouseClick(page->startButton(), Qt::LeftButton);
    QVERIFY(page->isRunning());
    QVERIFY(finished.wait(runTimeoutMs));
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));

    const QList<core::LoadTestReport> reports = page->runner()->reports();
    QCOMPARE(reports.size(), 2);
    QVERIFY2(reports[0].ok && reports[1].ok, qPrintable(reports[0].error + reports[1].error));
    QCOMPARE(reports[0].config.ref.name, QStringLiteral("semscope-training:incr-lock-unsafe"));
    QCOMPARE(reports[1].config.ref.name, QStringLiteral("semscope-training:incr-lock-atomic"));
    QCOMPARE(reports[1].config.ref.kind, core::Kind::Lock);
    QVERIFY2(summaryValue(page->unsafeView(), LoadTestSummaryModel::OverAdmissionsRow) > 0,
             qPrintable(reports[0].summaryText()));
    QCOMPARE(summaryValue(page->atomicView(), LoadTestSummaryModel::OverAdmissionsRow), 0.0);
    QVERIFY(summaryValue(page->atomicView(), LoadTestSummaryModel::GrantsRow) > 0);
    // At a glance: red on the left with the count, green on the right with zero.
    const QString unsafeVerdict = page->unsafeView()->verdictLabel()->text();
    QVERIFY2(unsafeVerdict.startsWith(QLatin1String("incr-lock: ")) &&
                 unsafeVerdict.contains(QLatin1String("over-admission")),
             qPrintable(unsafeVerdict));
    QVERIFY(page->unsafeView()->verdictLabel()->styleSheet().contains(QLatin1String("#c62828")));
    QVERIFY(page->atomicView()->verdictLabel()->text().startsWith(QLatin1String("lock: 0 over-admissions")));
    QVERIFY(page->atomicView()->verdictLabel()->styleSheet().contains(QLatin1String("#2e7d32")));
    QVERIFY(page->unsafeView()->charts()->overAdmissionSeries()->count() > 0);

    // The scenario export holds both sides and the explanation, like the CLI's --json.
    const QString json = m_dir.filePath(QStringLiteral("training.json"));
    QVERIFY(page->exportButton()->exportJson(json).isEmpty());
    QFile file(json);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
    QCOMPARE(o.value(QStringLiteral("scenario")).toString(), QStringLiteral("incr-lock"));
    QVERIFY(
        o.value(QStringLiteral("unsafe")).toObject().value(QStringLiteral("over_admissions")).toInteger() >
        0);
    QCOMPARE(
        o.value(QStringLiteral("atomic")).toObject().value(QStringLiteral("over_admissions")).toInteger(), 0);
}

// Issue 16 item 9: a trainee never saw the seeds; every text says what the design is ("the
// Redis-in-Action fair semaphore …"), never "seed 001" or "the seed's design".
void TestLoadTestPage::trainingNamesEachDesign() {
    QVERIFY(m_window);
    m_window->showTraining();
    ui::TrainingPage *page = m_window->trainingPage();
    QComboBox *box = page->scenarioBox();
    QVERIFY(box->count() >= 5);
    for (int i = 0; i < box->count(); ++i) {
        box->setCurrentIndex(i);
        if (page->isFailoverScenario()) {
            // Not a load test (tst_failovertraining): its two sides are named in its own view.
            for (const QString &text : {page->titleLabel()->text(), page->explanationLabel()->text()})
                QVERIFY2(!text.contains(QLatin1String("seed"), Qt::CaseInsensitive), qPrintable(text));
            continue;
        }
        const redis::TrainingScenario *s = redis::findTrainingScenario(box->itemData(i).toString());
        QVERIFY(s);
        QVERIFY(!s->design.isEmpty());
        auto *heading = page->unsafeView()->findChild<QLabel *>(QStringLiteral("runHeading"));
        QVERIFY(heading);
        QVERIFY2(heading->text().contains(s->design.toHtmlEscaped()), qPrintable(heading->text()));
        for (const QString &text : {heading->text(), page->titleLabel()->text(),
                                    page->explanationLabel()->text(), box->itemText(i)})
            QVERIFY2(!text.contains(QLatin1String("seed"), Qt::CaseInsensitive), qPrintable(text));
    }
    QVERIFY(redis::findTrainingScenario(QStringLiteral("fair-without-lock"))
                ->design.contains(QLatin1String("Redis-in-Action fair semaphore")));
}

void TestLoadTestPage::trainingStopEndsBothRuns() {
    QVERIFY(m_window);
    ui::TrainingPage *page = m_window->trainingPage();
    page->setScenario(QStringLiteral("set-del-lock"));
    typeInto(page->durationBox(), QStringLiteral("600"));
    QSignalSpy progress(page->runner(), &model::LoadTestRunner::progress);
    QSignalSpy finished(page->runner(), &model::LoadTestRunner::finished);
    QTest::mouseClick(page->startButton(), Qt::LeftButton);
    QVERIFY(progress.wait(runTimeoutMs));
    QTest::mouseClick(page->stopButton(), Qt::LeftButton);
    QVERIFY(finished.wait(30'000));
    const QList<core::LoadTestReport> reports = page->runner()->reports();
    QCOMPARE(reports.size(), 2);
    QVERIFY(reports[0].cancelled && reports[1].cancelled);
    QVERIFY(page->atomicView()->verdictLabel()->text().contains(QLatin1String("stopped early")));
    QVERIFY(page->startButton()->isEnabled());
}

void TestLoadTestPage::consulConnectionRunsTheConsulKind() {
    consul::ConsulDouble consul;
    QVERIFY(consul.listen());
    model::ConnectionConfig config = model::ConnectionConfig::create(core::Backend::Consul);
    config.name = QStringLiteral("test consul");
    config.address = consul.url().toString();
    auto w = window(config);
    QVERIFY(w);
    ui::LoadTestPage *page = w->loadTestPage();
    ui::LoadTestForm *form = page->form();
    QCOMPARE(form->kindBox()->currentText(), QStringLiteral("consul"));
    form->nameEdit()->setText(QStringLiteral("gui/lt"));
    form->limitBox()->setValue(2);
    form->clientsBox()->setValue(4);
    form->connectionsBox()->setValue(2);
    form->acquireModeBox()->setCurrentIndex(form->acquireModeBox()->findData(ui::LoadTestForm::WaitUpTo));
    form->stopModeBox()->setCurrentIndex(form->stopModeBox()->findData(ui::LoadTestForm::AfterOps));
    form->opsBox()->setValue(30);
    QSignalSpy finished(page->runner(), &model::LoadTestRunner::finished);
    QTest::mouseClick(page->startButton(), Qt::LeftButton);
    QVERIFY(finished.wait(runTimeoutMs));
    const core::LoadTestReport r = page->runner()->reports().value(0);
    QVERIFY2(r.ok, qPrintable(r.error + r.errorSamples.join(QLatin1Char(';'))));
    QVERIFY(r.grants >= 30);
    QCOMPARE(summaryValue(page->runView(), LoadTestSummaryModel::OverAdmissionsRow), 0.0);
    QCOMPARE(summaryValue(page->runView(), LoadTestSummaryModel::ErrorsRow), 0.0);
    QVERIFY(summaryValue(page->runView(), LoadTestSummaryModel::MaxHoldersRow) <= 2);

    // The training scenarios are Redis designs: on a Consul connection they run on a private
    // redis-server only; the connection is not offered as a target.
    QVERIFY(w->trainingPage()->startButton()->isEnabled());
    QCOMPARE(w->trainingPage()->targetBox()->count(), 1);
    QCOMPARE(w->trainingPage()->target(), ui::TrainingPage::Target::PrivateServer);
}

void TestLoadTestPage::readOnlyConnectionRefuses() {
    model::ConnectionConfig config = redisConfig(QStringLiteral("replica"));
    config.readOnly = true;
    auto w = window(config);
    QVERIFY(w);
    ui::LoadTestPage *page = w->loadTestPage();
    page->form()->nameEdit()->setText(QStringLiteral("gui:readonly"));
    QTest::mouseClick(page->startButton(), Qt::LeftButton);
    QVERIFY(!page->isRunning());
    QVERIFY2(page->statusLabel()->text().contains(QLatin1String("read-only")),
             qPrintable(page->statusLabel()->text()));
    QVERIFY(page->runView()->verdictLabel()->text().contains(QLatin1String("read-only")));

    w->showTraining();
    w->trainingPage()->setTarget(ui::TrainingPage::Target::Connection); // not the default
    QTest::mouseClick(w->trainingPage()->startButton(), Qt::LeftButton);
    QVERIFY(!w->trainingPage()->isRunning());
    QVERIFY(w->trainingPage()->statusLabel()->text().contains(QLatin1String("read-only")));
    QCOMPARE(m_server.command({"EXISTS", "{gui:readonly}:meta", "{gui:readonly}:holders"}).integer, 0LL);
}

void TestLoadTestPage::productionConnectionAsksFirst() {
    model::ConnectionConfig config = redisConfig(QStringLiteral("prod"));
    config.environment = model::Environment::Production;
    auto w = window(config);
    QVERIFY(w);
    ui::LoadTestPage *page = w->loadTestPage();
    page->form()->nameEdit()->setText(QStringLiteral("gui:prod"));
    typeInto(page->form()->durationBox(), QStringLiteral("0.5"));
    QTest::mouseClick(page->startButton(), Qt::LeftButton);
    QVERIFY(!page->isRunning());
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = w->findChild<QMessageBox *>(QStringLiteral("productionConfirm"))) != nullptr);
    QVERIFY(box->text().contains(QLatin1String("PRODUCTION")));
    box->button(QMessageBox::Cancel)->click();
    QVERIFY(!page->isRunning());
    QCOMPARE(m_server.command({"EXISTS", "{gui:prod}:meta"}).integer, 0LL);

    // Saying yes runs it.
    QTest::mouseClick(page->startButton(), Qt::LeftButton);
    QTRY_VERIFY((box = w->findChild<QMessageBox *>(QStringLiteral("productionConfirm"))) != nullptr);
    QPushButton *go = nullptr;
    for (QAbstractButton *b : box->buttons())
        if (b->text().contains(QLatin1String("production")))
            go = qobject_cast<QPushButton *>(b);
    QVERIFY(go);
    QSignalSpy finished(page->runner(), &model::LoadTestRunner::finished);
    go->click();
    QVERIFY(page->isRunning());
    QVERIFY(finished.wait(runTimeoutMs));
    QVERIFY(page->runner()->reports().value(0).grants > 0);
}

// "Running 1 client against …", not "1 clients". A window of its own, with its own settings file:
// its form values stay out of the other tests' windows.
void TestLoadTestPage::statusSaysOneClientInTheSingular() {
    auto w = std::make_unique<ui::LoadTestWindow>(redisConfig(QStringLiteral("one client")),
                                                  m_dir.filePath(QStringLiteral("one-client.ini")));
    w->resize(1500, 940);
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    ui::LoadTestPage *page = w->loadTestPage();
    ui::LoadTestForm *form = page->form();
    form->kindBox()->setCurrentIndex(form->kindBox()->findText(QStringLiteral("leased")));
    form->nameEdit()->clear();
    QTest::keyClicks(form->nameEdit(), QStringLiteral("gui:one-client"));
    typeInto(form->clientsBox(), QStringLiteral("1"));
    typeInto(form->durationBox(), QStringLiteral("1"));
    QSignalSpy finished(page->runner(), &model::LoadTestRunner::finished);
    QTest::mouseClick(page->startButton(), Qt::LeftButton);
    QVERIFY(page->isRunning());
    QVERIFY2(page->statusLabel()->text().startsWith(
                 QStringLiteral("Running 1 client against leased \"gui:one-client\" on one client")),
             qPrintable(page->statusLabel()->text()));
    QVERIFY(finished.wait(runTimeoutMs));
}

SEMSCOPE_TEST_MAIN(TestLoadTestPage)
#include "tst_loadtestpage.moc"
