#include "ChartStyle.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QLegend>

namespace semscope::ui {

namespace {
QColor mix(const QColor &a, const QColor &b, double t) {
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                            float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

void applyStyle(QChartView *view) {
    QChart *chart = view->chart();
    if (!chart)
        return;
    const QPalette &p = view->palette();
    const QColor base = p.color(QPalette::Base);
    const QColor text = p.color(QPalette::Text);
    chart->setBackgroundBrush(base);
    chart->setBackgroundPen(Qt::NoPen);
    chart->setPlotAreaBackgroundVisible(false);
    QFont title = view->font();
    title.setBold(true);
    chart->setTitleFont(title);
    chart->setTitleBrush(text);
    chart->legend()->setFont(view->font());
    chart->legend()->setLabelColor(text);
    QFont small = view->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    for (QAbstractAxis *axis : chart->axes()) {
        axis->setLabelsFont(small);
        axis->setLabelsColor(text);
        axis->setTitleFont(small);
        axis->setTitleBrush(text);
        axis->setLinePenColor(mix(base, text, 0.5));
        axis->setGridLineColor(mix(base, text, 0.18));
    }
}

class ChartStyleFollower : public QObject {
public:
    explicit ChartStyleFollower(QChartView *view)
        : QObject(view)
        , m_view(view) {
        view->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override {
        const QEvent::Type t = event->type();
        if (watched == m_view && (t == QEvent::FontChange || t == QEvent::PaletteChange ||
                                  t == QEvent::ApplicationPaletteChange || t == QEvent::StyleChange)) {
            // After the change has reached the chart: the scene hands the palette on to it and
            // QtCharts then repaints with its theme, which would undo a style applied right now.
            QMetaObject::invokeMethod(
                this, [this] { applyStyle(m_view); }, Qt::QueuedConnection);
        }
        return false;
    }

private:
    QChartView *m_view;
};
} // namespace

void followPaletteAndFont(QChartView *view) {
    applyStyle(view);
    new ChartStyleFollower(view);
}

} // namespace semscope::ui
