#include "RawKeysWindow.h"

#include "model/ConnectionSession.h"
#include "model/RawKeysLoader.h"
#include "ui/EnvironmentBadge.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace semscope::ui {

namespace {
QTableView *makeTable(QWidget *parent, const QString &name) {
    auto *view = new QTableView(parent);
    view->setObjectName(name);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setTabKeyNavigation(false);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
    return view;
}
} // namespace

RawKeysWindow::RawKeysWindow(ConnectionSession *session, const core::SemaphoreRef &ref, QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_session(session)
    , m_connectionId(session->config().id)
    , m_ref(ref) {
    setObjectName(QStringLiteral("rawKeysWindow"));
    const auto &cfg = session->config();
    const QString what = core::kindName(ref.kind) + QLatin1Char(':') + ref.name;
    setWindowTitle(tr("Raw keys — %1 on %2").arg(what, cfg.name));
    auto *layout = new QVBoxLayout(this);

    auto *head = new QHBoxLayout;
    auto *title =
        new QLabel(tr("<b>Raw keys</b> of <b>%1</b> on <b>%2</b> · %3 — read-only view")
                       .arg(what.toHtmlEscaped(), cfg.name.toHtmlEscaped(), cfg.endpoint().toHtmlEscaped()),
                   this);
    title->setObjectName(QStringLiteral("rawKeysTitle"));
    title->setWordWrap(true);
    auto *badge = new EnvironmentBadge(this);
    badge->setEnvironment(cfg.environment, cfg.readOnly);
    m_refresh = new QPushButton(tr("&Refresh"), this);
    m_refresh->setShortcut(QKeySequence::Refresh);
    m_refresh->setToolTip(tr("Read the keys again (F5)"));
    head->addWidget(title, 1);
    head->addWidget(badge);
    head->addWidget(m_refresh);
    layout->addLayout(head);

    m_status = new QLabel(tr("Reading…"), this);
    m_status->setObjectName(QStringLiteral("rawKeysStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    m_keysView = makeTable(splitter, QStringLiteral("rawKeysList"));
    m_keysView->setModel(&m_keys);
    m_keysView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_keysView->horizontalHeader()->resizeSection(model::RawKeyListModel::NameColumn, 320);
    m_keysView->horizontalHeader()->resizeSection(model::RawKeyListModel::TypeColumn, 80);
    m_keysView->horizontalHeader()->resizeSection(model::RawKeyListModel::TtlColumn, 110);
    auto *bottom = new QWidget(splitter);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    m_note = new QLabel(bottom);
    m_note->setObjectName(QStringLiteral("rawKeyNote"));
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_value = new QPlainTextEdit(bottom);
    m_value->setObjectName(QStringLiteral("rawKeyValue"));
    m_value->setReadOnly(true);
    m_value->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_value->setTabChangesFocus(true);
    m_contentView = makeTable(bottom, QStringLiteral("rawKeyContents"));
    m_contentView->setModel(&m_content);
    m_contentView->horizontalHeader()->setDefaultSectionSize(260);
    bottomLayout->addWidget(m_note);
    bottomLayout->addWidget(m_value, 1);
    bottomLayout->addWidget(m_contentView, 2);
    splitter->addWidget(m_keysView);
    splitter->addWidget(bottom);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({200, 400}); // a semaphore has a handful of keys; the contents need the room
    layout->addWidget(splitter, 1);

    for (QTableView *view : {m_keysView, m_contentView}) {
        auto *copy = new QAction(tr("&Copy"), view);
        copy->setShortcut(QKeySequence::Copy);
        copy->setShortcutContext(Qt::WidgetShortcut);
        view->addAction(copy);
        connect(copy, &QAction::triggered, this, [this, view] { copyRows(view); });
    }
    auto *closeAction = new QAction(this);
    closeAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_W));
    addAction(closeAction);
    connect(closeAction, &QAction::triggered, this, &QWidget::close);

    connect(m_refresh, &QPushButton::clicked, this, &RawKeysWindow::refresh);
    connect(m_keysView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { showKey(current.row()); });
    connect(session, &QObject::destroyed, this, &QWidget::close);
    showKey(-1);
    resize(980, 640);
    refresh();
}

RawKeysWindow *RawKeysWindow::showFor(QWidget *parent, ConnectionSession *session,
                                      const core::SemaphoreRef &ref) {
    RawKeysWindow *window = nullptr;
    for (auto *w : parent->findChildren<RawKeysWindow *>(Qt::FindDirectChildrenOnly))
        if (w->connectionId() == session->config().id && w->ref() == ref)
            window = w;
    if (!window) {
        window = new RawKeysWindow(session, ref, parent);
        window->setAttribute(Qt::WA_DeleteOnClose);
    } else {
        window->refresh();
    }
    window->show();
    window->raise();
    window->activateWindow();
    window->keysView()->setFocus();
    return window;
}

void RawKeysWindow::refresh() {
    if (!m_session || m_reading)
        return;
    m_reading = true;
    m_refresh->setEnabled(false);
    model::RawKeysLoader::read(&m_session->controller, m_ref, this,
                               [this](core::RawKeys keys) { apply(keys); });
}

void RawKeysWindow::apply(const core::RawKeys &keys) {
    m_reading = false;
    m_refresh->setEnabled(true);
    const QString when = QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss"));
    if (!keys.ok) {
        m_status->setText(tr("<span style='color:#c62828'><b>Not read</b> (%1): %2</span>")
                              .arg(when, keys.error.toHtmlEscaped()));
        Q_EMIT loaded(false);
        return;
    }
    const core::RawKey *current = m_keys.keyAt(m_keysView->currentIndex().row());
    const QString selected = current ? current->name : QString();
    m_keys.setKeys(keys.keys);
    QString text = keys.keys.size() == 1 ? tr("1 key") : tr("%1 keys").arg(keys.keys.size());
    text += tr(", read %1").arg(when);
    if (!keys.error.isEmpty())
        text += QStringLiteral(" (%1)").arg(keys.error);
    if (keys.keys.isEmpty())
        text += tr(" — nothing is stored for this semaphore right now");
    m_status->setText(text.toHtmlEscaped());
    const int row = std::max(0, m_keys.rowOf(selected));
    if (m_keys.rowCount() > 0)
        m_keysView->setCurrentIndex(m_keys.index(row, 0));
    showKey(m_keys.rowCount() > 0 ? row : -1);
    Q_EMIT loaded(true);
}

void RawKeysWindow::showKey(int row) {
    const core::RawKey *k = m_keys.keyAt(row);
    if (!k) {
        m_note->clear();
        m_value->clear();
        m_value->hide();
        m_content.clear();
        m_contentView->hide();
        return;
    }
    QStringList note;
    if (!k->error.isEmpty())
        note << tr("<span style='color:#c62828'>Could not read this key: %1</span>")
                    .arg(k->error.toHtmlEscaped());
    if (const QString shown = k->shownNote(); !shown.isEmpty())
        note << tr("<b>%1</b> (the view reads a bounded window, never the whole collection)").arg(shown);
    if (k->type == QLatin1String("kv"))
        note << tr("Consul KV entry: value below, its properties in the table");
    m_note->setText(note.join(QStringLiteral("<br>")));
    m_note->setVisible(!note.isEmpty());
    m_value->setPlainText(k->value);
    m_value->setVisible(!k->value.isEmpty());
    m_content.setKey(*k);
    m_contentView->setVisible(m_content.columnCount() > 0);
}

void RawKeysWindow::copySelection() {
    copyRows(m_contentView->hasFocus() ? m_contentView : m_keysView);
}

void RawKeysWindow::copyRows(QTableView *view) {
    QModelIndexList rows = view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    QStringList lines;
    for (const QModelIndex &r : rows)
        lines << (view == m_contentView ? m_content.rowText(r.row()) : m_keys.rowText(r.row()));
    if (!lines.isEmpty())
        QApplication::clipboard()->setText(lines.join(QLatin1Char('\n')) + QLatin1Char('\n'));
}

} // namespace semscope::ui
