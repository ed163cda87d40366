#include "UsageBarDelegate.h"

#include "model/SemaphoreHeaderText.h"
#include "model/SemaphoreListModel.h"
#include "model/StatusColors.h"

#include <QPainter>

namespace semscope::ui {

void UsageBarDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                             const QModelIndex &index) const {
    const QVariant used = index.data(model::SemaphoreListModel::UsedRole);
    const QVariant limit = index.data(model::SemaphoreListModel::LimitRole);
    if (used.isValid() && limit.isValid() && limit.toLongLong() > 0) {
        const double ratio = double(used.toLongLong()) / double(limit.toLongLong());
        // Tints of the view's base under its own text colour: legible on a dark theme too. The tone
        // is the page gauge's (model::usageTone); a full semaphore's tint is stronger than 80 %'s.
        using model::Tone;
        const QPalette &pal = option.palette;
        const Tone tone = model::usageTone(used.toLongLong(), limit.toLongLong());
        const double strength = tone == Tone::Bad       ? 1.8
                                : tone == Tone::Caution ? (ratio >= 1.0 ? 1.8 : 0.9)
                                                        : 1.4;
        const QColor color = model::toneBackground(tone, pal, strength);
        QRect bar = option.rect.adjusted(2, 3, -2, -3);
        painter->save();
        if (option.state & QStyle::State_Selected)
            painter->fillRect(option.rect, option.palette.highlight());
        painter->fillRect(bar, model::toneBackground(model::Tone::Muted, pal, 0.5));
        bar.setWidth(int(bar.width() * std::min(1.0, ratio)));
        painter->fillRect(bar, color);
        painter->restore();
        QStyleOptionViewItem opt = option;
        opt.state &= ~QStyle::State_Selected;
        opt.backgroundBrush = Qt::NoBrush;
        opt.displayAlignment = Qt::AlignCenter;
        QStyledItemDelegate::paint(painter, opt, index);
        return;
    }
    QStyledItemDelegate::paint(painter, option, index);
}

void UsageBarDelegate::initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const {
    QStyledItemDelegate::initStyleOption(option, index);
    // A kept semaphore's "empty since 23:10" in a narrow column keeps its time: "empty s…23:10".
    option->textElideMode = Qt::ElideMiddle;
}

} // namespace semscope::ui
