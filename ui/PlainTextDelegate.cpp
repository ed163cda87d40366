#include "PlainTextDelegate.h"

#include <QApplication>
#include <QPainter>

namespace semscope::ui {

namespace {
// Enough for every visible cell of a large table several times over; emptied when full, so the
// strings of countdowns long gone do not pile up.
constexpr qsizetype kMaxShaped = 4096;

// Whether the cell's panel is what QCommonStyle draws (Fusion and Windows do not draw their own):
// a fill with the selection or the cell's background brush, then the focus frame.
bool plainPanel(const QStyle *style) {
    if (style->inherits("QStyleSheetStyle"))
        return false;
    const QString name = style->name();
    return name.compare(QLatin1String("fusion"), Qt::CaseInsensitive) == 0 ||
           name.compare(QLatin1String("windows"), Qt::CaseInsensitive) == 0;
}

// What QCommonStyle's CE_ItemViewItem paints for a cell without check box, icon or text,
// without its per-cell layout of those three (most of its cost).
void drawPanel(QPainter *painter, const QStyleOptionViewItem &opt, const QStyle *style,
               const QWidget *widget) {
    QPalette::ColorGroup group = (widget ? widget->isEnabled() : bool(opt.state & QStyle::State_Enabled))
                                     ? QPalette::Normal
                                     : QPalette::Disabled;
    if (group == QPalette::Normal && !(opt.state & QStyle::State_Active))
        group = QPalette::Inactive;
    if ((opt.state & QStyle::State_Selected) &&
        style->styleHint(QStyle::SH_ItemView_ShowDecorationSelected, &opt, widget)) {
        painter->fillRect(opt.rect, opt.palette.brush(group, QPalette::Highlight));
    } else if (opt.backgroundBrush.style() != Qt::NoBrush) {
        const QPointF origin = painter->brushOrigin();
        painter->setBrushOrigin(opt.rect.topLeft());
        painter->fillRect(opt.rect, opt.backgroundBrush);
        painter->setBrushOrigin(origin);
    }
    if (opt.state & QStyle::State_Selected)
        painter->fillRect(style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget),
                          opt.palette.brush(group, QPalette::Highlight));
    if (opt.state & QStyle::State_HasFocus) {
        QStyleOptionFocusRect focus;
        focus.QStyleOption::operator=(opt);
        focus.rect = style->subElementRect(QStyle::SE_ItemViewItemFocusRect, &opt, widget);
        focus.state |= QStyle::State_KeyboardFocusChange | QStyle::State_Item;
        focus.backgroundColor = opt.palette.color(
            group, opt.state & QStyle::State_Selected ? QPalette::Highlight : QPalette::Window);
        style->drawPrimitive(QStyle::PE_FrameFocusRect, &focus, painter, widget);
    }
}
} // namespace

const QStaticText *PlainTextDelegate::shaped(const QString &text, const QFont &font) const {
    if (!font.isCopyOf(m_shapedFont) && font != m_shapedFont) {
        m_shaped.clear();
        m_shapedFont = font;
    }
    auto it = m_shaped.find(text);
    if (it == m_shaped.end()) {
        if (m_shaped.size() >= kMaxShaped)
            m_shaped.clear();
        QStaticText staticText(text);
        staticText.setTextFormat(Qt::PlainText);
        staticText.setPerformanceHint(QStaticText::AggressiveCaching);
        staticText.prepare(QTransform(), font);
        it = m_shaped.insert(text, staticText);
    }
    return &it.value();
}

std::optional<Qt::TextElideMode> PlainTextDelegate::elideMode(int column) const {
    const auto it = m_elideModes.constFind(column);
    return it == m_elideModes.cend() ? std::nullopt : std::optional<Qt::TextElideMode>(*it);
}

void PlainTextDelegate::initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const {
    QStyledItemDelegate::initStyleOption(option, index);
    if (const auto mode = elideMode(index.column()))
        option->textElideMode = *mode;
}

void PlainTextDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                              const QModelIndex &index) const {
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear();
    const QWidget *widget = opt.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    const bool plain =
        !(opt.features & (QStyleOptionViewItem::HasCheckIndicator | QStyleOptionViewItem::HasDecoration));
    if (plain && plainPanel(style))
        drawPanel(painter, opt, style, widget);
    else
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget); // background, selection, focus
    if (text.isEmpty())
        return;
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
    const QRect rect =
        style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget).adjusted(margin, 0, -margin, 0);
    const QPalette::ColorGroup group =
        opt.state & QStyle::State_Enabled ? QPalette::Normal : QPalette::Disabled;
    painter->save();
    painter->setFont(opt.font);
    painter->setPen(opt.palette.color(group, opt.state & QStyle::State_Selected ? QPalette::HighlightedText
                                                                                : QPalette::Text));
    const QStaticText *line = painter->transform().isIdentity() || painter->transform().isTranslating()
                                  ? shaped(text, opt.font)
                                  : nullptr;
    const QSizeF size = line ? line->size() : QSizeF();
    if (line && size.width() <= rect.width() && !text.contains(QLatin1Char('\n'))) {
        // Fits: place the shaped line as drawText would (same alignment within the rect).
        const Qt::Alignment align = QStyle::visualAlignment(opt.direction, opt.displayAlignment);
        qreal x = rect.left();
        if (align & Qt::AlignRight)
            x = rect.left() + rect.width() - size.width();
        else if (align & Qt::AlignHCenter)
            x = rect.left() + (rect.width() - size.width()) / 2;
        qreal y = rect.top();
        if (align & Qt::AlignBottom)
            y = rect.top() + rect.height() - size.height();
        else if (align & Qt::AlignVCenter)
            y = rect.top() + (rect.height() - size.height()) / 2;
        painter->drawStaticText(QPointF(x, y), *line);
    } else {
        painter->drawText(rect, int(opt.displayAlignment) | Qt::TextSingleLine,
                          opt.fontMetrics.elidedText(text, opt.textElideMode, rect.width()));
    }
    painter->restore();
}

} // namespace semscope::ui
