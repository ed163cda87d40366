#pragma once

#include "core/loadtest/LoadTestReport.h"

#include <QToolButton>
#include <functional>

class QAction;

namespace semscope::redis {
struct TrainingScenario;
}

namespace semscope::ui {

// "Export ▾": the finished runs as a JSON report (the same document `semscope-cli loadtest --json`
// prints), the timelines as CSV, and the charts as a PNG picture. Each asks for a file name first.
class LoadTestExportButton : public QToolButton {
    Q_OBJECT
public:
    struct Source {
        std::function<QList<core::LoadTestReport>()> reports;
        std::function<const redis::TrainingScenario *()> scenario; // null: a plain run
        std::function<QWidget *()> picture;                        // what the PNG shows
        QString baseName;                                          // suggested file name, no suffix
    };

    LoadTestExportButton(Source source, QWidget *parent = nullptr);

    // Tests use Qt's own file dialog, which they can fill in; people get the platform's.
    static void setUseNativeDialogs(bool native);

    // Write straight to `path`; empty on success, otherwise why not.
    QString exportJson(const QString &path) const;
    QString exportCsv(const QString &path) const;
    QString exportPng(const QString &path) const;

    QAction *jsonAction() const { return m_json; }
    QAction *csvAction() const { return m_csv; }
    QAction *pngAction() const { return m_png; }

Q_SIGNALS:
    // One line for the status bar: where it went, or why it did not.
    void exported(const QString &message, bool ok);

private:
    void ask(const QString &title, const QString &suffix, const QString &filter,
             QString (LoadTestExportButton::*write)(const QString &) const);

    Source m_source;
    QAction *m_json = nullptr;
    QAction *m_csv = nullptr;
    QAction *m_png = nullptr;
};

} // namespace semscope::ui
