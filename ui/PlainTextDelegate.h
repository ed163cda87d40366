#pragma once

#include <QFont>
#include <QHash>
#include <QStaticText>
#include <QStyledItemDelegate>
#include <optional>

namespace semscope::ui {

// Paints a cell's single line of text with QPainter::drawText instead of the style's QTextLayout
// (which lays out every cell as rich paragraph text): the holder table repaints ~400 cells per
// read and twice a second between reads, and the text layout was a third of a refresh's cost.
// Background, selection, colours and alignment still come from the model and the style.
// The shaped text of each string is kept (QStaticText): most cells show the same holder ids and
// numbers read after read, and shaping them again was most of what a repaint cost.
class PlainTextDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;

    // Where a cell of `column` too narrow for its text is cut (the view's mode by default): a
    // fencing token's last digits are what tell one holder's from the next, a holder id's two ends
    // its worker and its host.
    void setElideMode(int column, Qt::TextElideMode mode) { m_elideModes.insert(column, mode); }
    std::optional<Qt::TextElideMode> elideMode(int column) const;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;

private:
    const QStaticText *shaped(const QString &text, const QFont &font) const;

    QHash<int, Qt::TextElideMode> m_elideModes;
    mutable QHash<QString, QStaticText> m_shaped;
    mutable QFont m_shapedFont;
};

} // namespace semscope::ui
