#pragma once

class QChartView;

namespace semscope::ui {

// QtCharts draws with its own light theme: a white chart inside a dark window, and fonts that
// ignore View > Zoom. This gives the view's chart the widget's palette (background, title, labels,
// grid) and font, now and whenever either changes (a theme switch, a zoom).
void followPaletteAndFont(QChartView *view);

} // namespace semscope::ui
