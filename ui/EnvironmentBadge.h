#pragma once

#include "model/ConnectionConfig.h"

#include <QLabel>

class QHBoxLayout;

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

// The top line of a window that acts on one connection: `titleHtml` (named `titleObjectName`) and
// the connection's environment badge on the right, so it is always clear where an action goes.
QHBoxLayout *connectionHeader(QWidget *owner, const QString &titleHtml, const QString &titleObjectName,
                              const model::ConnectionConfig &config);

} // namespace semscope::ui
