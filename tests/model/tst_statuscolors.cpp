// The status colours (model/StatusColors) on a light and a dark palette: every text colour reads
// on the palette's backgrounds, every tint keeps the palette's own text readable.
#include "TestMain.h"
#include "model/StatusColors.h"

#include <QtTest>

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
