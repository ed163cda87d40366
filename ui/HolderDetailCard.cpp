#include "HolderDetailCard.h"

#include "model/StatusColors.h"

#include "HolderDetailText.h"
#include "WrapAnywhereLabel.h"
#include "core/Duration.h"
#include "core/HolderStateText.h"
#include "model/HolderTableModel.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFormLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

namespace semscope::ui {

using namespace semscope::core;

HolderDetailCard::HolderDetailCard(QWidget *parent)
    : QFrame(parent) {
    setObjectName(QStringLiteral("holderCard"));
    setFrameShape(QFrame::StyledPanel);
    setMinimumWidth(220); // leaves the holder table room for holder, TTL and state at 1024 px
    // A Consul holder has a dozen rows, several of them wrapping: more than the card's height
    // beside a short table. They scroll, each row as high as its text; squeezed into the card, the
    // wrapped rows lost their last lines.
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_scroll = new QScrollArea(this);
    m_scroll->setObjectName(QStringLiteral("holderCardScroll"));
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_content = new QWidget(m_scroll);
    auto *layout = new QVBoxLayout(m_content);
    m_title = new WrapAnywhereLabel(m_content);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_state = new QLabel(m_content);
    m_state->setWordWrap(true);
    // A long word in the state's reason must not set the card's minimum width: the splitter keeps
    // the card narrower, and the layout, sized for the wider card, cut the wrapped rows short.
    m_state->setMinimumWidth(1);
    m_state->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    // Right under the state: "is that process still alive?" is the first question about a holder.
    m_liveness = new QLabel(m_content);
    m_liveness->setObjectName(QStringLiteral("holderLiveness"));
    m_liveness->setWordWrap(true);
    m_liveness->setMinimumWidth(1);
    m_liveness->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_liveness->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_liveness->hide();
    m_form = new QFormLayout;
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout->addWidget(m_title);
    layout->addWidget(m_state);
    layout->addWidget(m_liveness);
    layout->addLayout(m_form);
    layout->addStretch(1);
    m_scroll->setWidget(m_content);
    outer->addWidget(m_scroll);
    showHolder(nullptr, nullptr);
}

namespace {
QString time(qint64 ms) {
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}
} // namespace

void HolderDetailCard::showLiveness(const std::optional<ClientLiveness> &liveness,
                                    const QString &consequence) {
    if (!liveness) {
        m_liveness->hide();
        return;
    }
    const ClientLiveness &l = *liveness;
    const QString summary = livenessSummary(l, QDateTime::currentMSecsSinceEpoch());
    const bool consul = l.source == ClientLiveness::Source::ConsulNodeChecks;
    // The verdict in bold, the evidence (or why there is none) after it in plain weight.
    QString text = l.state == ClientLiveness::State::Unknown
                       ? QStringLiteral("<b>%1</b>")
                             .arg(consul ? tr("node health: cannot tell").toHtmlEscaped()
                                         : tr("client: cannot tell").toHtmlEscaped())
                       : QStringLiteral("<b>%1</b>").arg(summary.toHtmlEscaped());
    if (!l.evidence.isEmpty())
        text += QStringLiteral(" — ") + l.evidence.toHtmlEscaped();
    if (!consequence.isEmpty())
        text += QStringLiteral("<br>") + consequence.toHtmlEscaped();
    if (!l.limits.isEmpty())
        text += QStringLiteral("<br><i>%1</i>").arg(l.limits.toHtmlEscaped());
    if (m_liveness->text() != text)
        m_liveness->setText(text);
    m_liveness->setToolTip(
        consul
            ? tr("Asked from Consul's health checks of %1 (/v1/health/node). A session ends on a critical "
                 "check it is bound to; a critical check it is not bound to leaves it, and its slot, "
                 "standing.")
                  .arg(l.identity)
            : tr("Looked for %1 among the clients connected to the server (CLIENT LIST), as named in %2. "
                 "semscope names its connections <program>:<pid>@<host>. A program that takes a slot and "
                 "exits on "
                 "purpose (semscope-cli acquire) reads gone as well: ask its owner before force-releasing.")
                  .arg(l.identity, tr("the holder's record")));
    // Gone in the colour of trouble; connected in the colour of good news; unknown in plain text.
    QString sheet;
    if (l.state == ClientLiveness::State::Gone)
        sheet = QStringLiteral("color: %1;").arg(model::toneText(model::Tone::Bad).name());
    else if (l.state == ClientLiveness::State::Connected)
        sheet = QStringLiteral("color: %1;").arg(model::toneText(model::Tone::Good).name());
    if (m_liveness->styleSheet() != sheet)
        m_liveness->setStyleSheet(sheet);
    m_liveness->show();
}

void HolderDetailCard::showHolder(const Holder *holder, const model::HolderTableModel *model,
                                  const std::optional<ClientLiveness> &liveness) {
    if (!holder || !model) {
        showLiveness(std::nullopt, {});
        setRows({});
        m_holderId.clear();
        // Beside an empty table there is nothing to select: say what the emptiness means.
        const bool nobody = model && !model->snapshot().ref.name.isEmpty() && model->rowCount() == 0;
        if (nobody) {
            const std::optional<qint64> limit = model->snapshot().limit;
            m_title->setText(tr("No holders"));
            m_state->setText(limit ? tr("Nobody holds a slot now: %1 of %1 %2 free.")
                                         .arg(*limit)
                                         .arg(*limit == 1 ? tr("is") : tr("are"))
                                   : tr("Nobody holds a slot now."));
        } else {
            m_title->setText(tr("No holder selected"));
            m_state->setText(
                tr("Select a holder to see who it is, since when it holds, and what its state means."));
        }
        if (!m_state->styleSheet().isEmpty())
            m_state->setStyleSheet({});
        layOutNow();
        return;
    }
    m_holderId = holder->id;
    m_title->setText(holder->id);
    const HolderState state = model->effectiveState(*holder);
    // The layout's own reason (e.g. "session gone") says more than the generic description.
    const QString why = holder->details.value(QStringLiteral("why")).toString();
    m_state->setText(
        QStringLiteral("<b>%1</b> — %2")
            .arg(holderStateName(state),
                 (why.isEmpty() ? holderStateDescription(state, model->snapshot().ref.kind) : why)
                     .toHtmlEscaped()));
    m_state->setToolTip(holderStateDescription(state, model->snapshot().ref.kind));
    const bool bad = state == HolderState::ExpiredPresent || state == HolderState::Stale ||
                     state == HolderState::Orphan || state == HolderState::OverLimit;
    // Only when it changes: setStyleSheet re-polishes even with the same sheet, and this runs at
    // every read and twice a second.
    if (const QString sheet =
            bad ? QStringLiteral("color: %1;").arg(model::toneText(model::Tone::Bad).name()) : QString();
        m_state->styleSheet() != sheet)
        m_state->setStyleSheet(sheet);

    QList<Row> rows;
    auto add = [&rows](const QString &label, const QString &value, const QString &tip = {}) {
        rows.append(Row{label, value, tip});
    };
    if (holder->rawId != holder->id.toUtf8())
        add(tr("Raw id (hex)"), QString::fromLatin1(holder->rawId.toHex()),
            tr("The id is not valid text; these are its bytes."));
    if (holder->slot)
        add(tr("Slot"), QString::number(*holder->slot));
    const bool waiting = state == HolderState::Waiting;
    if (const auto place = holder->placeInLine())
        add(tr("Place in line"), QString::number(*place),
            tr("Its position among the waiters; 1 is served next."));
    else if (holder->rank)
        add(tr("Rank"), QString::number(*holder->rank),
            tr("Position in the holder order; below the limit means it holds a slot."));
    if (holder->token)
        add(tr("Token"), QString::number(*holder->token), tr("Fencing token / counter of this acquisition."));
    if (holder->acquiredAtMs)
        add(tr("Acquired"), time(*holder->acquiredAtMs));
    add(holder->acquiredAtMs ? tr("Held for") : tr("Watched for"),
        formatDurationMs(std::max<qint64>(0, model->ageMs(*holder))),
        holder->acquiredAtMs ? QString()
                             : tr("The layout does not record when it acquired: this counts from when "
                                  "semscope first saw it on this connection."));
    const auto ttl = model->ttlMs(*holder);
    // What a gone client means for the slot, so the operator need not work it out from the rows.
    QString consequence;
    if (liveness && liveness->state == ClientLiveness::State::Gone && holder->occupiesSlot()) {
        if (ttl && *ttl > 0)
            consequence = tr("Its slot stays taken until its lease runs out (in %1) or it is force-released.")
                              .arg(formatDurationMs(*ttl));
        else if (!ttl && !holder->details.contains(QStringLiteral("session")))
            consequence = tr("Its slot stays taken until it is force-released: this layout keeps no lease.");
    }
    showLiveness(liveness, consequence);
    if (ttl && waiting) {
        add(tr("Stays in line"),
            *ttl <= 0 ? tr("no longer: it stopped renewing %1 ago").arg(formatDurationMs(-*ttl))
                      : formatDurationMs(*ttl),
            tr("A waiting client renews its place while it waits; one that stops drops out of the queue "
               "when it reaches the head, or at a purge."));
        add(tr("Drops out at"), time(*holder->expiresAtMs));
    } else if (ttl) {
        add(tr("TTL"), *ttl <= 0 ? tr("expired %1 ago").arg(formatDurationMs(-*ttl)) : formatDurationMs(*ttl),
            tr("Counts down between reads from the expiry stored on the server."));
        add(tr("Expires"), time(*holder->expiresAtMs));
    } else if (const auto session = model::HolderTableModel::sessionTtlMs(*holder)) {
        add(tr("TTL"), tr("as long as its session (renewed every < %1)").arg(formatDurationMs(*session)),
            tr("A Consul holder has no expiry of its own. If its owner stops renewing the session, Consul "
               "ends it within %1–%2 and the slot is let go.")
                .arg(formatDurationMs(*session), formatDurationMs(2 * *session)));
    } else if (state == HolderState::Stale || state == HolderState::Orphan) {
        add(tr("TTL"), tr("none — the record stays until it is pruned or purged"),
            tr("Its owner is gone, but the entry is still recorded and may still count against the "
               "limit."));
    } else if (holder->details.contains(QStringLiteral("session"))) {
        add(tr("TTL"),
            tr("none — its session has no TTL: it ends when released or when a health check "
               "fails"),
            tr("A Consul session without a TTL lives as long as its node's health checks pass."));
    } else {
        add(tr("TTL"), tr("none — kept until released"),
            tr("This layout keeps no lease: a crashed holder keeps its slot until someone releases it."));
    }
    for (auto it = holder->details.cbegin(); it != holder->details.cend(); ++it) {
        if (const auto text = describeHolderDetail(it.key(), it.value()))
            add(text->label, text->value, text->toolTip);
    }
    setRows(rows);
    layOutNow();
}

void HolderDetailCard::layOutNow() {
    // Nothing to do when no text changed how the card wraps (this runs twice a second).
    if (!m_content->layout()->activate())
        return;
    // The layout alone places the rows in the content's present size, which the scroll area sets
    // only when the layout's request reaches it, on the next turn of the event loop. Until then
    // a holder with more rows than the card had shown was squeezed into the old height, its
    // wrapped lines drawn over one another (the short card at 1280x720 under a refusal banner,
    // in a grab or a paint right after the selection). Asked now, the scroll area makes the
    // content as high as the rows wrapped at its width, and scrolls what does not fit.
    QEvent request(QEvent::LayoutRequest);
    QCoreApplication::sendEvent(m_scroll, &request);
}

void HolderDetailCard::setRows(const QList<Row> &rows) {
    // Called twice a second for the live TTL: when the same fields are shown, only the texts
    // change, so the card neither flickers nor re-lays itself out.
    bool sameLabels = rows.size() == m_rows.size();
    for (int i = 0; sameLabels && i < rows.size(); ++i)
        sameLabels = rows.at(i).label == m_rows.at(i).label;
    if (!sameLabels) {
        while (m_form->rowCount() > 0)
            m_form->removeRow(0);
        m_values.clear();
        for (const Row &r : rows) {
            auto *label = new QLabel(r.label, m_content);
            // The field name is never cut; its value wraps in what width is left.
            label->setMinimumWidth(label->sizeHint().width());
            auto *value = new WrapAnywhereLabel(m_content);
            m_form->addRow(label, value);
            m_values.append(value);
            // Shown now, not on the next turn of the event loop: a grab or a paint right after
            // selecting a holder must not find an empty card.
            label->show();
            value->show();
        }
    }
    for (int i = 0; i < rows.size(); ++i) {
        if (m_values.at(i)->text() != rows.at(i).value)
            m_values.at(i)->setText(rows.at(i).value);
        m_values.at(i)->setToolTip(rows.at(i).toolTip);
        if (auto *item = m_form->itemAt(i, QFormLayout::LabelRole); item && item->widget())
            item->widget()->setToolTip(rows.at(i).toolTip);
    }
    m_rows = rows;
}

} // namespace semscope::ui
