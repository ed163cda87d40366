#pragma once

#include <QLabel>

namespace semscope::ui {

// A one-line label that shows as much of its text as fits, cut in the middle ("demo:lo…igrations"),
// so both ends of a long semaphore or node name stay readable; the tooltip has the whole text. A
// plain QLabel cuts at the right edge without a mark, and "demo:lock-" reads as a whole name.
// It asks a layout for the whole text's width and settles for a few characters: beside a stretch
// or other controls it shows the whole name whenever the row has room for it, and is cut only
// when the row really lacks room (at 130 % zoom "dem…ers" was shown beside empty space).
class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget *parent = nullptr);

    void setFullText(const QString &text);
    const QString &fullText() const { return m_full; }
    // True while the text shown is shortened.
    bool isElided() const { return text() != m_full; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void elide();
    int chromeWidth() const; // frame, contents margins, margin and indent around the text

    QString m_full;
};

} // namespace semscope::ui
