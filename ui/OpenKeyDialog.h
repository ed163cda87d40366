#pragma once

#include "core/RawKeys.h"
#include "redis/KindGuess.h"

#include <QDialog>
#include <QTimer>
#include <functional>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace semscope::ui {

// File → Open key…: a key by name and the kind to read it as. The key is read (TYPE, TTL and a
// bounded sample, off the GUI thread) as the name is typed, and the kind it most likely is
// (redis/KindGuess) is picked and said why, for the operator to confirm or change. For keys whose
// names say nothing (a redis-py lock `invoice-run`): discovery cannot tell them from data.
class OpenKeyDialog : public QDialog {
    Q_OBJECT
public:
    // Reads `key` raw; `done` runs on the GUI thread, dropped when `context` is gone.
    using LookUp =
        std::function<void(const QString &key, QObject *context, std::function<void(core::RawKeys)> done)>;
    OpenKeyDialog(const QString &connectionName, LookUp lookUp, QWidget *parent = nullptr);

    // Sets the key name and reads it now.
    void setKey(const QString &key);
    // The semaphore to open: the guessed name when the guessed kind is chosen, else the key as typed.
    core::SemaphoreRef chosen() const;
    std::optional<redis::KindGuess> guess() const { return m_guess; }

    QLineEdit *keyEdit() const { return m_key; }
    QComboBox *kindBox() const { return m_kind; }
    QLabel *readLabel() const { return m_read; }
    QPushButton *openButton() const { return m_open; }

Q_SIGNALS:
    // The key was read and the kind box shows the guess (or says there is none).
    void looked();

private:
    void lookUpNow();
    void showRead(const QString &key, const core::RawKeys &keys);
    void updateChoice();

    LookUp m_lookUp;
    QLineEdit *m_key = nullptr;
    QComboBox *m_kind = nullptr;
    QLabel *m_read = nullptr;
    QLabel *m_result = nullptr;
    QPushButton *m_open = nullptr;
    QTimer m_typing;
    quint64 m_round = 0; // answers for a name typed over are dropped
    std::optional<redis::KindGuess> m_guess;
};

} // namespace semscope::ui
