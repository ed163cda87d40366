#include "SemaphoreHeader.h"

#include "ElidedLabel.h"
#include "EnvironmentBadge.h"

#include <QAction>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace semscope::ui {

namespace {
// Setting a style sheet re-polishes the widget even when the sheet is the same: at every read and
// every countdown tick that was a needless restyle of the gauge and the "read … ago" label.
void setStyleSheetIfChanged(QWidget *widget, const QString &sheet) {
    if (widget->styleSheet() != sheet)
        widget->setStyleSheet(sheet);
}

QLabel *banner(const QString &objectName, QWidget *parent) {
    auto *label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->hide();
    return label;
}
} // namespace

SemaphoreHeader::SemaphoreHeader(QAction *watch, QWidget *parent)
    : QWidget(parent) {
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    // First row: which connection (and its environment) the page belongs to.
    auto *where = new QHBoxLayout;
    m_badge = new EnvironmentBadge(this);
    m_connection = new QLabel(this);
    m_connection->setObjectName(QStringLiteral("pageConnection"));
    m_connection->setTextFormat(Qt::PlainText);
    m_connection->setTextInteractionFlags(Qt::TextSelectableByMouse);
    where->addWidget(m_badge);
    where->addWidget(m_connection, 1);
    layout->addLayout(where);

    // Second row: what, and the refresh controls.
    auto *row1 = new QHBoxLayout;
    m_kind = new QLabel(this);
    m_kind->setObjectName(QStringLiteral("kindLabel"));
    m_kind->setStyleSheet(QStringLiteral("QLabel { background: #37474f; color: white; border-radius: 8px; "
                                         "padding: 2px 8px; font-weight: bold; }"));
    // A long name (or "Select a semaphore on the left" in the big font) must not make the window
    // wider than a 1024 px screen: it gives way to the refresh controls, cut in the middle so both
    // ends stay readable (the tooltip has it all). ElidedLabel asks for the whole name and settles
    // for a few characters, so it is cut only when the row lacks room, not beside the stretch.
    m_name = new ElidedLabel(this);
    m_name->setObjectName(QStringLiteral("nameLabel"));
    m_name->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *watchButton = new QToolButton(this);
    watchButton->setObjectName(QStringLiteral("watchButton"));
    watchButton->setDefaultAction(watch);
    watchButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    watchButton->setAutoRaise(true);
    m_lastRead = new QLabel(this);
    m_lastRead->setObjectName(QStringLiteral("lastRead"));
    m_lastRead->setToolTip(tr("When the holders were last read from the server. TTLs count down locally in "
                              "between."));
    // Never narrower than its text: "watching · last change 1.0 s ago" was cut to "… s ag".
    m_lastRead->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Preferred);
    m_interval = new QSpinBox(this);
    m_interval->setObjectName(QStringLiteral("interval"));
    m_interval->setRange(1, 3600);
    m_interval->setValue(1);
    m_interval->setPrefix(tr("every "));
    m_interval->setSuffix(tr(" s"));
    m_interval->setToolTip(tr("Auto-refresh interval"));
    m_pauseButton = new QPushButton(tr("Pause"), this);
    m_pauseButton->setObjectName(QStringLiteral("pauseButton"));
    m_pauseButton->setCheckable(true);
    m_pauseButton->setToolTip(tr("Stop re-reading (TTLs keep counting down from the last read)"));
    auto *refreshButton = new QPushButton(tr("Refresh"), this);
    refreshButton->setToolTip(tr("Read now (F5)"));
    row1->addWidget(m_kind);
    row1->addWidget(m_name); // no stretch factor: it would share out the room the name asks for
    row1->addWidget(watchButton);
    row1->addStretch(1);
    row1->addWidget(m_lastRead);
    row1->addWidget(m_interval);
    row1->addWidget(m_pauseButton);
    row1->addWidget(refreshButton);
    layout->addLayout(row1);

    // Third row: the limit, where it comes from, and how full the semaphore is.
    auto *row2 = new QHBoxLayout;
    m_limit = new QLabel(this);
    m_limit->setObjectName(QStringLiteral("limitLabel"));
    m_profileButton = new QPushButton(tr("Edit profile…"), this);
    m_profileButton->setObjectName(QStringLiteral("profileButton"));
    m_profileButton->setToolTip(tr("Set the limit (and timeout) of a layout that does not store them"));
    auto *rawKeysButton = new QPushButton(tr("Raw keys…"), this);
    rawKeysButton->setObjectName(QStringLiteral("rawKeysButton"));
    rawKeysButton->setToolTip(tr("The keys this semaphore is made of, as stored (Ctrl+K); read-only"));
    m_gauge = new QProgressBar(this);
    m_gauge->setObjectName(QStringLiteral("gauge"));
    m_gauge->setMinimumWidth(220);
    m_gauge->setTextVisible(true);
    m_gauge->setAlignment(Qt::AlignCenter);
    row2->addWidget(m_limit);
    row2->addWidget(m_profileButton);
    row2->addWidget(rawKeysButton);
    row2->addSpacing(12);
    row2->addWidget(m_gauge, 1);
    layout->addLayout(row2);

    m_warnings = banner(QStringLiteral("warnings"), this);
    layout->addWidget(m_warnings);
    m_readOnlyBanner = banner(QStringLiteral("readOnlyBanner"), this);
    m_readOnlyBanner->setText(tr("Read-only connection: viewing only, every write is disabled."));
    m_readOnlyBanner->setWordWrap(false);
    layout->addWidget(m_readOnlyBanner);
    m_writesRefusedBanner = banner(QStringLiteral("writesRefusedBanner"), this);
    m_writesRefusedBanner->setTextFormat(Qt::PlainText);
    m_writesRefusedBanner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_writesRefusedBanner);

    connect(m_interval, &QSpinBox::valueChanged, this, &SemaphoreHeader::intervalChanged);
    connect(m_pauseButton, &QPushButton::toggled, this, &SemaphoreHeader::pauseToggled);
    connect(refreshButton, &QPushButton::clicked, this, &SemaphoreHeader::refreshClicked);
    connect(m_profileButton, &QPushButton::clicked, this, &SemaphoreHeader::profileClicked);
    connect(rawKeysButton, &QPushButton::clicked, this, &SemaphoreHeader::rawKeysClicked);
    fitToFont();
    applyTones();
}

void SemaphoreHeader::showSemaphore(const QString &kind, const QString &kindToolTip, const QString &name,
                                    model::Environment environment, bool readOnly) {
    m_kind->setText(kind);
    m_kind->setToolTip(kindToolTip);
    m_name->setFullText(name);
    m_badge->setEnvironment(environment, readOnly);
    m_badge->show();
    m_limit->setText(tr("Limit: reading…"));
    m_gauge->setRange(0, 1);
    m_gauge->setValue(0);
    m_gauge->setFormat(tr("reading…"));
    m_warnings->hide();
    m_writesRefusedBanner->hide();
    m_readOnlyBanner->setVisible(readOnly);
}

void SemaphoreHeader::showNothing() {
    m_kind->setText(tr("no semaphore"));
    m_kind->setToolTip(QString());
    m_name->setFullText(tr("Select a semaphore on the left"));
    m_badge->hide();
    m_connection->clear();
    m_profileButton->hide(); // nothing to give a profile to
    m_limit->clear();
    m_gauge->setRange(0, 1);
    m_gauge->setValue(0);
    m_gauge->setFormat(QString());
    m_gaugeTone.reset();
    applyGaugeTone();
    m_warnings->hide();
    m_readOnlyBanner->hide();
    m_writesRefusedBanner->hide();
    m_lastRead->clear();
}

void SemaphoreHeader::setPlace(const QString &text) {
    m_connection->setText(text);
}

void SemaphoreHeader::showRead(const model::SemaphoreHeaderText &text, const QStringList &warnings) {
    m_limit->setText(text.limit);
    m_limit->setToolTip(text.limitToolTip);
    m_gauge->setRange(0, text.gaugeMaximum);
    m_gauge->setValue(text.gaugeValue);
    m_gauge->setFormat(text.gaugeFormat);
    m_gaugeTone = text.gaugeTone;
    applyGaugeTone();
    m_profileButton->setVisible(text.limitFromProfile);
    m_warnings->setText(model::warningsText(warnings));
    m_warnings->setVisible(!warnings.isEmpty());
}

void SemaphoreHeader::setWritesRefused(const QString &text) {
    m_writesRefusedBanner->setText(text);
    m_writesRefusedBanner->setVisible(!text.isEmpty());
}

void SemaphoreHeader::setLastRead(const QString &text, bool late) {
    m_lastRead->setText(text);
    setStyleSheetIfChanged(m_lastRead, late ? QStringLiteral("color: %1; font-weight: bold;")
                                                  .arg(model::toneText(model::Tone::Bad, palette()).name())
                                            : QString());
}

void SemaphoreHeader::setPaused(bool paused) {
    if (m_pauseButton->isChecked() != paused)
        m_pauseButton->setChecked(paused);
    m_pauseButton->setText(paused ? tr("Resume") : tr("Pause"));
}

void SemaphoreHeader::setIntervalSeconds(int seconds) {
    if (m_interval->value() != seconds)
        m_interval->setValue(seconds);
}

void SemaphoreHeader::setIntervalApplies(bool applies) {
    // Nothing to set where the page is watched: the box goes, and its room goes to the name and
    // "watching …".
    m_interval->setVisible(applies);
}

void SemaphoreHeader::changeEvent(QEvent *event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        fitToFont();
    if (event->type() == QEvent::PaletteChange)
        applyTones();
}

void SemaphoreHeader::fitToFont() {
    QFont big = font();
    big.setPointSizeF(big.pointSizeF() * 1.35);
    big.setBold(true);
    m_name->setFont(big);
    // "read 999 ms ago" changes every tick: room for the longest, or the big name squeezes it.
    m_lastRead->setMinimumWidth(m_lastRead->fontMetrics().horizontalAdvance(tr("read 999 ms ago")) + 4);
}

void SemaphoreHeader::applyTones() {
    // From the palette in use, so a dark theme keeps the banners legible (StatusColors).
    using model::Tone;
    // The palette's own text on a tint: the tint says the tone, the text stays at full contrast.
    const QString text = palette().color(QPalette::Text).name();
    const QString sheet = QStringLiteral("QLabel { color: %1; background: %2; padding: 4px; }");
    m_warnings->setStyleSheet(sheet.arg(text, model::toneBackground(Tone::Bad, palette()).name()));
    m_readOnlyBanner->setStyleSheet(sheet.arg(text, model::toneBackground(Tone::Info, palette()).name()));
    m_writesRefusedBanner->setStyleSheet(
        sheet.arg(text, model::toneBackground(Tone::Caution, palette()).name()));
    applyGaugeTone();
}

void SemaphoreHeader::applyGaugeTone() {
    if (!m_gaugeTone) {
        setStyleSheetIfChanged(m_gauge, {});
        return;
    }
    // A style sheet for the chunk styles the whole bar: its groove takes the palette's base
    // (it was white under a dark theme).
    setStyleSheetIfChanged(
        m_gauge, QStringLiteral("QProgressBar { background: %2; color: %3; border: 1px solid "
                                "%4; border-radius: 3px; text-align: center; } "
                                "QProgressBar::chunk { background: %1; }")
                     .arg(model::toneFill(*m_gaugeTone).name(), palette().color(QPalette::Base).name(),
                          palette().color(QPalette::Text).name(), palette().color(QPalette::Mid).name()));
}

} // namespace semscope::ui
