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
    // What the window shows is, pixel for pixel, the PNG the package installs for that size (read
    // from the file, not through the code that assembled the icon).
    void iconIsTheInstalledPng_data() { everySizeIsCompiledIn_data(); }
    void iconIsTheInstalledPng() {
        QFETCH(int, size);
        const QString dir = qEnvironmentVariable("SEMSCOPE_ICON_PNG_DIR");
        QVERIFY2(!dir.isEmpty(), "SEMSCOPE_ICON_PNG_DIR is not set (run through ctest)");
        const QString path = QStringLiteral("%1/semscope-%2.png").arg(dir).arg(size);
        const QImage installed(path);
        QVERIFY2(!installed.isNull(), qPrintable(QStringLiteral("cannot read %1").arg(path)));
        QCOMPARE(installed.size(), QSize(size, size));
        const QImage shown = applicationIcon().pixmap(QSize(size, size)).toImage();
        QCOMPARE(shown.convertToFormat(QImage::Format_ARGB32),
                 installed.convertToFormat(QImage::Format_ARGB32));
    }
    // The scalable icon in the program is the source file itself.
    void svgIsTheSourceFile() {
        const QString path = qEnvironmentVariable("SEMSCOPE_ICON_SVG");
        QVERIFY2(!path.isEmpty(), "SEMSCOPE_ICON_SVG is not set (run through ctest)");
        QFile source(path);
        QVERIFY2(source.open(QIODevice::ReadOnly), qPrintable(path));
        QFile compiled(QString::fromLatin1(kApplicationIconSvg));
        QVERIFY(compiled.open(QIODevice::ReadOnly));
        const QByteArray bytes = source.readAll();
        QVERIFY(bytes.contains("<svg"));
        QCOMPARE(compiled.readAll(), bytes);
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
