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

} // namespace semscope::test
