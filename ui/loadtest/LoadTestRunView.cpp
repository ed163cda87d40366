#include "LoadTestRunView.h"

#include "model/StatusColors.h"

#include "LoadTestCharts.h"
#include "LoadTestSummaryTable.h"
#include "model/LoadTestSummaryModel.h"
#include "model/LoadTestVerdict.h"

#include <QBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>

namespace semscope::ui {

LoadTestRunView::LoadTestRunView(Arrangement arrangement, QWidget *parent)
    : QWidget(parent) {
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_heading = new QLabel(this);
    m_heading->setObjectName(QStringLiteral("runHeading"));
    m_heading->setWordWrap(true);
    m_heading->hide();
    layout->addWidget(m_heading);
    m_verdict = new QLabel(tr("Not run yet"), this);
    m_verdict->setObjectName(QStringLiteral("verdict"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_verdict);

    m_charts = new LoadTestCharts(this);
    m_model = new model::LoadTestSummaryModel(this);
    m_table = new LoadTestSummaryTable(m_model, this);
    if (arrangement == Arrangement::TableBeside) {
        auto *row = new QHBoxLayout;
        row->addWidget(m_charts, 3);
        row->addWidget(m_table, 1);
        layout->addLayout(row, 1);
    } else {
        // Charts over the table, the line between them movable: on a low screen the table scrolls
        // rather than pushing the window taller than the screen.
        auto *split = new QSplitter(Qt::Vertical, this);
        split->setObjectName(QStringLiteral("chartsAndSummary"));
        split->setChildrenCollapsible(false);
        split->addWidget(m_charts);
        split->addWidget(m_table);
        split->setStretchFactor(0, 1);
        split->setStretchFactor(1, 0);
        m_table->setMinimumHeight(4 * m_table->verticalHeader()->defaultSectionSize()); // header + 3 rows
        // The charts tell the story (the verdict above says the figures that matter most): the
        // table asks for a few rows, not all, so that two runs and their charts fit a screen.
        m_table->setRowsWanted(6);
        layout->addWidget(split, 1);
    }
    setVerdict(m_verdict->text(), int(model::LoadTestVerdict::Tone::Neutral));
}

void LoadTestRunView::setHeading(const QString &heading) {
    m_heading->setText(QStringLiteral("<b>%1</b>").arg(heading.toHtmlEscaped()));
    m_heading->setVisible(!heading.isEmpty());
}

void LoadTestRunView::setVerdict(const QString &text, int tone) {
    // Neutral: the palette's own text on a tint of its base (a dark theme too); good and bad are
    // strong fills under white text, legible on either.
    QString color = palette().color(QPalette::Text).name();
    QString background = model::toneBackground(model::Tone::Muted, palette()).name();
    switch (model::LoadTestVerdict::Tone(tone)) {
    case model::LoadTestVerdict::Tone::Good:
        color = QStringLiteral("#ffffff");
        background = QStringLiteral("#2e7d32");
        break;
    case model::LoadTestVerdict::Tone::Bad:
        color = QStringLiteral("#ffffff");
        background = QStringLiteral("#c62828");
        break;
    case model::LoadTestVerdict::Tone::Neutral:
        break;
    }
    m_verdict->setText(text);
    m_verdict->setStyleSheet(
        QStringLiteral("QLabel { color: %1; background: %2; font-weight: bold; padding: 6px; "
                       "border-radius: 4px; }")
            .arg(color, background));
}

void LoadTestRunView::begin(const QString &label, qint64 plannedMs, int limit) {
    m_label = label;
    m_model->setRuns({label});
    m_charts->reset(plannedMs, limit);
    setVerdict(tr("%1: starting…").arg(label), int(model::LoadTestVerdict::Tone::Neutral));
}

void LoadTestRunView::addSample(const core::LoadTestProgress &sample) {
    m_model->setProgress(0, sample);
    m_charts->addSample(sample);
    const model::LoadTestVerdict v = model::liveVerdict(m_label, sample, m_aboutLeaks);
    setVerdict(v.text, int(v.tone));
}

void LoadTestRunView::finish(const core::LoadTestReport &report) {
    m_model->setReport(0, report);
    m_charts->showReport(report);
    const model::LoadTestVerdict v = model::finalVerdict(report, m_aboutLeaks);
    setVerdict(v.text, int(v.tone));
    m_verdict->setToolTip(report.summaryText());
}

void LoadTestRunView::showProblem(const QString &message) {
    setVerdict(message, int(model::LoadTestVerdict::Tone::Bad));
}

} // namespace semscope::ui
