// Build-time helper: renders the application icon SVG to the hicolor PNG sizes with QtSvg, so the
// PNGs never drift from the SVG source and no extra rendering package is needed on build machines.
//
// usage: semscope_icon_render <input.svg> <output-dir> <size>...
// writes <output-dir>/semscope-<size>.png for every size.

#include <QDir>
#include <QImage>
#include <QPainter>
#include <QString>
#include <QSvgRenderer>

#include <cstdio>
#include <cstdlib>

namespace {

int fail(const QString &what) {
    std::fprintf(stderr, "semscope_icon_render: %s\n", qPrintable(what));
    return EXIT_FAILURE;
}

} // namespace

int main(int argc, char **argv) {
    if (argc < 4)
        return fail(QStringLiteral("usage: semscope_icon_render <input.svg> <output-dir> <size>..."));

    const QString input = QString::fromLocal8Bit(argv[1]);
    QSvgRenderer renderer(input);
    if (!renderer.isValid())
        return fail(input + QStringLiteral(": not a valid SVG"));

    const QDir outputDir(QString::fromLocal8Bit(argv[2]));
    if (!outputDir.exists() && !QDir().mkpath(outputDir.path()))
        return fail(outputDir.path() + QStringLiteral(": cannot create directory"));

    for (int i = 3; i < argc; ++i) {
        bool ok = false;
        const int size = QString::fromLocal8Bit(argv[i]).toInt(&ok);
        if (!ok || size < 8 || size > 1024)
            return fail(
                QStringLiteral("size '%1' is not between 8 and 1024").arg(QString::fromLocal8Bit(argv[i])));

        QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        {
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            painter.setRenderHint(QPainter::SmoothPixmapTransform);
            renderer.render(&painter, QRectF(0, 0, size, size));
        }
        const QString path = outputDir.filePath(QStringLiteral("semscope-%1.png").arg(size));
        // Non-premultiplied ARGB so the PNG stores plain alpha.
        if (!image.convertToFormat(QImage::Format_ARGB32).save(path, "PNG"))
            return fail(path + QStringLiteral(": cannot write PNG"));
    }
    return EXIT_SUCCESS;
}
