#include "LoadTestRunView.h"

#include "model/StatusColors.h"

#include "LoadTestCharts.h"
#include "LoadTestSummaryTable.h"
#include "model/LoadTestSummaryModel.h"
#include "model/LoadTestVerdict.h"

#include <QBoxLayout>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QResizeEvent>
#include <QScrollBar>
#include <QSplitter>

namespace semscope::ui {

LoadTestRunView::LoadTestRunView(Arrangement arrangement, QWidget *parent)
    : QWidget(parent) {
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_heading = new QLabel(this);
    m_heading->setObjectName(QStringLiteral("runHeading"));
    m_heading->setWordWrap(true);
    m_heading->setAlignment(Qt::AlignLeft | Qt::AlignTop); // level with the partner's first line
    m_heading->hide();
    layout->addWidget(m_heading);
    m_verdict = new QLabel(tr("Not run yet"), this);
    m_verdict->setObjectName(QStringLiteral("verdict"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Bold through the font, not the style sheet: a font set by a style sheet is fixed, and the
    // banner would stay small under View > Zoom while everything around it grows. Only the weight
    // is set here; the size follows the application's.
    QFont bold;
    bold.setBold(true);
    m_verdict->setFont(bold);
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
        // Side by side with another run (training), the holders' chart comes first: it shows the
        // damage, and it must not be the one pushed out of view on a low or zoomed screen.
        m_charts->putHoldersFirst();
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

void LoadTestRunView::pairWith(LoadTestRunView *other) {
    if (!other || other == this)
        return;
    m_charts->shareScalesWith(other->m_charts);
    m_partner = other;
    other->m_partner = this;
    QScrollBar *mine = m_table->verticalScrollBar();
    QScrollBar *theirs = other->m_table->verticalScrollBar();
    // setValue() of the value a bar already has emits nothing: no ping-pong.
    connect(mine, &QScrollBar::valueChanged, theirs, &QScrollBar::setValue);
    connect(theirs, &QScrollBar::valueChanged, mine, &QScrollBar::setValue);
}

void LoadTestRunView::setHeading(const QString &heading) {
    m_headingText = heading;
    m_heading->setText(QStringLiteral("<b>%1</b>").arg(heading.toHtmlEscaped()));
    m_heading->setVisible(!heading.isEmpty());
    alignWithPartner();
}

void LoadTestRunView::alignWithPartner() {
    if (!m_partner || m_alignQueued)
        return;
    // Once the layouts have given the labels their widths: a resize reaches this view before its
    // children are laid out again.
    m_alignQueued = true;
    QMetaObject::invokeMethod(this, &LoadTestRunView::alignNow, Qt::QueuedConnection);
}

void LoadTestRunView::alignNow() {
    m_alignQueued = false;
    if (!m_partner)
        return;
    // Measured from the text and the label's width (both are bold, the verdict has 6 px of
    // padding). Not QLabel::heightForWidth(): it counts the minimum height set here.
    const auto wanted = [](QLabel *label, const QString &text, int padding) {
        if (label->isHidden() || text.isEmpty())
            return 0;
        QFont bold = label->font();
        bold.setBold(true);
        const QFontMetrics fm(bold);
        // A few characters' slack: QLabel wraps a line that nearly fills its width a little early.
        const int width = std::max(1, label->width() - 2 * padding - 4 * fm.averageCharWidth());
        const QRect box = fm.boundingRect(QRect(0, 0, width, 1 << 20), Qt::TextWordWrap, text);
        return box.height() + 2 * padding + 2;
    };
    const int heading = std::max(wanted(m_heading, m_headingText, 0),
                                 wanted(m_partner->m_heading, m_partner->m_headingText, 0));
    const int verdict = std::max(wanted(m_verdict, m_verdict->text(), 6),
                                 wanted(m_partner->m_verdict, m_partner->m_verdict->text(), 6));
    for (LoadTestRunView *view : {this, m_partner.data()}) {
        view->m_heading->setMinimumHeight(view->m_heading->isHidden() ? 0 : heading);
        view->m_verdict->setMinimumHeight(verdict);
    }
}

void LoadTestRunView::resizeEvent(QResizeEvent *event) {
    QWidget::resizeEvent(event);
    alignWithPartner();
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
    m_tone = tone;
    m_verdict->setText(text);
    m_verdict->setStyleSheet(
        QStringLiteral("QLabel { color: %1; background: %2; padding: 6px; border-radius: 4px; }")
            .arg(color, background));
    alignWithPartner();
}

void LoadTestRunView::changeEvent(QEvent *event) {
    if (event->type() == QEvent::FontChange && m_verdict) {
        // A widget with a style sheet keeps the font it had when the sheet was applied: apply it
        // again, so that the banner grows with View > Zoom like the text around it.
        m_verdict->setStyleSheet(QString());
        setVerdict(m_verdict->text(), m_tone);
    }
    QWidget::changeEvent(event);
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
