#pragma once

#include <QObject>
#include <QString>

class QAction;

namespace semscope::ui {

// Text size for projectors and tired eyes: View > Zoom in / out / Actual size (Ctrl++, Ctrl+-,
// Ctrl+0, from every window), remembered in the window settings (view/zoomPercent) and applied to
// the whole application through its font, so the main window, the load-test window and every
// dialog grow together. Widgets that size things by the font (row heights, column widths, the
// semaphore name) follow QEvent::FontChange.
class ViewZoom : public QObject {
    Q_OBJECT
public:
    static constexpr int kMinPercent = 70;
    static constexpr int kMaxPercent = 250;
    static constexpr int kStepPercent = 10;

    // Reads the remembered zoom from `settingsFile` (empty: the user's settings) and applies it.
    explicit ViewZoom(const QString &settingsFile, QObject *parent = nullptr);

    int percent() const { return m_percent; }
    void setPercent(int percent);
    void zoomIn() { setPercent(m_percent + kStepPercent); }
    void zoomOut() { setPercent(m_percent - kStepPercent); }
    void reset() { setPercent(100); }

    QAction *zoomInAction() const { return m_in; }
    QAction *zoomOutAction() const { return m_out; }
    QAction *resetAction() const { return m_reset; }

Q_SIGNALS:
    void percentChanged(int percent);

private:
    void apply();

    QString m_settingsFile;
    int m_percent = 100;
    QAction *m_in = nullptr;
    QAction *m_out = nullptr;
    QAction *m_reset = nullptr;
};

} // namespace semscope::ui
