#include "LoadTestExportButton.h"

#include "model/LoadTestExport.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QMenu>
#include <QPixmap>
#include <QStandardPaths>

namespace semscope::ui {

namespace {
bool g_nativeDialogs = true;
} // namespace

void LoadTestExportButton::setUseNativeDialogs(bool native) {
    g_nativeDialogs = native;
}

LoadTestExportButton::LoadTestExportButton(Source source, QWidget *parent)
    : QToolButton(parent)
    , m_source(std::move(source)) {
    setObjectName(QStringLiteral("exportButton"));
    setText(tr("E&xport"));
    setToolTip(tr("Save the finished run: report (JSON), timeline (CSV) or the charts (PNG)"));
    setPopupMode(QToolButton::InstantPopup);
    auto *menu = new QMenu(this);
    m_json = menu->addAction(tr("Report as &JSON…"), this, [this] {
        ask(tr("Export load-test report"), QStringLiteral("json"), tr("JSON (*.json)"),
            &LoadTestExportButton::exportJson);
    });
    m_csv = menu->addAction(tr("Timeline as &CSV…"), this, [this] {
        ask(tr("Export load-test timeline"), QStringLiteral("csv"), tr("CSV (*.csv)"),
            &LoadTestExportButton::exportCsv);
    });
    m_png = menu->addAction(tr("Charts as &PNG…"), this, [this] {
        ask(tr("Export load-test charts"), QStringLiteral("png"), tr("PNG image (*.png)"),
            &LoadTestExportButton::exportPng);
    });
    setMenu(menu);
}

QString LoadTestExportButton::exportJson(const QString &path) const {
    return model::writeExportFile(path, model::loadTestJson(m_source.reports(), m_source.scenario()));
}

QString LoadTestExportButton::exportCsv(const QString &path) const {
    return model::writeExportFile(path, model::loadTestCsv(m_source.reports()));
}

QString LoadTestExportButton::exportPng(const QString &path) const {
    QWidget *w = m_source.picture();
    if (!w)
        return tr("nothing to draw");
    if (!w->grab().save(path, "PNG"))
        return tr("cannot write %1").arg(path);
    return {};
}

void LoadTestExportButton::ask(const QString &title, const QString &suffix, const QString &filter,
                               QString (LoadTestExportButton::*write)(const QString &) const) {
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    auto *dialog = new QFileDialog(window(), title,
                                   QDir(dir).filePath(m_source.baseName + QLatin1Char('.') + suffix), filter);
    dialog->setObjectName(QStringLiteral("exportDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(suffix);
    dialog->setOption(QFileDialog::DontUseNativeDialog, !g_nativeDialogs);
    connect(dialog, &QFileDialog::fileSelected, this, [this, write](const QString &path) {
        const QString error = (this->*write)(path);
        Q_EMIT exported(error.isEmpty() ? tr("Exported to %1").arg(QDir::toNativeSeparators(path))
                                        : tr("Export failed: %1").arg(error),
                        error.isEmpty());
    });
    dialog->open();
}

} // namespace semscope::ui
