// The status colours (model/StatusColors) on a light and a dark palette: every text colour reads
// on the palette's backgrounds, every tint keeps the palette's own text readable.
#include "TestMain.h"
#include "model/StatusColors.h"

#include <QtTest>
#include <cmath>

using namespace semscope;
using model::Tone;

namespace {
QPalette lightPalette() {
    QPalette p;
    p.setColor(QPalette::Base, Qt::white);
    p.setColor(QPalette::Window, QColor(0xef, 0xef, 0xef));
    p.setColor(QPalette::Text, Qt::black);
    p.setColor(QPalette::WindowText, Qt::black);
    return p;
}

QPalette darkPalette() {
    QPalette p;
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::Window, QColor(0x2d, 0x2d, 0x2d));
    p.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
    return p;
}
} // namespace

class TestStatusColors : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The ratio every check below relies on, against values worked out by hand from WCAG 2's
    // definition (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio, relative luminance with the sRGB
    // transfer function), not by the function under test: #767676 is the lightest grey that passes
    // 4.5:1 on white, #777777 the darkest that fails.
    void contrastRatioMatchesWcag_data() {
        QTest::addColumn<QColor>("a");
        QTest::addColumn<QColor>("b");
        QTest::addColumn<double>("ratio");
        QTest::newRow("black on white")
            << QColor::fromRgb(QRgb(0x000000)) << QColor::fromRgb(QRgb(0xffffff)) << 21.0;
        QTest::newRow("white on black")
            << QColor::fromRgb(QRgb(0xffffff)) << QColor::fromRgb(QRgb(0x000000)) << 21.0;
        QTest::newRow("white on white")
            << QColor::fromRgb(QRgb(0xffffff)) << QColor::fromRgb(QRgb(0xffffff)) << 1.0;
        QTest::newRow("#777777 on white")
            << QColor::fromRgb(QRgb(0x777777)) << QColor::fromRgb(QRgb(0xffffff)) << 4.4781;
        QTest::newRow("#767676 on white")
            << QColor::fromRgb(QRgb(0x767676)) << QColor::fromRgb(QRgb(0xffffff)) << 4.5422;
        QTest::newRow("red on white")
            << QColor::fromRgb(QRgb(0xff0000)) << QColor::fromRgb(QRgb(0xffffff)) << 3.9985;
        QTest::newRow("blue on white")
            << QColor::fromRgb(QRgb(0x0000ff)) << QColor::fromRgb(QRgb(0xffffff)) << 8.5925;
        QTest::newRow("green on white")
            << QColor::fromRgb(QRgb(0x008000)) << QColor::fromRgb(QRgb(0xffffff)) << 5.1374;
        QTest::newRow("#e6e6e6 on #1e1e1e")
            << QColor::fromRgb(QRgb(0xe6e6e6)) << QColor::fromRgb(QRgb(0x1e1e1e)) << 13.3575;
    }
    void contrastRatioMatchesWcag() {
        QFETCH(QColor, a);
        QFETCH(QColor, b);
        QFETCH(double, ratio);
        const double got = model::contrastRatio(a, b);
        QVERIFY2(std::abs(got - ratio) < 0.001,
                 qPrintable(QStringLiteral("%1, expected %2").arg(got).arg(ratio)));
    }

    void legibleOnBothThemes_data() {
        QTest::addColumn<QPalette>("palette");
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << lightPalette() << false;
        QTest::newRow("dark") << darkPalette() << true;
    }

    void legibleOnBothThemes() {
        QFETCH(QPalette, palette);
        QFETCH(bool, dark);
        QCOMPARE(model::isDarkPalette(palette), dark);
        const QColor base = palette.color(QPalette::Base);
        const QColor window = palette.color(QPalette::Window);
        const QColor text = palette.color(QPalette::Text);
        for (Tone tone : {Tone::Bad, Tone::Caution, Tone::Good, Tone::Info, Tone::Muted, Tone::OverLimit}) {
            const QColor t = model::toneText(tone, palette);
            QVERIFY2(model::contrastRatio(t, base) >= 4.5 && model::contrastRatio(t, window) >= 4.5,
                     qPrintable(QStringLiteral("tone %1 text %2").arg(int(tone)).arg(t.name())));
            for (double strength : {0.4, 1.0, 1.8}) {
                const QColor b = model::toneBackground(tone, palette, strength);
                QVERIFY2(model::contrastRatio(b, text) >= 7.0,
                         qPrintable(QStringLiteral("tone %1 background %2").arg(int(tone)).arg(b.name())));
                // A tint, not a light colour on a dark theme (or the other way round).
                QPalette tinted = palette;
                tinted.setColor(QPalette::Base, b);
                QCOMPARE(model::isDarkPalette(tinted), dark);
            }
            QVERIFY(model::contrastRatio(model::toneFill(tone), Qt::white) >= 4.5);
        }
        // The dark theme's "bad" is not the light theme's dark red on a dark background.
        if (dark)
            QVERIFY(model::toneText(Tone::Bad, palette) != model::toneText(Tone::Bad, lightPalette()));
    }
};

SEMSCOPE_TEST_MAIN(TestStatusColors)
#include "tst_statuscolors.moc"
