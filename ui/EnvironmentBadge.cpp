#include "EnvironmentBadge.h"

#include <QHBoxLayout>

namespace semscope::ui {

EnvironmentBadge::EnvironmentBadge(QWidget *parent)
    : QLabel(parent) {
    setEnvironment(model::Environment::Development);
}

QColor EnvironmentBadge::colorFor(model::Environment environment) {
    switch (environment) {
    case model::Environment::Development:
        return QColor(0x2e, 0x7d, 0x32);
    case model::Environment::Staging:
        return QColor(0xb2, 0x6a, 0x00);
    case model::Environment::Production:
        return QColor(0xc6, 0x28, 0x28);
    }
    return Qt::gray;
}

void EnvironmentBadge::setEnvironment(model::Environment environment, bool readOnly) {
    QString text = model::environmentName(environment).toUpper();
    if (readOnly)
        text += QStringLiteral(" · READ-ONLY");
    setText(text);
    setStyleSheet(
        QStringLiteral("QLabel { background: %1; color: white; border-radius: 8px; padding: 2px 8px; "
                       "font-weight: bold; }")
            .arg(colorFor(environment).name()));
    setToolTip(environment == model::Environment::Production
                   ? QStringLiteral("Production: force-release asks you to type the semaphore name.")
                   : QStringLiteral("Environment tag of this connection."));
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
}

QHBoxLayout *connectionHeader(QWidget *owner, const QString &titleHtml, const QString &titleObjectName,
                              const model::ConnectionConfig &config) {
    auto *head = new QHBoxLayout;
    auto *title = new QLabel(titleHtml, owner);
    title->setObjectName(titleObjectName);
    auto *badge = new EnvironmentBadge(owner);
    badge->setEnvironment(config.environment, config.readOnly);
    head->addWidget(title, 1);
    head->addWidget(badge);
    return head;
}

} // namespace semscope::ui
