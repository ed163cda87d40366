#pragma once

#include <QTableView>

namespace semscope::ui {

// The holder table. Between reads only time moves, so the countdown repaints just the columns that
// depend on it (age, TTL, state) instead of the whole viewport: with text shaping per cell, that
// is about a quarter of the work on every tick.
class HolderTableView : public QTableView {
    Q_OBJECT
public:
    explicit HolderTableView(QWidget *parent = nullptr);

    // Schedules a repaint of the visible cells whose text moves with the clock.
    void updateTimeColumns();
};

} // namespace semscope::ui
