#pragma once

#include <QColor>
#include <QGuiApplication>
#include <QPalette>

namespace semscope::model {

// What a colour says on screen: trouble, caution, all good, information, waiting/muted, and
// "beyond the limit". The colours are derived from the palette in use, never fixed light ones, so
// they stay legible with the system's dark theme as with a light one: text colours keep a contrast
// of at least 4.5:1 (WCAG AA) with the palette's base, backgrounds are tints of the base that keep
// the palette's own text legible on them.
enum class Tone { Bad, Caution, Good, Info, Muted, OverLimit };

// The application's palette; a plain light one where there is no GUI application (the CLI and
// GUI-less tests use the models too).
QPalette currentPalette();

bool isDarkPalette(const QPalette &palette = currentPalette());
// Text in `tone` on the palette's Base (table cells) or Window (labels) background.
QColor toneText(Tone tone, const QPalette &palette = currentPalette());
// A background tint for a cell or banner in `tone`, under the palette's own Text colour.
QColor toneBackground(Tone tone, const QPalette &palette = currentPalette(), double strength = 1.0);
// A strong fill (badges, the verdict, a destructive button) under white text: legible on either
// theme, and the same in both so "red" means the same everywhere.
QColor toneFill(Tone tone);
// WCAG contrast ratio of two colours, 1 (none) to 21 (black on white).
double contrastRatio(const QColor &a, const QColor &b);

} // namespace semscope::model
