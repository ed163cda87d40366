#pragma once

#include "core/SemaphoreTypes.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace semscope::ui {

// Edits what semscope keeps about a semaphore whose layout does not store it (its limit, the
// `fair` timeout and outer lock key, the unit of ZSET scores). Saved in semscope's settings, never in the
// server.
class ProfileDialog : public QDialog {
    Q_OBJECT
public:
    ProfileDialog(const core::SemaphoreRef &ref, QWidget *parent = nullptr);
    core::SemaphoreProfile profile() const;

private:
    QCheckBox *m_hasLimit;
    QSpinBox *m_limit;
    QLineEdit *m_timeout;
    QComboBox *m_unit;
    QLineEdit *m_outerLockKey; // kept (hidden) for other kinds, so saving never drops it
};

} // namespace semscope::ui
