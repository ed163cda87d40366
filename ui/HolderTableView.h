#pragma once

#include <QTableView>

namespace semscope::ui {

class SpareWidthKeeper;

// The holder table. Between reads only time moves, so the countdown repaints just the columns that
// depend on it (age, TTL, state) instead of the whole viewport: with text shaping per cell, that
// is about a quarter of the work on every tick.
class HolderTableView : public QTableView {
    Q_OBJECT
public:
    explicit HolderTableView(QWidget *parent = nullptr);

    void setModel(QAbstractItemModel *model) override;

    // Schedules a repaint of the visible cells whose text moves with the clock.
    void updateTimeColumns();
    // After columns were shown or hidden: room left over goes to the holder and its details.
    void refitColumns();
    // Another semaphore's holders: columns grown for the previous one shrink back first.
    void restartColumnFit();

Q_SIGNALS:
    // Delete (the force-release key) pressed while the force-release action could not take it:
    // nothing selected, or a read-only connection. The page says why, instead of nothing happening.
    void deleteRefused();

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    SpareWidthKeeper *m_spareWidth;
};

} // namespace semscope::ui
