#include "TrainingPage.h"

#include "model/StatusColors.h"

#include "FailoverVerdictView.h"
#include "LoadTestExportButton.h"
#include "LoadTestRunView.h"
#include "core/Kind.h"
#include "model/FailoverTrainingRunner.h"
#include "model/LoadTestRunner.h"
#include "model/LoadTestStoreFactory.h"
#include "model/LoadTestWriteGuard.h"
#include "model/TrainingRunConfig.h"
#include "training/FailoverLostLock.h"
#include "training/ScenarioRuns.h"
#include "training/TrainingScenarios.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <cmath>

namespace semscope::ui {

TrainingPage::TrainingPage(const model::ConnectionConfig &config, QWidget *parent)
    : QWidget(parent)
    , m_config(config) {
    setObjectName(QStringLiteral("trainingPage"));
    m_runner = new model::LoadTestRunner(this);
    m_failover = new model::FailoverTrainingRunner(this);
    auto *layout = new QVBoxLayout(this);

    auto *bar = new QHBoxLayout;
    auto *pick = new QLabel(tr("&Scenario:"), this);
    m_scenario = new QComboBox(this);
    m_scenario->setObjectName(QStringLiteral("scenario"));
    for (const redis::TrainingScenario &s : redis::trainingScenarios())
        m_scenario->addItem(QStringLiteral("%1 — %2").arg(s.name, s.title), s.name);
    m_scenario->addItem(QStringLiteral("%1 — %2").arg(redis::FailoverLostLock::scenarioName(),
                                                      redis::FailoverLostLock::title()),
                        redis::FailoverLostLock::scenarioName());
    pick->setBuddy(m_scenario);
    // The longest title must not push Start/Stop/Export off a 1280-wide projector: the box shrinks
    // (the list still shows every title whole).
    m_scenario->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_scenario->setMinimumContentsLength(40);
    auto *forLabel = new QLabel(tr("&Run for"), this);
    m_duration = new QDoubleSpinBox(this);
    m_duration->setObjectName(QStringLiteral("trainingDuration"));
    m_duration->setRange(1.0, 600.0);
    m_duration->setDecimals(0);
    m_duration->setSuffix(tr(" s"));
    forLabel->setBuddy(m_duration);
    m_start = new QPushButton(tr("Start &both"), this);
    m_start->setObjectName(QStringLiteral("trainingStart"));
    m_start->setToolTip(tr("Run the unsafe design and the atomic kind side by side, with the same clients"));
    m_stop = new QPushButton(tr("S&top"), this);
    m_stop->setObjectName(QStringLiteral("trainingStop"));
    LoadTestExportButton::Source source;
    source.reports = [this] { return m_runner->reports(); };
    source.scenario = [this] { return m_running; };
    source.picture = [this]() -> QWidget * { return this; };
    source.baseName = QStringLiteral("semscope-training");
    m_export = new LoadTestExportButton(source, this);
    bar->addWidget(pick);
    bar->addWidget(m_scenario, 1);
    bar->addWidget(forLabel);
    bar->addWidget(m_duration);
    bar->addWidget(m_start);
    bar->addWidget(m_stop);
    bar->addWidget(m_export);
    layout->addLayout(bar);

    // Where the runs write. A private server is the default on every connection, production or not:
    // the scratch semaphores never show up in anyone's list, and nothing is asked to confirm.
    auto *targetRow = new QHBoxLayout;
    auto *onLabel = new QLabel(tr("Run &on:"), this);
    m_target = new QComboBox(this);
    m_target->setObjectName(QStringLiteral("trainingTarget"));
    m_target->addItem(tr("a private redis-server started for the run (stopped and removed after it)"),
                      int(Target::PrivateServer));
    if (hasConnection() && m_config.backend == core::Backend::Redis)
        m_target->addItem(tr("%1 [%2] (its scratch keys are deleted after the run)")
                              .arg(m_config.name, model::environmentName(m_config.environment)),
                          int(Target::Connection));
    m_target->setCurrentIndex(0);
    m_target->setToolTip(tr("The scenarios write two scratch semaphores, semscope-training:<scenario>-unsafe "
                            "and -atomic. Every key they make is deleted when the run ends, is stopped, "
                            "or semscope quits."));
    onLabel->setBuddy(m_target);
    targetRow->addWidget(onLabel);
    targetRow->addWidget(m_target);
    targetRow->addStretch(1);
    layout->addLayout(targetRow);
    connect(m_target, &QComboBox::currentIndexChanged, this, [this] {
        scenarioChanged();
        updateButtons();
    });

    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("scenarioTitle"));
    m_title->setTextFormat(Qt::PlainText);
    fitTitleFont();
    layout->addWidget(m_title);
    m_explanation = new QLabel(this);
    m_explanation->setObjectName(QStringLiteral("scenarioExplanation"));
    m_explanation->setTextFormat(Qt::PlainText);
    m_explanation->setWordWrap(true);
    m_explanation->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_explanation);
    m_setup = new QLabel(this);
    m_setup->setObjectName(QStringLiteral("scenarioSetup"));
    m_setup->setTextFormat(Qt::PlainText);
    m_setup->setWordWrap(true);
    m_setup->setStyleSheet(
        QStringLiteral("QLabel { color: %1; }").arg(model::toneText(model::Tone::Muted).name()));
    layout->addWidget(m_setup);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("trainingStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    m_results = new QStackedWidget(this);
    m_runColumns = new QWidget(m_results);
    auto *columns = new QHBoxLayout(m_runColumns);
    columns->setContentsMargins(0, 0, 0, 0);
    m_unsafe = new LoadTestRunView(LoadTestRunView::Arrangement::TableBelow, m_runColumns);
    m_unsafe->setObjectName(QStringLiteral("unsafeRun"));
    m_atomic = new LoadTestRunView(LoadTestRunView::Arrangement::TableBelow, m_runColumns);
    m_atomic->setObjectName(QStringLiteral("atomicRun"));
    columns->addWidget(m_unsafe, 1);
    columns->addWidget(m_atomic, 1);
    m_unsafe->pairWith(m_atomic);
    m_failoverView = new FailoverVerdictView(m_results);
    m_results->addWidget(m_runColumns);
    m_results->addWidget(m_failoverView);
    layout->addWidget(m_results, 1);

    connect(m_scenario, &QComboBox::currentIndexChanged, this, &TrainingPage::scenarioChanged);
    // Either choice decides where a run writes (writesToConnection()).
    connect(m_scenario, &QComboBox::currentIndexChanged, this, &TrainingPage::targetChanged);
    connect(m_target, &QComboBox::currentIndexChanged, this, &TrainingPage::targetChanged);
    connect(m_start, &QPushButton::clicked, this, &TrainingPage::start);
    connect(m_stop, &QPushButton::clicked, this, &TrainingPage::stop);
    connect(m_export, &LoadTestExportButton::exported, this,
            [this](const QString &message, bool ok) { setStatus(message, !ok); });
    connect(
        m_runner, &model::LoadTestRunner::progress, this,
        [this](int run, const core::LoadTestProgress &p) { (run == 0 ? m_unsafe : m_atomic)->addSample(p); });
    connect(m_runner, &model::LoadTestRunner::runFinished, this,
            [this](int run, const core::LoadTestReport &r) {
                (run == 0 ? m_unsafe : m_atomic)->finish(r);
                ++m_reports;
            });
    connect(m_runner, &model::LoadTestRunner::failed, this, [this](const QString &message) {
        m_failed = true;
        setStatus(tr("Not started: %1").arg(message), true);
        m_unsafe->showProblem(message);
        m_atomic->showProblem(message);
    });
    connect(m_runner, &model::LoadTestRunner::keysLeft, this, [this](const QString &message) {
        setStatus(message, true);
        m_status->setProperty("keysLeft", true);
    });
    connect(m_runner, &model::LoadTestRunner::finished, this, [this] {
        stopPrivateServer(); // its keys go with it
        if (m_status->property("keysLeft").toBool()) {
            // Said by keysLeft(): the one thing the trainer must act on.
        } else if (m_reports == 2) {
            setStatus(tr("Finished. Hover a figure in the tables for what it means; Export keeps both "
                         "reports; the run's keys are deleted."));
        } else if (m_reports == 0 && !m_failed) {
            // Stopped while the scratch semaphores were still being reset: nothing ran.
            setStatus(tr("Stopped before the runs began."));
            m_unsafe->showProblem(tr("Not run: stopped before it began"));
            m_atomic->showProblem(tr("Not run: stopped before it began"));
        }
        updateButtons();
        Q_EMIT runningChanged(false);
    });
    connect(m_failover, &model::FailoverTrainingRunner::step, this, [this](const QString &line) {
        m_failoverView->addStep(line);
        setStatus(line);
    });
    connect(
        m_failover, &model::FailoverTrainingRunner::finished, this,
        [this](const redis::FailoverLostLock::Report &report) {
            m_failoverView->showReport(report);
            if (report.cancelled)
                setStatus(tr("Stopped. Every process the run started has been stopped."));
            else if (!report.ok())
                setStatus(
                    tr("The run failed: %1").arg(report.naive.ok() ? report.safe.error : report.naive.error),
                    true);
            else if (report.showsTheLesson())
                setStatus(tr("Finished: the naive side admitted two holders at once, the "
                             "replica-acknowledged side none. Its processes are stopped."));
            else
                setStatus(tr("Finished, but the failover did not show the lesson this time: see "
                             "what happened on each side."),
                          true);
            updateButtons();
            Q_EMIT runningChanged(false);
        });
    scenarioChanged();
    updateButtons();
}

TrainingPage::~TrainingPage() = default;

QString TrainingPage::scratchName(const redis::TrainingScenario &scenario) {
    return QStringLiteral("semscope-training:") + scenario.name;
}

const redis::TrainingScenario *TrainingPage::scenario() const {
    return redis::findTrainingScenario(m_scenario->currentData().toString());
}

bool TrainingPage::isFailoverScenario() const {
    return m_scenario->currentData().toString() == redis::FailoverLostLock::scenarioName();
}

void TrainingPage::setScenario(const QString &name) {
    const int index = m_scenario->findData(name);
    if (index >= 0)
        m_scenario->setCurrentIndex(index);
}

bool TrainingPage::isRunning() const {
    return m_startingServer || m_runner->isRunning() || m_failover->isRunning();
}

void TrainingPage::scenarioChanged() {
    if (isFailoverScenario()) {
        m_title->setText(redis::FailoverLostLock::title());
        m_explanation->setText(redis::FailoverLostLock::explanation());
        const QString privately = tr(
            "for each side it starts its own master, replica and sentinel on free loopback ports and "
            "stops them after (a few seconds in all). The sequence is fixed, so every run shows the same.");
        m_setup->setText(
            hasConnection()
                ? tr("Needs no connection, and writes nothing to %1: %2").arg(m_config.name, privately)
                : tr("Needs no connection: %1").arg(privately));
        m_results->setCurrentWidget(m_failoverView);
        setStatus({});
        updateButtons();
        return;
    }
    m_results->setCurrentWidget(m_runColumns);
    // Every scenario can run on a private server: no connection needed (a Consul one included).
    setStatus({});
    updateButtons();
    const redis::TrainingScenario *s = scenario();
    if (!s)
        return;
    m_title->setText(s->title);
    m_explanation->setText(s->explanation);
    const core::LoadTestConfig c = model::trainingRunConfig(*s, s->defaults.durationMs);
    m_setup->setText(tr("Both sides: %1. Writes %2 and %3 on %4 (deleted before and after the run).")
                         .arg(model::describeTrainingRun(*s, c), redis::scenarioUnsafeName(c.ref.name),
                              redis::scenarioAtomicName(c.ref.name), targetName()));
    if (m_runner->isRunning())
        return;
    // The time in which the scenario is sure to show its flaw (the CLI's default too).
    m_duration->setValue(static_cast<double>(s->defaults.durationMs) / 1000.0);
    m_unsafe->setHeading(tr("Unsafe: %1 (%2)").arg(s->design, s->name));
    m_atomic->setHeading(tr("Atomic: semscope's %1 kind, same layout").arg(core::kindName(s->counterpart)));
}

void TrainingPage::setStatus(const QString &text, bool problem) {
    m_status->setText(text);
    m_status->setStyleSheet(problem ? QStringLiteral("QLabel { color: %1; font-weight: bold; }")
                                          .arg(model::toneText(model::Tone::Bad).name())
                                    : QString());
}

void TrainingPage::updateButtons() {
    const bool running = isRunning();
    const bool failover = isFailoverScenario();
    // A private server needs no connection; a connection must be a Redis one.
    m_start->setEnabled(!running && (failover || target() == Target::PrivateServer ||
                                     (hasConnection() && m_config.backend == core::Backend::Redis)));
    m_target->setEnabled(!running && !failover);
    m_stop->setEnabled(running);
    m_scenario->setEnabled(!running);
    m_duration->setEnabled(!running && !failover); // its sequence is fixed
    m_export->setEnabled(!running && !failover && m_reports == 2);
}

void TrainingPage::start() {
    if (isRunning())
        return;
    if (isFailoverScenario()) {
        launchFailover(); // its own private servers: nothing to guard on this connection
        return;
    }
    const redis::TrainingScenario *s = scenario();
    if (!s)
        return;
    if (target() == Target::PrivateServer) {
        launch(); // a server of its own: nothing shared to guard
        return;
    }
    const QString scratch = redis::scenarioUnsafeName(scratchName(*s)) + QStringLiteral(", ") +
                            redis::scenarioAtomicName(scratchName(*s));
    const model::LoadTestWriteCheck check = model::checkLoadTestWrites(m_config, scratch);
    if (check.verdict == model::LoadTestWriteCheck::Verdict::Refused) {
        setStatus(check.message, true);
        return;
    }
    if (check.verdict == model::LoadTestWriteCheck::Verdict::NeedsConfirmation) {
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Training run on production"), check.message,
                                    QMessageBox::Cancel, this);
        box->setObjectName(QStringLiteral("productionConfirm"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        QPushButton *go = box->addButton(tr("&Run on production"), QMessageBox::DestructiveRole);
        box->setDefaultButton(QMessageBox::Cancel);
        connect(box, &QMessageBox::buttonClicked, this, [this, go](QAbstractButton *clicked) {
            if (clicked == go)
                launch();
        });
        box->open();
        return;
    }
    launch();
}

void TrainingPage::launch() {
    if (isRunning() || !scenario())
        return;
    m_status->setProperty("keysLeft", false);
    if (target() == Target::PrivateServer) {
        startPrivateServer();
        return;
    }
    QString error;
    const auto settings = model::loadTestRedisSettings(m_config, &error);
    if (!settings) {
        setStatus(tr("Not started: %1").arg(error), true);
        return;
    }
    launchOn(*settings);
}

void TrainingPage::setPrivateRedisLauncher(PrivateRedisLauncher launcher) {
    m_launchPrivateServer = std::move(launcher);
}

void TrainingPage::startPrivateServer() {
    if (!m_launchPrivateServer) {
        // semscope always gives one (app/privateredis); a program built without it says why
        // nothing starts instead of waiting for a server that never comes.
        setStatus(tr("Not started: this program cannot start a private redis-server. Pick a connection "
                     "under Run on instead."),
                  true);
        return;
    }
    m_privateServer = m_launchPrivateServer();
    m_startingServer = true;
    connect(m_privateServer.get(), &PrivateRedisServer::ready, this, [this] {
        if (!m_startingServer || !m_privateServer)
            return; // a late word from a server already on its way out
        m_startingServer = false;
        redis::ConnectionSettings settings = m_privateServer->settings();
        settings.autoReconnect = true; // as on a connection (model::loadTestRedisSettings)
        launchOn(settings);
    });
    connect(m_privateServer.get(), &PrivateRedisServer::failed, this, [this](const QString &message) {
        m_startingServer = false;
        setStatus(tr("Not started: the private redis-server did not start: %1. Pick a connection under "
                     "Run on instead.")
                      .arg(message),
                  true);
        stopPrivateServer();
        updateButtons();
        Q_EMIT runningChanged(false);
    });
    setStatus(tr("Starting a private redis-server for the run…"));
    m_privateServer->start(QStringLiteral("the training redis-server"));
    updateButtons();
    Q_EMIT runningChanged(true);
}

void TrainingPage::stopPrivateServer() {
    // By its PID (PrivateRedisServer); its folder goes with it, and every key in it.
    // Later, not now: this may run inside one of its signals. What it says while it stops (its
    // log read to the end) is no news for this page.
    if (!m_privateServer)
        return;
    m_privateServer->disconnect(this);
    m_privateServer.release()->deleteLater();
}

bool TrainingPage::writesToConnection() const {
    return hasConnection() && !isFailoverScenario() && target() == Target::Connection;
}

TrainingPage::Target TrainingPage::target() const {
    return Target(m_target->currentData().toInt());
}

void TrainingPage::setTarget(Target target) {
    const int index = m_target->findData(int(target));
    if (index >= 0)
        m_target->setCurrentIndex(index);
}

QString TrainingPage::targetName() const {
    return target() == Target::PrivateServer ? tr("a private redis-server") : m_config.name;
}

void TrainingPage::launchOn(const redis::ConnectionSettings &settings) {
    const redis::TrainingScenario *s = scenario();
    if (m_runner->isRunning() || !s)
        return;
    const qint64 durationMs = std::llround(m_duration->value() * 1000.0);
    const core::LoadTestConfig base = model::trainingRunConfig(*s, durationMs);
    m_running = s;
    m_reports = 0;
    m_failed = false;
    m_unsafe->setAboutLeaks(s->showsLeak);
    m_atomic->setAboutLeaks(s->showsLeak);
    m_unsafe->setHeading(tr("Unsafe: %1 (%2)").arg(s->design, s->name));
    m_atomic->setHeading(tr("Atomic: semscope's %1 kind, same layout").arg(core::kindName(s->counterpart)));
    m_unsafe->begin(s->name, durationMs, base.limit);
    m_atomic->begin(core::kindName(s->counterpart), durationMs, base.limit);
    setStatus(tr("Running both for %1 s…").arg(durationMs / 1000.0));
    m_runner->startScenario(*s, base, settings);
    updateButtons();
    Q_EMIT runningChanged(true);
}

void TrainingPage::launchFailover() {
    m_failoverView->begin();
    setStatus(tr("Running both sides, one after the other …"));
    m_failover->start(QStringLiteral("semscope-training:") + redis::FailoverLostLock::scenarioName());
    updateButtons();
    Q_EMIT runningChanged(true);
}

void TrainingPage::stop() {
    if (m_failover->isRunning()) {
        setStatus(tr("Stopping: the run ends at its next step and stops the processes it started …"));
        m_failover->cancel();
        return;
    }
    if (m_startingServer) {
        m_startingServer = false;
        stopPrivateServer(); // by its PID, before any run wrote to it
        setStatus(tr("Stopped before the runs began."));
        updateButtons();
        Q_EMIT runningChanged(false);
        return;
    }
    if (!m_runner->isRunning())
        return;
    setStatus(tr("Stopping both runs (their keys are deleted after)…"));
    m_runner->cancel();
}

void TrainingPage::fitTitleFont() {
    // A size of its own stops the title following the page's font: set again from it at each change
    // (View > Zoom), so the title stays a third larger than the text around it.
    QFont titleFont = font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.3);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
}

void TrainingPage::changeEvent(QEvent *event) {
    if (event->type() == QEvent::FontChange && m_title)
        fitTitleFont();
    QWidget::changeEvent(event);
}

} // namespace semscope::ui
