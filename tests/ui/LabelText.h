#pragma once

#include <QLabel>
#include <QTextDocument>

namespace semscope::test {

// What a rich-text label shows, as plain text: what the operator reads, without the markup.
inline QString shownText(const QLabel *label) {
    QTextDocument doc;
    doc.setHtml(label->text());
    return doc.toPlainText();
}

// What any label shows: its text as rich text when Qt takes it for that (RichText, or AutoText that
// looks like markup), else as it is. A label in AutoText shows "a&amp;b" to the letter.
inline QString displayedText(const QLabel *label) {
    const bool rich = label->textFormat() == Qt::RichText ||
                      (label->textFormat() == Qt::AutoText && Qt::mightBeRichText(label->text()));
    return rich ? shownText(label) : label->text();
}

} // namespace semscope::test
