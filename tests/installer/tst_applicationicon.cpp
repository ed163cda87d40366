// The icon the GUI shows (window icon, About dialog) comes from the semscope_icons resources: every
// hicolor size is present, pixel-exact, and the SVG source renders. Also pins the application id
// that the desktop file, metainfo and QGuiApplication::desktopFileName must share.
#include "TestMain.h"
#include "resources/icons/ApplicationIcon.h"

#include <QFile>
#include <QImage>
#include <QSvgRenderer>
#include <QTest>

using namespace semscope::resources;

class TestApplicationIcon : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everySizeIsCompiledIn_data() {
        QTest::addColumn<int>("size");
        for (const int size : {16, 22, 24, 32, 48, 64, 128, 256})
            QTest::addRow("%dpx", size) << size;
    }
    void everySizeIsCompiledIn() {
        QFETCH(int, size);
        const QImage png(QStringLiteral(":/icons/hicolor/semscope-%1.png").arg(size));
        QVERIFY2(!png.isNull(), "PNG missing from the resources");
        QCOMPARE(png.size(), QSize(size, size));
        QVERIFY(png.hasAlphaChannel());
        // Not blank: the plate's centre is opaque, the very corner (outside the rounded plate) is not.
        QCOMPARE(png.pixelColor(size / 2, size / 2).alpha(), 255);
        QVERIFY(png.pixelColor(0, 0).alpha() < 128);

        const QIcon icon = applicationIcon();
        QVERIFY(icon.availableSizes().contains(QSize(size, size)));
        QCOMPARE(icon.pixmap(QSize(size, size)).size(), QSize(size, size));
    }
    void svgSourceRenders() {
        QVERIFY(QFile::exists(QString::fromLatin1(kApplicationIconSvg)));
        QSvgRenderer renderer(QString::fromLatin1(kApplicationIconSvg));
        QVERIFY(renderer.isValid());
        QCOMPARE(renderer.defaultSize(), QSize(256, 256));
    }
    void applicationIdMatchesTheInstalledFiles() {
        QCOMPARE(QString::fromLatin1(kApplicationId), QStringLiteral("io.github.semscope.Semscope"));
    }
};

SEMSCOPE_TEST_MAIN(TestApplicationIcon)
#include "tst_applicationicon.moc"
