#include "ConsulSessionsWindow.h"

#include "model/ConnectionSession.h"
#include "model/ConsulSessionReader.h"
#include "ui/EnvironmentBadge.h"
#include "ui/InvalidateSessionDialog.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace semscope::ui {

using model::ConsulSessionModel;

ConsulSessionsWindow::ConsulSessionsWindow(ConnectionSession *session, QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_session(session)
    , m_connectionId(session->config().id) {
    setObjectName(QStringLiteral("consulSessionsWindow"));
    const auto &cfg = session->config();
    setWindowTitle(tr("Consul sessions — %1").arg(cfg.name));
    auto *layout = new QVBoxLayout(this);

    // Which connection, always: invalidating on the wrong datacenter is what this header prevents.
    auto *head = connectionHeader(this,
                                  tr("<b>Consul sessions</b> on <b>%1</b> · %2")
                                      .arg(cfg.name.toHtmlEscaped(), cfg.endpoint().toHtmlEscaped()),
                                  QStringLiteral("sessionsTitle"), cfg);
    layout->addLayout(head);

    auto *bar = new QHBoxLayout;
    auto *filterLabel = new QLabel(tr("&Filter:"), this);
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("sessionFilter"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setPlaceholderText(tr("name, node, session ID, check or semaphore"));
    filterLabel->setBuddy(m_filter);
    m_refresh = new QPushButton(tr("&Refresh"), this);
    m_refresh->setObjectName(QStringLiteral("refreshSessions"));
    m_refresh->setShortcut(QKeySequence::Refresh);
    m_refresh->setToolTip(
        tr("Read the sessions again (F5); they are also re-read every %1 s").arg(kDefaultRefreshMs / 1000));
    m_invalidate = new QPushButton(tr("&Invalidate session…"), this);
    m_invalidate->setObjectName(QStringLiteral("invalidateSession"));
    bar->addWidget(filterLabel);
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_refresh);
    bar->addWidget(m_invalidate);
    layout->addLayout(bar);

    m_proxy.setSourceModel(&m_model);
    m_proxy.setSortRole(ConsulSessionModel::SortRole);
    m_proxy.setFilterRole(ConsulSessionModel::SearchTextRole);
    m_proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy.setFilterKeyColumn(0);
    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("sessionsView"));
    m_view->setModel(&m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(ConsulSessionModel::NameColumn, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setTabKeyNavigation(false); // Tab leaves the table; arrows move within it
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    auto *header = m_view->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setStretchLastSection(true);
    header->resizeSection(ConsulSessionModel::NameColumn, 190);
    header->resizeSection(ConsulSessionModel::NodeColumn, 130);
    header->resizeSection(ConsulSessionModel::HoldsColumn, 240);
    header->resizeSection(ConsulSessionModel::TtlColumn, 50);
    header->resizeSection(ConsulSessionModel::BehaviorColumn, 70);
    header->resizeSection(ConsulSessionModel::LockDelayColumn, 80);
    header->resizeSection(ConsulSessionModel::ChecksColumn, 90);
    layout->addWidget(m_view, 1);

    m_status = new QLabel(tr("Reading sessions…"), this);
    m_status->setObjectName(QStringLiteral("sessionsStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);

    auto *copy = new QAction(tr("&Copy"), this);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_view->addAction(copy);
    connect(copy, &QAction::triggered, this, &ConsulSessionsWindow::copySelection);
    auto *find = new QAction(this);
    find->setShortcut(QKeySequence::Find);
    addAction(find);
    connect(find, &QAction::triggered, this, [this] {
        m_filter->setFocus();
        m_filter->selectAll();
    });
    auto *closeAction = new QAction(this);
    closeAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_W));
    addAction(closeAction);
    connect(closeAction, &QAction::triggered, this, &QWidget::close);

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_proxy.setFilterFixedString(text.trimmed());
        updateActions();
    });
    connect(m_refresh, &QPushButton::clicked, this, &ConsulSessionsWindow::refresh);
    connect(m_invalidate, &QPushButton::clicked, this, [this] { invalidateSelected(); });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &ConsulSessionsWindow::updateActions);
    connect(m_view, &QTableView::customContextMenuRequested, this, &ConsulSessionsWindow::showContextMenu);
    connect(&m_timer, &QTimer::timeout, this, &ConsulSessionsWindow::refresh);
    // Its connection closed: nothing left to show or invalidate on.
    connect(session, &QObject::destroyed, this, &QWidget::close);

    m_timer.setInterval(kDefaultRefreshMs);
    m_timer.start();
    updateActions();
    resize(1160, 520); // every column at 1280 px wide; the minimum stays far below 1024×700
    refresh();
}

void ConsulSessionsWindow::refresh() {
    if (!m_session || m_reading)
        return;
    m_reading = true;
    m_refresh->setEnabled(false);
    model::ConsulSessionReader::read(&m_session->controller, m_session->list.refs(), this,
                                     [this](model::SessionScan scan) { applyScan(scan); });
}

void ConsulSessionsWindow::applyScan(const model::SessionScan &scan) {
    m_reading = false;
    m_refresh->setEnabled(true);
    const QString when = QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss"));
    if (!scan.ok) {
        // The last list stays (it may be all an operator has); the reason stays until a read works.
        m_status->setText(tr("<span style='color:#c62828'><b>Not updated</b> (%1): %2</span>")
                              .arg(when, scan.error.toHtmlEscaped()));
        Q_EMIT refreshed(false);
        return;
    }
    m_model.setSessions(scan.sessions);
    auto count = [](qsizetype n, const QString &one, const QString &many) {
        return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
    };
    QString text = count(scan.sessions.size(), tr("session"), tr("sessions"));
    if (m_proxy.rowCount() != m_model.rowCount())
        text += tr(", %1 shown").arg(m_proxy.rowCount());
    text += tr(" · holdings from %1").arg(count(scan.semaphoresRead, tr("semaphore"), tr("semaphores")));
    if (scan.semaphoresSkipped > 0)
        text += tr(" (the first %1 listed; %2 more not read)")
                    .arg(model::ConsulSessionReader::kMaxSemaphores)
                    .arg(scan.semaphoresSkipped);
    text += tr(" · updated %1").arg(when);
    text = text.toHtmlEscaped();
    if (!scan.snapshotErrors.isEmpty())
        text +=
            QStringLiteral("<br><span style='color:#c62828'>%1</span>")
                .arg(tr("Not read: %1").arg(scan.snapshotErrors.join(QStringLiteral("; "))).toHtmlEscaped());
    m_status->setText(text);
    updateActions();
    Q_EMIT refreshed(true);
}

const model::SessionEntry *ConsulSessionsWindow::selectedSession() const {
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    if (rows.size() != 1)
        return nullptr;
    return m_model.entryAt(m_proxy.mapToSource(rows.first()).row());
}

void ConsulSessionsWindow::updateActions() {
    const bool writable = m_session && m_session->actions.canWrite();
    m_invalidate->setEnabled(writable && selectedSession());
    m_invalidate->setToolTip(writable
                                 ? tr("Destroy the selected session: Consul releases or deletes every key "
                                      "it holds")
                                 : tr("This connection is read-only: sessions cannot be invalidated"));
}

InvalidateSessionDialog *ConsulSessionsWindow::invalidateSelected() {
    const model::SessionEntry *entry = selectedSession();
    if (!m_session || !entry || !m_invalidate->isEnabled())
        return nullptr;
    auto *dialog = new InvalidateSessionDialog(&m_session->actions, *entry, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &InvalidateSessionDialog::answered, this, &ConsulSessionsWindow::refresh);
    dialog->open();
    return dialog;
}

void ConsulSessionsWindow::copySelection() const {
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    QStringList lines;
    for (const QModelIndex &r : rows)
        lines << m_model.rowText(m_proxy.mapToSource(r).row());
    if (!lines.isEmpty())
        QApplication::clipboard()->setText(lines.join(QLatin1Char('\n')) + QLatin1Char('\n'));
}

void ConsulSessionsWindow::showContextMenu(const QPoint &pos) {
    const QModelIndex at = m_view->indexAt(pos);
    if (!at.isValid())
        return;
    if (!m_view->selectionModel()->isRowSelected(at.row(), {}))
        m_view->selectRow(at.row());
    QMenu menu(this);
    menu.addAction(tr("&Copy"), this, &ConsulSessionsWindow::copySelection);
    if (const model::SessionEntry *e = selectedSession()) {
        const QString id = e->info.id;
        menu.addAction(tr("Copy session &ID"), this, [id] { QApplication::clipboard()->setText(id); });
    }
    menu.addSeparator();
    auto *inv = menu.addAction(m_invalidate->text(), this, [this] { invalidateSelected(); });
    inv->setEnabled(m_invalidate->isEnabled());
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

} // namespace semscope::ui
