#include "StatusColors.h"

#include <algorithm>
#include <cmath>

namespace semscope::model {

namespace {
double channel(double c) {
    return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double luminance(const QColor &c) {
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

QColor mix(const QColor &a, const QColor &b, double t) {
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                            float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

// The hue of each tone, as a saturated colour: dark variants read on light backgrounds, light
// variants on dark ones.
QColor hue(Tone tone, bool dark) {
    switch (tone) {
    case Tone::Bad:
        return dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xb7, 0x1c, 0x1c);
    case Tone::Caution:
        return dark ? QColor(0xff, 0xcc, 0x80) : QColor(0x8a, 0x50, 0x00);
    case Tone::Good:
        return dark ? QColor(0x81, 0xc7, 0x84) : QColor(0x1b, 0x5e, 0x20);
    case Tone::Info:
        return dark ? QColor(0x90, 0xca, 0xf9) : QColor(0x0d, 0x47, 0xa1);
    case Tone::OverLimit:
        return dark ? QColor(0xce, 0x93, 0xd8) : QColor(0x6a, 0x1b, 0x9a);
    case Tone::Muted:
        break;
    }
    return {};
}

// The colour a tint starts from: the same on either theme.
QColor tint(Tone tone) {
    switch (tone) {
    case Tone::Bad:
        return QColor(0xe5, 0x39, 0x35);
    case Tone::Caution:
        return QColor(0xff, 0xa0, 0x00);
    case Tone::Good:
        return QColor(0x43, 0xa0, 0x47);
    case Tone::Info:
        return QColor(0x1e, 0x88, 0xe5);
    case Tone::OverLimit:
        return QColor(0x8e, 0x24, 0xaa);
    case Tone::Muted:
        break;
    }
    return QColor(0x9e, 0x9e, 0x9e);
}
} // namespace

QPalette currentPalette() {
    if (qobject_cast<QGuiApplication *>(QCoreApplication::instance()))
        return QGuiApplication::palette();
    const QColor window(0xef, 0xef, 0xef);
    return QPalette(Qt::black, window, Qt::white, QColor(0x9f, 0x9f, 0x9f), QColor(0xb8, 0xb8, 0xb8),
                    Qt::black, Qt::white, Qt::white, window);
}

double contrastRatio(const QColor &a, const QColor &b) {
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

bool isDarkPalette(const QPalette &palette) {
    return luminance(palette.color(QPalette::Base)) < luminance(palette.color(QPalette::Text));
}

QColor toneText(Tone tone, const QPalette &palette) {
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    QColor color = tone == Tone::Muted ? mix(text, base, 0.35) : hue(tone, isDarkPalette(palette));
    // Towards the palette's own text colour until it reads on both of the palette's backgrounds.
    const QColor window = palette.color(QPalette::Window);
    for (double t = 0.1; t <= 1.0 && (contrastRatio(color, base) < 4.5 || contrastRatio(color, window) < 4.5);
         t += 0.1)
        color = mix(color, text, t);
    return color;
}

QColor toneBackground(Tone tone, const QPalette &palette, double strength) {
    const bool dark = isDarkPalette(palette);
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    QColor color = mix(base, tint(tone), std::clamp((dark ? 0.38 : 0.22) * strength, 0.0, 1.0));
    for (double t = 0.1; t <= 1.0 && contrastRatio(color, text) < 7.0; t += 0.1)
        color = mix(color, base, t);
    return color;
}

QColor toneFill(Tone tone) {
    switch (tone) {
    case Tone::Bad:
        return QColor(0xc6, 0x28, 0x28);
    case Tone::Caution:
        return QColor(0xa8, 0x58, 0x00);
    case Tone::Good:
        return QColor(0x2e, 0x7d, 0x32);
    case Tone::Info:
        return QColor(0x15, 0x65, 0xc0);
    case Tone::OverLimit:
        return QColor(0x6a, 0x1b, 0x9a);
    case Tone::Muted:
        break;
    }
    return QColor(0x45, 0x5a, 0x64);
}

} // namespace semscope::model
