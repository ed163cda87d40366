#include "HolderDetailCard.h"

#include "core/Duration.h"
#include "model/HolderTableModel.h"

#include <QDateTime>
#include <QFormLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QVBoxLayout>

namespace semscope::ui {

using namespace semscope::core;

HolderDetailCard::HolderDetailCard(QWidget *parent)
    : QFrame(parent) {
    setObjectName(QStringLiteral("holderCard"));
    setFrameShape(QFrame::StyledPanel);
    setMinimumWidth(250);
    auto *layout = new QVBoxLayout(this);
    m_title = new QLabel(this);
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_state = new QLabel(this);
    m_state->setWordWrap(true);
    m_form = new QFormLayout;
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout->addWidget(m_title);
    layout->addWidget(m_state);
    layout->addLayout(m_form);
    layout->addStretch(1);
    showHolder(nullptr, nullptr);
}

namespace {
QString time(qint64 ms) {
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString detailText(const QVariant &v) {
    if (v.typeId() == QMetaType::QVariantMap || v.typeId() == QMetaType::QVariantList)
        return QString::fromUtf8(QJsonDocument::fromVariant(v).toJson(QJsonDocument::Compact));
    if (v.typeId() == QMetaType::QStringList)
        return v.toStringList().join(QStringLiteral(", "));
    return v.toString();
}
} // namespace

void HolderDetailCard::showHolder(const Holder *holder, const model::HolderTableModel *model) {
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    if (!holder || !model) {
        m_holderId.clear();
        m_title->setText(tr("<b>No holder selected</b>"));
        m_state->setText(
            tr("Select a holder to see who it is, since when it holds, and what its state means."));
        m_state->setStyleSheet({});
        return;
    }
    m_holderId = holder->id;
    m_title->setText(QStringLiteral("<b>%1</b>").arg(holder->id.toHtmlEscaped()));
    const HolderState state = model->effectiveState(*holder);
    m_state->setText(
        QStringLiteral("<b>%1</b> — %2").arg(holderStateName(state), holderStateDescription(state)));
    const bool bad = state == HolderState::ExpiredPresent || state == HolderState::Stale ||
                     state == HolderState::Orphan || state == HolderState::OverLimit;
    m_state->setStyleSheet(bad ? QStringLiteral("color: #9b1c1c;") : QString());

    auto add = [this](const QString &label, const QString &value) {
        auto *l = new QLabel(value, this);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        l->setWordWrap(true);
        m_form->addRow(label, l);
    };
    if (holder->rawId != holder->id.toUtf8())
        add(tr("Raw id (hex)"), QString::fromLatin1(holder->rawId.toHex()));
    if (holder->slot)
        add(tr("Slot"), QString::number(*holder->slot));
    if (holder->rank)
        add(tr("Rank"), QString::number(*holder->rank));
    if (holder->token)
        add(tr("Token"), QString::number(*holder->token));
    if (holder->acquiredAtMs)
        add(tr("Acquired"), time(*holder->acquiredAtMs));
    add(holder->acquiredAtMs ? tr("Held for") : tr("Seen for"),
        formatDurationMs(std::max<qint64>(0, model->ageMs(*holder))));
    if (!holder->acquiredAtMs)
        m_form->itemAt(m_form->rowCount() - 1, QFormLayout::FieldRole)
            ->widget()
            ->setToolTip(
                tr("The layout does not record when it acquired: this counts from when semscope first "
                   "saw it on this connection."));
    const auto ttl = model->ttlMs(*holder);
    if (ttl) {
        add(tr("TTL"),
            *ttl <= 0 ? tr("expired %1 ago").arg(formatDurationMs(-*ttl)) : formatDurationMs(*ttl));
        add(tr("Expires"), time(*holder->expiresAtMs));
    } else {
        add(tr("TTL"), tr("none — kept until released"));
    }
    static const QHash<QString, QString> labels{
        {QStringLiteral("sessionName"), tr("Session name")},
        {QStringLiteral("session"), tr("Session ID")},
        {QStringLiteral("node"), tr("Node")},
        {QStringLiteral("behavior"), tr("Behavior")},
        {QStringLiteral("checks"), tr("Health checks")},
        {QStringLiteral("ttl"), tr("Session TTL")},
        {QStringLiteral("lockDelayMs"), tr("Lock delay (ms)")},
        {QStringLiteral("contenderKey"), tr("Contender key")},
        {QStringLiteral("contenderModifyIndex"), tr("Contender index")},
        {QStringLiteral("client"), tr("Client")},
    };
    for (auto it = holder->details.cbegin(); it != holder->details.cend(); ++it)
        add(labels.value(it.key(), it.key()), detailText(it.value()));
}

} // namespace semscope::ui
