#pragma once

#include "model/AuditLogModel.h"

#include <QSortFilterProxyModel>
#include <QWidget>

class QLineEdit;
class QTableView;

namespace semscope::ui {

// The audit log of operator writes, newest first, with a text filter and the file's location.
class AuditPanel : public QWidget {
    Q_OBJECT
public:
    AuditPanel(core::AuditLog *log, QWidget *parent = nullptr);
    QTableView *view() const { return m_view; }
    model::AuditLogModel *model() { return &m_model; }

private:
    model::AuditLogModel m_model;
    QSortFilterProxyModel m_proxy;
    QLineEdit *m_filter;
    QTableView *m_view;
};

} // namespace semscope::ui
