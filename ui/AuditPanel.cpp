#include "AuditPanel.h"

#include <QDesktopServices>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QUrl>
#include <QVBoxLayout>

namespace semscope::ui {

AuditPanel::AuditPanel(core::AuditLog *log, QWidget *parent)
    : QWidget(parent)
    , m_model(log) {
    setObjectName(QStringLiteral("auditPanel"));
    m_proxy.setSourceModel(&m_model);
    m_proxy.setFilterKeyColumn(-1);
    m_proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *top = new QHBoxLayout;
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("auditFilter"));
    m_filter->setPlaceholderText(tr("Filter the audit log (user, semaphore, holder, result…)"));
    m_filter->setClearButtonEnabled(true);
    auto *where =
        new QLabel(QStringLiteral("<a href=\"%1\">%2</a>")
                       .arg(QUrl::fromLocalFile(QFileInfo(log->filePath()).absolutePath()).toString(),
                            log->filePath().toHtmlEscaped()),
                   this);
    where->setToolTip(tr("Every operator write is appended to this JSON-lines file."));
    where->setOpenExternalLinks(true);
    top->addWidget(m_filter, 1);
    top->addWidget(where);
    layout->addLayout(top);

    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("auditTable"));
    m_view->setModel(&m_proxy);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    m_view->horizontalHeader()->resizeSection(model::AuditLogModel::TimeColumn, 150);
    m_view->horizontalHeader()->resizeSection(model::AuditLogModel::ConnectionColumn, 220);
    m_view->horizontalHeader()->resizeSection(model::AuditLogModel::SemaphoreColumn, 180);
    m_view->horizontalHeader()->resizeSection(model::AuditLogModel::HolderColumn, 180);
    layout->addWidget(m_view, 1);

    connect(m_filter, &QLineEdit::textChanged, &m_proxy, &QSortFilterProxyModel::setFilterFixedString);
}

} // namespace semscope::ui
