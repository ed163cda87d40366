#pragma once

#include <QLabel>

namespace semscope::ui {

// A one-line label that shows as much of its text as fits, cut in the middle ("demo:lo…igrations"),
// so both ends of a long semaphore or node name stay readable; the tooltip has the whole text. A
// plain QLabel cuts at the right edge without a mark, and "demo:lock-" reads as a whole name.
class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget *parent = nullptr);

    void setFullText(const QString &text);
    const QString &fullText() const { return m_full; }
    // True while the text shown is shortened.
    bool isElided() const { return text() != m_full; }

    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void elide();

    QString m_full;
};

} // namespace semscope::ui
