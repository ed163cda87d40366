#pragma once

#include <QLabel>
#include <QString>
#include <QWidget>

namespace semscope::test {

// A line of the holder card (ui/HolderDetailCard) that is not shown whole: a label lower than its
// text wrapped at the label's width. Empty when every visible line is whole.
inline QString cutCardLine(const QWidget *card) {
    if (!card)
        return QStringLiteral("no holder card");
    for (const QLabel *label : card->findChildren<QLabel *>()) {
        if (label->isVisible() && label->hasHeightForWidth() &&
            label->height() < label->heightForWidth(label->width()))
            return QStringLiteral("\"%1\" is %2 px high, its text needs %3")
                .arg(label->text().left(30))
                .arg(label->height())
                .arg(label->heightForWidth(label->width()));
    }
    return {};
}

} // namespace semscope::test
