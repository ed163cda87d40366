#include "SemaphoreListPane.h"

#include "ElideMiddleDelegate.h"
#include "HeaderFit.h"
#include "SpareWidth.h"
#include "UsageBarDelegate.h"
#include "WindowSettings.h"
#include "core/CountText.h"
#include "model/ConnectionSession.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace semscope::ui {

using namespace semscope::core;
using model::ConnectionSession;

SemaphoreListPane::SemaphoreListPane(const QString &settingsFile, QWidget *parent)
    : QWidget(parent)
    , m_settingsFile(settingsFile) {
    setObjectName(QStringLiteral("semaphoreListPane"));
    auto *semLayout = new QVBoxLayout(this);
    semLayout->setContentsMargins(0, 0, 0, 0);
    auto *filterRow = new QHBoxLayout;
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("semaphoreFilter"));
    m_filter->setPlaceholderText(tr("Filter semaphores (Ctrl+F)"));
    m_filter->setClearButtonEnabled(true);
    m_kindFilter = new QComboBox(this);
    m_kindFilter->setObjectName(QStringLiteral("kindFilter"));
    m_kindFilter->addItem(tr("All kinds"), -1);
    for (const QString &name : allKindNames())
        m_kindFilter->addItem(name, int(*kindFromName(name)));
    filterRow->addWidget(m_filter, 1);
    filterRow->addWidget(m_kindFilter);
    semLayout->addLayout(filterRow);
    auto *filterRow2 = new QHBoxLayout;
    m_staleOnly = new QCheckBox(tr("Stale only"), this);
    m_staleOnly->setObjectName(QStringLiteral("staleOnly"));
    m_staleOnly->setToolTip(
        tr("Only semaphores with holders that need attention: expired but still recorded, "
           "owner gone, orphaned, or over the limit"));
    m_expiring = new QCheckBox(tr("Expiring within"), this);
    m_expiring->setObjectName(QStringLiteral("expiringWithin"));
    m_expiringSeconds = new QSpinBox(this);
    m_expiringSeconds->setRange(1, 86400);
    m_expiringSeconds->setValue(10);
    m_expiringSeconds->setSuffix(tr(" s"));
    filterRow2->addWidget(m_staleOnly);
    filterRow2->addStretch(1);
    filterRow2->addWidget(m_expiring);
    filterRow2->addWidget(m_expiringSeconds);
    semLayout->addLayout(filterRow2);

    m_discoveryBar = new QWidget(this);
    auto *discLayout = new QHBoxLayout(m_discoveryBar);
    discLayout->setContentsMargins(0, 0, 0, 0);
    m_discoveryLabel = new QLabel(m_discoveryBar);
    m_discoveryLabel->setObjectName(QStringLiteral("discoveryLabel"));
    m_discoveryProgress = new QProgressBar(m_discoveryBar);
    m_discoveryProgress->setObjectName(QStringLiteral("discoveryProgress"));
    m_discoveryCancel = new QPushButton(tr("Cancel"), m_discoveryBar);
    m_discoveryCancel->setObjectName(QStringLiteral("discoveryCancel"));
    discLayout->addWidget(m_discoveryLabel);
    discLayout->addWidget(m_discoveryProgress, 1);
    discLayout->addWidget(m_discoveryCancel);
    m_discoveryBar->hide();
    semLayout->addWidget(m_discoveryBar);
    connect(m_discoveryCancel, &QPushButton::clicked, this, [this] {
        if (auto *s = m_session)
            s->cancelDiscovery();
    });

    m_semaphoreView = new QTableView(this);
    m_semaphoreView->setObjectName(QStringLiteral("semaphoreTable"));
    m_semaphoreView->setSortingEnabled(true);
    m_semaphoreView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_semaphoreView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_semaphoreView->verticalHeader()->hide();
    m_semaphoreView->verticalHeader()->setDefaultSectionSize(m_semaphoreView->fontMetrics().height() + 8);
    m_semaphoreView->horizontalHeader()->setStretchLastSection(true);
    // The name first, then "empty since 23:10" of a kept semaphore, "1 (+2 waiting)" and the
    // master, before the last column spreads out.
    m_semaphoreSpareWidth = new SpareWidthKeeper(
        m_semaphoreView,
        {model::SemaphoreListModel::NameColumn, model::SemaphoreListModel::UsageColumn,
         model::SemaphoreListModel::HoldersColumn, model::SemaphoreListModel::NodeColumn},
        48);
    m_semaphoreView->setItemDelegateForColumn(model::SemaphoreListModel::UsageColumn,
                                              new UsageBarDelegate(m_semaphoreView));
    m_semaphoreView->setItemDelegateForColumn(model::SemaphoreListModel::NodeColumn,
                                              new ElideMiddleDelegate(m_semaphoreView));
    m_semaphoreView->setWordWrap(false);
    // Tab goes on to the next pane (it used to walk the cells, opening each semaphore on the way).
    m_semaphoreView->setTabKeyNavigation(false);
    m_semaphoreView->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_semaphoreView, &QWidget::customContextMenuRequested, this, &SemaphoreListPane::showContextMenu);
    semLayout->addWidget(m_semaphoreView, 1);

    connect(m_filter, &QLineEdit::textChanged, this, &SemaphoreListPane::applyFilters);
    connect(m_kindFilter, &QComboBox::currentIndexChanged, this, &SemaphoreListPane::applyFilters);
    connect(m_staleOnly, &QCheckBox::toggled, this, &SemaphoreListPane::applyFilters);
    connect(m_expiring, &QCheckBox::toggled, this, &SemaphoreListPane::applyFilters);
    connect(m_expiringSeconds, &QSpinBox::valueChanged, this, &SemaphoreListPane::applyFilters);
}

void SemaphoreListPane::showContextMenu(const QPoint &pos) {
    if (!m_contextActions)
        return;
    QMenu menu(window());
    const QList<QAction *> actions = m_contextActions(m_semaphoreView->indexAt(pos));
    for (QAction *a : actions) {
        if (a)
            menu.addAction(a);
        else
            menu.addSeparator();
    }
    menu.exec(m_semaphoreView->viewport()->mapToGlobal(pos));
    for (QAction *a : actions) {
        if (a && a->objectName() == QLatin1String("semaphoreContextAction"))
            a->deleteLater();
    }
}

void SemaphoreListPane::showSession(ConnectionSession *s) {
    m_session = s;
    QAbstractItemModel *wanted = s ? &s->proxy : nullptr;
    if (m_semaphoreView->model() != wanted) {
        m_semaphoreView->setModel(wanted);
        m_semaphoreSpareWidth->follow(wanted);
        // setModel made a new selection model: connect to it once.
        if (s) {
            connect(m_semaphoreView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
                    [this](const QModelIndex &current) { Q_EMIT currentRowChanged(current); });
        }
    }
    if (s) {
        auto *header = m_semaphoreView->horizontalHeader();
        fitColumns();
        const QByteArray saved =
            openWindowSettings(m_settingsFile)->value(QStringLiteral("window/semaphoreHeader")).toByteArray();
        if (!saved.isEmpty())
            header->restoreState(saved);
        // How many holders need attention is a number, next to the usage: it stays in view when
        // the list is narrow.
        header->moveSection(header->visualIndex(model::SemaphoreListModel::StaleColumn),
                            header->visualIndex(model::SemaphoreListModel::UsageColumn) + 1);
        // The warnings are a narrow "⚠ 2" just before the name (the text is in the tooltip and on
        // the page): they used to be last, and off screen even at 1600 px.
        header->moveSection(header->visualIndex(model::SemaphoreListModel::WarningsColumn),
                            header->visualIndex(model::SemaphoreListModel::NameColumn));
        // On a Cluster, where a semaphore lives comes right after how full it is: as the last
        // column it was off screen in the usual list width.
        header->moveSection(header->visualIndex(model::SemaphoreListModel::NodeColumn),
                            header->visualIndex(model::SemaphoreListModel::StaleColumn) + 1);
        updateNodeColumn();
        header->resizeSection(
            model::SemaphoreListModel::WarningsColumn,
            std::max(header->sectionSizeHint(model::SemaphoreListModel::WarningsColumn),
                     m_semaphoreView->fontMetrics().horizontalAdvance(QStringLiteral("⚠ 99")) + 12));
    }
    applyFilters();
}

void SemaphoreListPane::letGoOf(ConnectionSession *s) {
    if (m_session == s)
        m_session = nullptr;
    if (m_semaphoreView->model() == &s->proxy)
        m_semaphoreView->setModel(nullptr);
}

void SemaphoreListPane::applyFilters() {
    ConnectionSession *s = m_session;
    if (!s)
        return;
    s->proxy.setText(m_filter->text());
    const int kind = m_kindFilter->currentData().toInt();
    s->proxy.setKind(kind < 0 ? std::nullopt : std::optional<Kind>(Kind(kind)));
    s->proxy.setStaleOnly(m_staleOnly->isChecked());
    s->proxy.setExpiringWithinSeconds(m_expiring->isChecked() ? std::optional<int>(m_expiringSeconds->value())
                                                              : std::nullopt);
}

void SemaphoreListPane::selectSemaphore(ConnectionSession *s, const SemaphoreRef &ref) {
    const int row = s->list.rowOf(ref);
    const QModelIndex proxyIndex = row >= 0 ? s->proxy.mapFromSource(s->list.index(row, 0)) : QModelIndex();
    if (proxyIndex.isValid())
        m_semaphoreView->selectionModel()->setCurrentIndex(proxyIndex, QItemSelectionModel::ClearAndSelect |
                                                                           QItemSelectionModel::Rows);
}

void SemaphoreListPane::showScanProgress(ConnectionSession *s) {
    // Always from the session's own state: the bar is shared by every connection, and one selected
    // mid-scan showed the last connection's count until its own next page came in.
    const bool shown = s && s->isDiscovering() && !s->isBackgroundDiscovery();
    m_discoveryBar->setVisible(shown);
    if (!shown)
        return;
    const ConnectionSession::ScanProgress p = s->scanProgress();
    if (p.matchedOnly && p.walked >= 0) {
        // Only matches come back: how far the walk is comes from the scan's cursor.
        m_discoveryProgress->setRange(0, 1000);
        m_discoveryProgress->setValue(int(std::clamp(p.walked, 0.0, 1.0) * 1000));
    } else if (p.total > 0 && !p.matchedOnly) {
        m_discoveryProgress->setRange(0, 1000);
        m_discoveryProgress->setValue(int(std::min<qint64>(1000, p.scanned * 1000 / p.total)));
    } else {
        m_discoveryProgress->setRange(0, 0);
    }
    // "Scanning: 12 keys" as the walk goes; a scan that reports only matches says so.
    const QString keys = p.matchedOnly ? ConnectionSession::scannedKeysText(p.scanned, true)
                                       : core::countText(p.scanned, tr("key"), tr("keys"));
    m_discoveryLabel->setText(p.scanned < 0 ? tr("Scanning…")
                                            : tr("Scanning: %1, %2 found").arg(keys).arg(p.found));
}

void SemaphoreListPane::hideScanProgress() {
    m_discoveryBar->hide();
}

void SemaphoreListPane::focusFilter() {
    m_filter->setFocus();
    m_filter->selectAll();
}

QByteArray SemaphoreListPane::saveHeaderState() const {
    return m_semaphoreView->model() ? m_semaphoreView->horizontalHeader()->saveState() : QByteArray();
}

void SemaphoreListPane::fitColumns() {
    // In units of the font, so the columns grow with View > Zoom.
    auto *header = m_semaphoreView->horizontalHeader();
    const QFontMetrics fm = m_semaphoreView->fontMetrics();
    const int ch = std::max(6, fm.averageCharWidth());
    int kindWidth = 0;
    for (const QString &name : allKindNames())
        kindWidth = std::max(kindWidth, fm.horizontalAdvance(name) + 16);
    fitHeaderSections(
        header,
        {{model::SemaphoreListModel::KindColumn, kindWidth},
         {model::SemaphoreListModel::NameColumn, 21 * ch},
         // Room for the bar's "12 / 20"; a kept semaphore's "empty since 23:10" grows it where there
         // is room (the spare-width keeper), so the stale count beside it stays in view at 1280x720.
         {model::SemaphoreListModel::UsageColumn, 12 * ch},
         {model::SemaphoreListModel::ExpiryColumn, 16 * ch},
         {model::SemaphoreListModel::WarningsColumn, fm.horizontalAdvance(QStringLiteral("⚠ 99")) + 12}});
}

void SemaphoreListPane::updateNodeColumn() {
    ConnectionSession *s = m_session;
    m_semaphoreView->setColumnHidden(model::SemaphoreListModel::NodeColumn, !s || !s->list.hasClusterNodes());
}

void SemaphoreListPane::changeEvent(QEvent *event) {
    QWidget::changeEvent(event);
    // Zoomed (View > Zoom): rows as high as the text, no header cut off.
    if (event->type() == QEvent::FontChange && m_semaphoreView) {
        m_semaphoreView->verticalHeader()->setDefaultSectionSize(m_semaphoreView->fontMetrics().height() + 8);
        fitColumns();
    }
}

} // namespace semscope::ui
