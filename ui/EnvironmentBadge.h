#pragma once

#include "model/ConnectionConfig.h"

#include <QLabel>

namespace semscope::ui {

// A coloured pill naming a connection's environment (green development, amber staging, red
// production) and, when set, READ-ONLY: so nobody mistakes production for a sandbox at 3 a.m.
class EnvironmentBadge : public QLabel {
    Q_OBJECT
public:
    explicit EnvironmentBadge(QWidget *parent = nullptr);
    void setEnvironment(model::Environment environment, bool readOnly = false);

    static QColor colorFor(model::Environment environment);
};

} // namespace semscope::ui
