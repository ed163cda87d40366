#include "ConnectionFailurePanel.h"

#include "model/StatusColors.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace semscope::ui {

bool isConnectionFailure(model::ConnectionController::State state) {
    using State = model::ConnectionController::State;
    return state == State::Failed || state == State::Lost || state == State::Reconnecting;
}

ConnectionFailurePanel::ConnectionFailurePanel(QWidget *parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("connectionFailurePanel"));
    auto *layout = new QVBoxLayout(this);
    m_headline = new QLabel(this);
    m_headline->setObjectName(QStringLiteral("connectionFailureHeadline"));
    m_headline->setTextFormat(Qt::PlainText);
    m_headline->setWordWrap(true);
    QFont bold = m_headline->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.2);
    m_headline->setFont(bold);
    m_text = new QLabel(this);
    m_text->setObjectName(QStringLiteral("connectionFailureText"));
    m_text->setTextFormat(Qt::PlainText);
    m_text->setWordWrap(true); // the whole reason, however long: the status bar cut it off
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *buttons = new QHBoxLayout;
    m_edit = new QPushButton(tr("&Edit connection…"), this);
    m_edit->setObjectName(QStringLiteral("failureEditConnection"));
    m_retry = new QPushButton(tr("Retry &now"), this);
    m_retry->setObjectName(QStringLiteral("failureRetry"));
    m_retry->setToolTip(tr("Close this connection and open it again at once"));
    buttons->addWidget(m_edit);
    buttons->addWidget(m_retry);
    buttons->addStretch(1);
    layout->addWidget(m_headline);
    layout->addWidget(m_text);
    layout->addLayout(buttons);
    connect(m_edit, &QPushButton::clicked, this, &ConnectionFailurePanel::editRequested);
    connect(m_retry, &QPushButton::clicked, this, &ConnectionFailurePanel::retryRequested);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum); // as tall as its text, at the top
    setAutoFillBackground(true);
    applyTone();
}

void ConnectionFailurePanel::showFailure(const QString &headline, const QString &text) {
    m_headline->setText(headline);
    m_text->setText(text);
}

QString ConnectionFailurePanel::failureText() const {
    return m_text->text();
}

void ConnectionFailurePanel::changeEvent(QEvent *event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyTone();
}

void ConnectionFailurePanel::applyTone() {
    // A tint for "this is wrong", the palette's own text on it so a dark theme stays legible.
    QPalette p = palette();
    const QColor tint = model::toneBackground(model::Tone::Bad, p);
    if (p.color(QPalette::Window) == tint)
        return; // set by an earlier call: a PaletteChange of our own
    p.setColor(QPalette::Window, tint);
    setPalette(p);
}

} // namespace semscope::ui
