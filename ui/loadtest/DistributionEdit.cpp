#include "DistributionEdit.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <cmath>

namespace semscope::ui {

namespace {
constexpr double nsPerMs = 1e6;

QDoubleSpinBox *msBox(QWidget *parent) {
    auto *box = new QDoubleSpinBox(parent);
    box->setRange(0.0, 600'000.0);
    box->setDecimals(1);
    box->setSuffix(QStringLiteral(" ms"));
    return box;
}

qint64 toNs(double ms) {
    return static_cast<qint64>(std::llround(ms * nsPerMs));
}
} // namespace

DistributionEdit::DistributionEdit(QWidget *parent)
    : QWidget(parent) {
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_shape = new QComboBox(this);
    m_shape->addItem(tr("fixed"), int(core::Distribution::Shape::Fixed));
    m_shape->addItem(tr("uniform"), int(core::Distribution::Shape::Uniform));
    m_shape->addItem(tr("exponential, mean"), int(core::Distribution::Shape::Exponential));
    m_shape->setToolTip(tr("fixed: always this long · uniform: anywhere between the two · exponential: "
                           "random with this mean, mostly short and now and then long"));
    m_first = msBox(this);
    m_dots = new QLabel(QStringLiteral("…"), this);
    m_second = msBox(this);
    layout->addWidget(m_shape);
    layout->addWidget(m_first, 1);
    layout->addWidget(m_dots);
    layout->addWidget(m_second, 1);
    connect(m_shape, &QComboBox::currentIndexChanged, this, &DistributionEdit::shapeChanged);
    shapeChanged();
}

void DistributionEdit::shapeChanged() {
    const bool range = m_shape->currentData().toInt() == int(core::Distribution::Shape::Uniform);
    m_dots->setVisible(range);
    m_second->setVisible(range);
}

core::Distribution DistributionEdit::distribution() const {
    switch (core::Distribution::Shape(m_shape->currentData().toInt())) {
    case core::Distribution::Shape::Uniform: {
        const qint64 a = toNs(m_first->value());
        const qint64 b = toNs(m_second->value());
        return core::Distribution::uniform(std::min(a, b), std::max(a, b));
    }
    case core::Distribution::Shape::Exponential:
        return core::Distribution::exponential(toNs(m_first->value()));
    case core::Distribution::Shape::Fixed:
        break;
    }
    return core::Distribution::fixed(toNs(m_first->value()));
}

void DistributionEdit::setDistribution(const core::Distribution &d) {
    m_shape->setCurrentIndex(m_shape->findData(int(d.shape())));
    m_first->setValue(static_cast<double>(d.lowNs()) / nsPerMs);
    m_second->setValue(
        static_cast<double>(d.shape() == core::Distribution::Shape::Uniform ? d.highNs() : d.lowNs()) /
        nsPerMs);
    shapeChanged();
}

} // namespace semscope::ui
