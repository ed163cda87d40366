#include "HistoryPanel.h"

#include "core/CountText.h"
#include "model/WatchController.h"
#include "monitor/HistoryWorker.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSaveFile>
#include <QTableView>
#include <QVBoxLayout>

namespace semscope::ui {

HistoryPanel::HistoryPanel(QWidget *parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("historyPanel"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    auto *top = new QHBoxLayout;
    m_note = new QLabel(this);
    m_note->setObjectName(QStringLiteral("historyNote"));
    m_note->setWordWrap(true);
    m_export = new QPushButton(tr("Export CSV…"), this);
    m_export->setObjectName(QStringLiteral("historyExport"));
    m_export->setToolTip(tr("Save these events as comma-separated values"));
    top->addWidget(m_note, 1);
    top->addWidget(m_export);
    layout->addLayout(top);
    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("historyTable"));
    m_view->setModel(&m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setColumnWidth(model::HistoryEventModel::TimeColumn,
                           m_view->fontMetrics().horizontalAdvance(QStringLiteral("2026-11-26 10:42:00__")));
    m_view->setColumnWidth(model::HistoryEventModel::EventColumn,
                           m_view->fontMetrics().horizontalAdvance(QStringLiteral("force-released__")));
    m_view->setColumnWidth(model::HistoryEventModel::HolderColumn, 160);
    layout->addWidget(m_view, 1);
    connect(m_export, &QPushButton::clicked, this, &HistoryPanel::chooseExportFile);
    m_slowLoad.setSingleShot(true);
    m_slowLoad.setInterval(300);
    connect(&m_slowLoad, &QTimer::timeout, this, &HistoryPanel::updateNote);
    clear();
}

void HistoryPanel::setMonitoring(model::WatchController *watch, monitor::HistoryWorker *history) {
    m_watch = watch;
    m_history = history;
    if (m_history)
        connect(m_history, &monitor::HistoryWorker::turnedOff, this, &HistoryPanel::updateNote);
    if (m_watch) {
        connect(m_watch, &model::WatchController::eventsRecorded, this,
                [this](const QString &connectionId, const core::SemaphoreRef &ref) {
                    if (m_ref && connectionId == m_connectionId && ref == *m_ref)
                        reload();
                });
        connect(m_watch, &model::WatchController::watchedChanged, this, &HistoryPanel::updateNote);
    }
    reload();
}

void HistoryPanel::setSemaphore(const QString &connectionId, const QString &endpoint,
                                const core::SemaphoreRef &ref) {
    const bool same = m_ref && *m_ref == ref && m_connectionId == connectionId && m_endpoint == endpoint;
    m_connectionId = connectionId;
    m_endpoint = endpoint;
    m_ref = ref;
    if (!same) {
        m_model.setEvents({}); // another semaphore's rows must not show while its own load
        m_rowsCurrent = false;
    }
    reload();
}

void HistoryPanel::clear() {
    m_ref.reset();
    ++m_query; // an answer still to come is for what was shown before
    m_model.setEvents({});
    m_rowsCurrent = false;
    m_export->setEnabled(false);
    updateNote();
}

void HistoryPanel::reload() {
    const quint64 query = ++m_query;
    if (!m_ref || !m_history) {
        showEvents({});
        return;
    }
    // The query runs on the history's thread (the file may be busy in another process for a while);
    // the rows shown stay until the answer replaces them.
    ++m_loading;
    m_slowLoad.start();
    m_history->events(m_endpoint, *m_ref, 0, kMaxRows, this,
                      [this, query](const QList<monitor::HolderEvent> &events) {
                          --m_loading;
                          if (query == m_query)
                              showEvents(events);
                          else
                              updateNote();
                      });
    updateNote();
}

void HistoryPanel::showEvents(const QList<monitor::HolderEvent> &events) {
    m_model.setEvents(events);
    m_rowsCurrent = true;
    m_export->setEnabled(m_model.rowCount() > 0);
    updateNote();
}

void HistoryPanel::updateNote() {
    if (m_history && !m_history->isAvailable()) {
        m_note->setText(m_history->warning());
        return;
    }
    if (!m_ref) {
        m_note->clear();
        return;
    }
    if (m_loading > 0 && (!m_rowsCurrent || !m_slowLoad.isActive())) {
        m_note->setText(tr("Loading…"));
        return;
    }
    const bool watched = m_watch && m_watch->isWatched(m_connectionId, *m_ref);
    QString text =
        watched ? tr("Watched: events are recorded in the background, also while this page is not shown.")
                : tr("Events are recorded while the semaphore is watched (★ Watch) or by "
                     "`semscope-cli watch`.");
    if (watched && !m_watch->changeNote(m_connectionId).isEmpty())
        text += QLatin1Char(' ') + m_watch->changeNote(m_connectionId);
    if (m_model.rowCount() >= kMaxRows)
        text += QLatin1Char(' ') + tr("Showing the newest %1.").arg(kMaxRows);
    m_note->setText(text);
}

bool HistoryPanel::exportCsv(const QString &path, QString *error) const {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(m_model.toCsv().toUtf8()) < 0 || !file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

void HistoryPanel::chooseExportFile() {
    if (!m_ref)
        return;
    QString suggested = m_ref->name;
    suggested.replace(QLatin1Char('/'), QLatin1Char('_'));
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export history"), suggested + QStringLiteral("-history.csv"), tr("CSV files (*.csv)"));
    if (!path.isEmpty())
        exportTo(path);
}

void HistoryPanel::exportTo(const QString &path) {
    QString error;
    if (!exportCsv(path, &error))
        m_note->setText(tr("Could not write %1: %2").arg(path, error));
    else
        m_note->setText(tr("Exported %1 to %2")
                            .arg(core::countText(m_model.rowCount(), tr("event"), tr("events")), path));
}

} // namespace semscope::ui
