#include "ViewZoom.h"
#include "WindowSettings.h"

#include <QAction>
#include <QApplication>
#include <QFont>
#include <QSettings>
#include <algorithm>
#include <memory>

namespace semscope::ui {

namespace {
const QString kKey = QStringLiteral("view/zoomPercent");

// The font the platform gave the application, before any zoom: every zoom is a percentage of it,
// never of an already zoomed font (a second window must not compound the first one's zoom).
const QFont &unzoomedFont() {
    static const QFont font = QApplication::font();
    return font;
}
} // namespace

ViewZoom::ViewZoom(const QString &settingsFile, QObject *parent)
    : QObject(parent)
    , m_settingsFile(settingsFile) {
    unzoomedFont();
    m_in = new QAction(tr("Zoom &in"), this);
    m_in->setObjectName(QStringLiteral("zoomInAction"));
    // Ctrl+= too: on many keyboards '+' needs Shift, and Ctrl+Shift+= is not what people press.
    m_in->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    m_out = new QAction(tr("Zoom &out"), this);
    m_out->setObjectName(QStringLiteral("zoomOutAction"));
    m_out->setShortcuts({QKeySequence::ZoomOut, QKeySequence(Qt::CTRL | Qt::Key_Minus)});
    m_reset = new QAction(tr("&Actual size"), this);
    m_reset->setObjectName(QStringLiteral("zoomResetAction"));
    m_reset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    for (QAction *a : {m_in, m_out, m_reset})
        a->setShortcutContext(Qt::ApplicationShortcut); // the load-test window on a projector too
    connect(m_in, &QAction::triggered, this, &ViewZoom::zoomIn);
    connect(m_out, &QAction::triggered, this, &ViewZoom::zoomOut);
    connect(m_reset, &QAction::triggered, this, &ViewZoom::reset);

    m_percent =
        std::clamp(openWindowSettings(m_settingsFile)->value(kKey, 100).toInt(), kMinPercent, kMaxPercent);
    apply();
}

void ViewZoom::setPercent(int percent) {
    percent = std::clamp(percent, kMinPercent, kMaxPercent);
    if (percent == m_percent)
        return;
    m_percent = percent;
    openWindowSettings(m_settingsFile)->setValue(kKey, m_percent);
    apply();
    Q_EMIT percentChanged(m_percent);
}

void ViewZoom::apply() {
    QFont font = unzoomedFont();
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * m_percent / 100.0);
    else
        font.setPixelSize(std::max(6, font.pixelSize() * m_percent / 100));
    if (QApplication::font() != font)
        QApplication::setFont(font);
    m_in->setEnabled(m_percent < kMaxPercent);
    m_out->setEnabled(m_percent > kMinPercent);
    m_reset->setText(m_percent == 100 ? tr("&Actual size") : tr("&Actual size (now %1 %)").arg(m_percent));
}

} // namespace semscope::ui
