#pragma once

#include <QLabel>

namespace semscope::ui {

// A label whose plain text wraps between words and, where a run has no place to break, anywhere in
// it: a Consul session id whose groups start with digits ("fcd91948-0f58-4f9b-…") is one
// unbreakable run to QLabel, which cut it at the edge of a narrow card without a mark. Every
// character is shown. Right-click → Copy puts the whole text on the clipboard.
class WrapAnywhereLabel : public QLabel {
    Q_OBJECT
public:
    explicit WrapAnywhereLabel(QWidget *parent = nullptr);

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
};

} // namespace semscope::ui
