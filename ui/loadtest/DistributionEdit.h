#pragma once

#include "core/loadtest/Distribution.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;

namespace semscope::ui {

// Edits a load-test delay (hold time, think time): fixed, uniform between two values, or
// exponential with a mean, in milliseconds.
class DistributionEdit : public QWidget {
    Q_OBJECT
public:
    explicit DistributionEdit(QWidget *parent = nullptr);

    core::Distribution distribution() const;
    void setDistribution(const core::Distribution &distribution);

    QComboBox *shapeBox() const { return m_shape; }
    QDoubleSpinBox *firstBox() const { return m_first; }
    QDoubleSpinBox *secondBox() const { return m_second; }

private:
    void shapeChanged();

    QComboBox *m_shape = nullptr;
    QDoubleSpinBox *m_first = nullptr;
    QLabel *m_dots = nullptr;
    QDoubleSpinBox *m_second = nullptr;
};

} // namespace semscope::ui
