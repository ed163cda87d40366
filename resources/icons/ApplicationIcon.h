#pragma once

#include <QIcon>
#include <QString>

// The application's identity on the desktop. One reverse-DNS id names the desktop file, the icon,
// the AppStream metainfo <id>/<launchable> and QGuiApplication::desktopFileName, so desktops can tie
// a running window to its menu entry and icon.
namespace semscope::resources {

inline constexpr auto kApplicationId = "io.github.semscope.Semscope";

// Resource path of the scalable icon source (for About dialogs and large renderings).
inline constexpr auto kApplicationIconSvg = ":/icons/semscope.svg";

// The application icon with every hicolor size (16..256 px) rendered from the SVG at build time.
// Built from PNGs on purpose: it needs no SVG icon-engine plugin at run time.
QIcon applicationIcon();

} // namespace semscope::resources
