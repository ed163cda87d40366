#include "HolderSearchWindow.h"

#include "core/CountText.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace semscope::ui {

using model::HolderSearchModel;

HolderSearchWindow::HolderSearchWindow(TargetProvider targets, QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_targets(std::move(targets)) {
    setObjectName(QStringLiteral("holderSearchWindow"));
    setWindowTitle(tr("Find holder — every open connection"));
    auto *layout = new QVBoxLayout(this);

    auto *bar = new QHBoxLayout;
    auto *label = new QLabel(tr("&Holder:"), this);
    m_edit = new QLineEdit(this);
    m_edit->setObjectName(QStringLiteral("holderSearchEdit"));
    m_edit->setClearButtonEnabled(true);
    m_edit->setPlaceholderText(
        tr("worker-17, or a glob: worker-1?, *@node-4 (holder id or Consul session name)"));
    label->setBuddy(m_edit);
    m_search = new QPushButton(tr("&Search"), this);
    m_search->setObjectName(QStringLiteral("holderSearchButton"));
    m_search->setDefault(true);
    m_cancel = new QPushButton(tr("&Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("holderSearchCancel"));
    m_cancel->setEnabled(false);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("holderSearchProgress"));
    m_progress->setFormat(tr("%v of %m semaphores read"));
    m_progress->setFixedWidth(240);
    m_progress->setVisible(false);
    bar->addWidget(label);
    bar->addWidget(m_edit, 1);
    bar->addWidget(m_search);
    bar->addWidget(m_progress);
    bar->addWidget(m_cancel);
    layout->addLayout(bar);

    m_status = new QLabel(
        tr("Type a holder id and press Return: every semaphore of every open connection is read."), this);
    m_status->setObjectName(QStringLiteral("holderSearchStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Always markup (errors are red), so what the operator typed is escaped on every line: in
    // AutoText, "R&amp;D" read as plain text and "<b>x" as markup.
    m_status->setTextFormat(Qt::RichText);
    layout->addWidget(m_status);

    m_proxy.setSourceModel(&m_model);
    m_proxy.setSortRole(HolderSearchModel::SortRole);
    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("holderSearchResults"));
    m_view->setModel(&m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder); // found order until the operator picks a column
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setTabKeyNavigation(false);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    auto *header = m_view->horizontalHeader();
    header->setStretchLastSection(true);
    header->resizeSection(HolderSearchModel::ConnectionColumn, 150);
    header->resizeSection(HolderSearchModel::EnvironmentColumn, 95);
    header->resizeSection(HolderSearchModel::SemaphoreColumn, 170);
    header->resizeSection(HolderSearchModel::KindColumn, 70);
    header->resizeSection(HolderSearchModel::HolderColumn, 220);
    header->resizeSection(HolderSearchModel::SlotColumn, 110);
    header->resizeSection(HolderSearchModel::TtlColumn, 90);
    layout->addWidget(m_view, 1);

    auto *copy = new QAction(tr("&Copy"), this);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_view->addAction(copy);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto *open = new QAction(tr("&Open semaphore"), this);
    m_view->addAction(open);
    connect(open, &QAction::triggered, this, [this] { activated(m_view->currentIndex()); });
    connect(copy, &QAction::triggered, this, &HolderSearchWindow::copySelection);
    auto *closeAction = new QAction(this);
    closeAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_W));
    addAction(closeAction);
    connect(closeAction, &QAction::triggered, this, &QWidget::close);

    connect(m_edit, &QLineEdit::returnPressed, this, &HolderSearchWindow::search);
    connect(m_search, &QPushButton::clicked, this, &HolderSearchWindow::search);
    connect(m_cancel, &QPushButton::clicked, this, &HolderSearchWindow::cancel);
    connect(m_view, &QTableView::activated, this, &HolderSearchWindow::activated);
    connect(&m_engine, &model::HolderSearch::progress, this, [this](int read, int total) {
        m_progress->setMaximum(std::max(total, 1));
        m_progress->setValue(read);
    });
    connect(&m_engine, &model::HolderSearch::found, this,
            [this](const QList<model::HolderMatch> &matches) { m_model.addMatches(matches); });
    connect(&m_engine, &model::HolderSearch::finished, this, &HolderSearchWindow::finished);
    resize(1040, 480);
}

void HolderSearchWindow::focusSearch() {
    m_edit->setFocus();
    m_edit->selectAll();
}

void HolderSearchWindow::search() {
    // A search still running ends first, under its own pattern: ended from inside the new one's
    // start, its "Cancelled" took the new pattern's name and hid the new search's progress and Cancel.
    if (m_engine.isRunning())
        m_engine.cancel();
    const model::HolderPattern pattern(m_edit->text());
    if (pattern.isEmpty()) {
        m_status->setText(tr("Type a holder id (or part of one) first.").toHtmlEscaped());
        return;
    }
    // A glob that would find nothing whatever is held ("worker-[") is said, not searched.
    if (const QString problem = pattern.problem(); !problem.isEmpty()) {
        m_model.clear();
        m_status->setText(
            QStringLiteral("<span style='color:#c62828'>%1</span>")
                .arg(tr("Cannot search for “%1”: %2").arg(pattern.text(), problem).toHtmlEscaped()));
        return;
    }
    m_model.clear();
    const QList<model::HolderSearchTarget> targets =
        m_targets ? m_targets() : QList<model::HolderSearchTarget>{};
    m_connections = int(targets.size());
    m_pattern = pattern.text();
    if (targets.isEmpty()) {
        m_status->setText(
            tr("No connection is open: connect first (double-click a connection).").toHtmlEscaped());
        return;
    }
    m_status->setText(tr("Searching %1 for “%2”…")
                          .arg(core::countText(m_connections, tr("connection"), tr("connections")), m_pattern)
                          .toHtmlEscaped());
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_cancel->setEnabled(true);
    m_engine.start(pattern, targets); // may finish at once when there is nothing to read
}

void HolderSearchWindow::cancel() {
    m_engine.cancel();
}

void HolderSearchWindow::finished(bool cancelled, int read, int skipped, const QStringList &errors) {
    m_cancel->setEnabled(false);
    m_progress->setVisible(false);
    QString text = cancelled ? tr("Cancelled: ") : QString();
    text += tr("%1 matching “%2” in %3 read on %4")
                .arg(core::countText(m_model.rowCount(), tr("holder"), tr("holders")), m_pattern,
                     core::countText(read, tr("semaphore"), tr("semaphores")),
                     core::countText(m_connections, tr("connection"), tr("connections")));
    if (skipped > 0)
        text += tr("; %1 not read").arg(skipped);
    text = text.toHtmlEscaped();
    if (!errors.isEmpty()) {
        QStringList shown = errors.mid(0, 5);
        if (errors.size() > shown.size())
            shown << tr("… and %1 more").arg(errors.size() - shown.size());
        text += QStringLiteral("<br><span style='color:#c62828'>%1</span>")
                    .arg(tr("Could not read: %1").arg(shown.join(QStringLiteral("; "))).toHtmlEscaped());
    }
    m_status->setText(text);
    if (m_model.rowCount() > 0 && !m_view->currentIndex().isValid())
        m_view->setCurrentIndex(m_proxy.index(0, 0));
    Q_EMIT searchFinished(cancelled);
}

void HolderSearchWindow::activated(const QModelIndex &proxyIndex) {
    if (!proxyIndex.isValid())
        return;
    const model::HolderMatch *m = m_model.matchAt(m_proxy.mapToSource(proxyIndex).row());
    if (m)
        Q_EMIT openRequested(m->connectionId, m->ref);
}

void HolderSearchWindow::copySelection() const {
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    QStringList lines;
    for (const QModelIndex &r : rows)
        lines << m_model.rowText(m_proxy.mapToSource(r).row());
    if (!lines.isEmpty())
        QApplication::clipboard()->setText(lines.join(QLatin1Char('\n')) + QLatin1Char('\n'));
}

} // namespace semscope::ui
