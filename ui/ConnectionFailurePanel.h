#pragma once

#include "model/ConnectionController.h"

#include <QWidget>

class QLabel;
class QPushButton;

namespace semscope::ui {

// Why the selected connection does not work, in the main area where the operator looks, whole
// (word-wrapped, selectable) rather than cut off in the status bar, with the two ways on: fix the
// connection, or try again now.
class ConnectionFailurePanel : public QWidget {
    Q_OBJECT
public:
    explicit ConnectionFailurePanel(QWidget *parent = nullptr);

    // `headline`: "Cannot connect to demo redis"; `text`: the connection's own state text.
    void showFailure(const QString &headline, const QString &text);
    QString failureText() const;
    QPushButton *editButton() const { return m_edit; }
    QPushButton *retryButton() const { return m_retry; }

Q_SIGNALS:
    void editRequested();
    void retryRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyTone();

    QLabel *m_headline = nullptr;
    QLabel *m_text = nullptr;
    QPushButton *m_edit = nullptr;
    QPushButton *m_retry = nullptr;
};

// The states the panel is shown for: the connection does not work (failed, lost, reconnecting).
bool isConnectionFailure(model::ConnectionController::State state);

} // namespace semscope::ui
