#pragma once

#include "model/ConnectionConfig.h"
#include "model/SemaphoreHeaderText.h"

#include <QWidget>

class QAction;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace semscope::ui {

class ElidedLabel;
class EnvironmentBadge;

// The top of the semaphore page: which connection (environment badge, "on <connection> · <address>"),
// what (kind, name, ☆ Watch), how fresh (last read, interval, Pause, Refresh), how full (limit and
// its source, Edit profile…, Raw keys…, the used/limit gauge), and the banners (warnings, read-only,
// writes the store refuses). It shows what it is given; the page decides what to say
// (model/SemaphoreHeaderText) and wires the buttons.
class SemaphoreHeader : public QWidget {
    Q_OBJECT
public:
    // `watch` is the page's ☆ Watch toggle, shown as a button after the name.
    explicit SemaphoreHeader(QAction *watch, QWidget *parent = nullptr);

    // A semaphore is shown: its kind and name, the connection's badge, "reading…" until the first read.
    void showSemaphore(const QString &kind, const QString &kindToolTip, const QString &name,
                       model::Environment environment, bool readOnly);
    // No semaphore: a prompt in place of the name, everything else empty.
    void showNothing();
    void setPlace(const QString &text);
    // What a read says (limit, gauge) and every warning of the semaphore.
    void showRead(const model::SemaphoreHeaderText &text, const QStringList &warnings);
    // The banner over the holders when the store refuses every write here; empty hides it.
    void setWritesRefused(const QString &banner);
    // "read 2 s ago"; `late` shows it in the trouble colour.
    void setLastRead(const QString &text, bool late);
    void setPaused(bool paused);
    void setIntervalSeconds(int seconds);
    // Consul pages are watched, not polled: the interval has nothing to set there and is hidden.
    void setIntervalApplies(bool applies);

    QLabel *connectionLabel() const { return m_connection; }

Q_SIGNALS:
    void intervalChanged(int seconds);
    void pauseToggled(bool paused);
    void refreshClicked();
    void profileClicked();
    void rawKeysClicked();

protected:
    void changeEvent(QEvent *event) override;

private:
    void fitToFont();  // the name's size and the last-read label's room follow the (zoomed) font
    void applyTones(); // gauge and banner colours from the palette in use
    void applyGaugeTone();

    std::optional<model::Tone> m_gaugeTone;
    QLabel *m_kind = nullptr;
    ElidedLabel *m_name = nullptr;
    EnvironmentBadge *m_badge = nullptr;
    QLabel *m_connection = nullptr;
    QLabel *m_limit = nullptr;
    QPushButton *m_profileButton = nullptr;
    QProgressBar *m_gauge = nullptr;
    QLabel *m_warnings = nullptr;
    QLabel *m_readOnlyBanner = nullptr;
    QLabel *m_writesRefusedBanner = nullptr; // the store refuses every write here (and why)
    QLabel *m_lastRead = nullptr;
    QSpinBox *m_interval = nullptr;
    QPushButton *m_pauseButton = nullptr;
};

} // namespace semscope::ui
