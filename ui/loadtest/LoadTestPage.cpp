#include "LoadTestPage.h"

#include "model/StatusColors.h"

#include "LoadTestExportButton.h"
#include "LoadTestForm.h"
#include "LoadTestRunView.h"
#include "core/CountText.h"
#include "core/Kind.h"
#include "model/LoadTestRunner.h"
#include "model/LoadTestStoreFactory.h"
#include "model/LoadTestWriteGuard.h"
#include "ui/WindowSettings.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace semscope::ui {

LoadTestPage::LoadTestPage(const model::ConnectionConfig &config, const QString &settingsFile,
                           QWidget *parent)
    : QWidget(parent)
    , m_config(config)
    , m_settingsFile(settingsFile) {
    setObjectName(QStringLiteral("loadTestPage"));
    m_runner = new model::LoadTestRunner(this);

    auto *layout = new QHBoxLayout(this);
    auto *left = new QVBoxLayout;
    m_form = new LoadTestForm(this);
    m_form->setBackend(config.backend);
    {
        auto settings = openWindowSettings(settingsFile);
        settings->beginGroup(QStringLiteral("loadtest/form"));
        m_form->restore(*settings);
    }
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(m_form);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumWidth(m_form->sizeHint().width() + 20);
    left->addWidget(scroll, 1);

    auto *buttons = new QHBoxLayout;
    m_start = new QPushButton(tr("&Start"), this);
    m_start->setObjectName(QStringLiteral("startButton"));
    m_start->setDefault(true);
    m_start->setToolTip(tr("Run the load test with these parameters (its clients write to the semaphore)"));
    m_stop = new QPushButton(tr("Sto&p"), this);
    m_stop->setObjectName(QStringLiteral("stopButton"));
    m_stop->setToolTip(tr("End the run now; the clients release what they hold and the report follows"));
    LoadTestExportButton::Source source;
    source.reports = [this] { return m_runner->reports(); };
    source.scenario = [] { return nullptr; };
    source.picture = [this]() -> QWidget * { return m_view; };
    source.baseName = QStringLiteral("semscope-loadtest");
    m_export = new LoadTestExportButton(source, this);
    buttons->addWidget(m_start);
    buttons->addWidget(m_stop);
    buttons->addStretch(1);
    buttons->addWidget(m_export);
    left->addLayout(buttons);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("loadTestStatus"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    left->addWidget(m_status);
    layout->addLayout(left);

    m_view = new LoadTestRunView(LoadTestRunView::Arrangement::TableBeside, this);
    layout->addWidget(m_view, 1);

    connect(m_start, &QPushButton::clicked, this, &LoadTestPage::start);
    connect(m_stop, &QPushButton::clicked, this, &LoadTestPage::stop);
    connect(m_export, &LoadTestExportButton::exported, this,
            [this](const QString &message, bool ok) { setStatus(message, !ok); });
    connect(m_runner, &model::LoadTestRunner::progress, this,
            [this](int, const core::LoadTestProgress &p) { m_view->addSample(p); });
    connect(m_runner, &model::LoadTestRunner::runFinished, this, [this](int, const core::LoadTestReport &r) {
        m_view->finish(r);
        m_haveReport = true;
        if (!r.ok)
            setStatus(tr("The run failed: %1").arg(r.error), true);
        else
            setStatus(
                r.cancelled
                    ? tr("Stopped after %1 s.").arg(r.elapsedMs / 1000.0, 0, 'f', 1)
                    : tr("Finished: %1 grants in %2 s.").arg(r.grants).arg(r.elapsedMs / 1000.0, 0, 'f', 1));
    });
    connect(m_runner, &model::LoadTestRunner::finished, this, [this] {
        updateButtons();
        Q_EMIT runningChanged(false);
    });
    m_status->setText(tr("Runs against %1 (%2).").arg(config.name, config.endpoint()));
    updateButtons();
}

LoadTestPage::~LoadTestPage() = default;

bool LoadTestPage::isRunning() const {
    return m_runner->isRunning();
}

void LoadTestPage::prefill(const core::SemaphoreRef &ref) {
    m_form->prefill(ref);
}

void LoadTestPage::setStatus(const QString &text, bool problem) {
    m_status->setText(text);
    m_status->setStyleSheet(problem ? QStringLiteral("QLabel { color: %1; font-weight: bold; }")
                                          .arg(model::toneText(model::Tone::Bad).name())
                                    : QString());
}

void LoadTestPage::updateButtons() {
    const bool running = m_runner->isRunning();
    m_start->setEnabled(!running);
    m_stop->setEnabled(running);
    m_form->setEnabled(!running);
    m_export->setEnabled(!running && m_haveReport);
}

void LoadTestPage::start() {
    if (m_runner->isRunning())
        return;
    if (const QString problem = m_form->problem(); !problem.isEmpty()) {
        setStatus(tr("Not started: %1").arg(problem), true);
        return;
    }
    const core::LoadTestConfig config = m_form->config();
    const QString what = QStringLiteral("%1 \"%2\"").arg(core::kindName(config.ref.kind), config.ref.name);
    const model::LoadTestWriteCheck check = model::checkLoadTestWrites(m_config, what);
    if (check.verdict == model::LoadTestWriteCheck::Verdict::Refused) {
        setStatus(check.message, true);
        m_view->showProblem(tr("Refused: read-only connection"));
        return;
    }
    if (check.verdict == model::LoadTestWriteCheck::Verdict::NeedsConfirmation) {
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Load test on production"), check.message,
                                    QMessageBox::Cancel, this);
        box->setObjectName(QStringLiteral("productionConfirm"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        QPushButton *go = box->addButton(tr("&Run on production"), QMessageBox::DestructiveRole);
        box->setDefaultButton(QMessageBox::Cancel);
        connect(box, &QMessageBox::buttonClicked, this, [this, go](QAbstractButton *clicked) {
            if (clicked == go)
                launch();
            else
                setStatus(tr("Not started."));
        });
        box->open();
        return;
    }
    launch();
}

void LoadTestPage::launch() {
    if (m_runner->isRunning())
        return;
    QString error;
    const auto factory = model::loadTestStoreFactory(m_config, &error);
    if (!factory) {
        setStatus(tr("Not started: %1").arg(error), true);
        return;
    }
    {
        auto settings = openWindowSettings(m_settingsFile);
        settings->beginGroup(QStringLiteral("loadtest/form"));
        m_form->save(*settings);
    }
    redis::PlannedRun run;
    run.config = m_form->config();
    run.label = core::kindName(run.config.ref.kind);
    run.factory = *factory;
    m_haveReport = false;
    m_view->begin(run.label, run.config.ops > 0 ? 0 : run.config.durationMs, run.config.limit);
    setStatus(tr("Running %1 against %2 \"%3\" on %4…")
                  .arg(core::countText(run.config.clients, tr("client"), tr("clients")), run.label,
                       run.config.ref.name, m_config.name));
    m_runner->start({run});
    updateButtons();
    Q_EMIT runningChanged(true);
}

void LoadTestPage::stop() {
    if (!m_runner->isRunning())
        return;
    setStatus(tr("Stopping: clients release what they hold…"));
    m_runner->cancel();
}

} // namespace semscope::ui
