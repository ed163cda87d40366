#pragma once

#include "training/FailoverLostLock.h"

#include <QWidget>

class QLabel;

namespace semscope::ui {

// The two sides of the failover-lost-lock training run next to each other: the naive one (grants
// trusted on asynchronous replication) and the replica-acknowledged one (WAIT for 1 replica). Each
// column has its verdict in one coloured line, the figures a trainer points at — over-admissions,
// the two clients' fencing tokens and whether they went backwards, refused grants and the latency
// price of client A's acquire — and what happened, step by step, as it happens.
class FailoverVerdictView : public QWidget {
    Q_OBJECT
public:
    explicit FailoverVerdictView(QWidget *parent = nullptr);

    void begin();
    // A progress line of FailoverLostLock::run ("naive: master killed …"): shown in its column.
    void addStep(const QString &line);
    void showReport(const redis::FailoverLostLock::Report &report);

    struct Column {
        QLabel *verdict = nullptr;
        QLabel *overAdmissions = nullptr;
        QLabel *tokens = nullptr;
        QLabel *refused = nullptr;
        QLabel *latency = nullptr;
        QLabel *steps = nullptr;
    };
    const Column &naive() const { return m_naive; }
    const Column &safe() const { return m_safe; }

private:
    Column buildColumn(const QString &prefix, const QString &heading, QWidget *parent);
    void showSide(Column &column, const redis::FailoverLostLock::Side &side, bool safeSide);
    void setVerdict(Column &column, const QString &text, int tone);

    Column m_naive;
    Column m_safe;
};

} // namespace semscope::ui
