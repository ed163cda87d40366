#pragma once

#include <QDialog>

class QLineEdit;

namespace semscope::ui {

// Asks for the holder id (default user@host) and lease TTL of an operator's own acquire.
class AcquireDialog : public QDialog {
    Q_OBJECT
public:
    AcquireDialog(const QString &semaphore, const QString &defaultHolder, QWidget *parent = nullptr);
    QString holder() const;
    qint64 ttlMs() const; // -1 when the text is not a duration

private:
    QLineEdit *m_holder;
    QLineEdit *m_ttl;
};

} // namespace semscope::ui
