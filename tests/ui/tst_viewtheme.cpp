// Issue 16 item 10d: the GUI follows the system palette (a dark theme keeps every status colour
// legible; the charts are not white boxes) and zooms for a projector (View > Zoom, Ctrl++ / Ctrl+-
// / Ctrl+0, every window, remembered). Saves light, dark and zoomed screenshots for review.

#include "DemoFixture.h"
#include "TestMain.h"
#include "model/StatusColors.h"
#include "ui/AuditPanel.h"
#include "ui/ElidedLabel.h"
#include "ui/ViewZoom.h"
#include "ui/loadtest/LoadTestWindow.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QRegularExpression>
#include <QSettings>
#include <QTableView>
#include <QToolButton>
#include <QtTest>

using namespace semscope;
using core::Kind;

namespace {
QPalette darkPalette() {
    QPalette p;
    const QColor window(0x2d, 0x2d, 0x2d), base(0x1e, 0x1e, 0x1e), text(0xe6, 0xe6, 0xe6);
    for (QPalette::ColorGroup g : {QPalette::Active, QPalette::Inactive}) {
        p.setColor(g, QPalette::Window, window);
        p.setColor(g, QPalette::WindowText, text);
        p.setColor(g, QPalette::Base, base);
        p.setColor(g, QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
        p.setColor(g, QPalette::Text, text);
        p.setColor(g, QPalette::Button, window);
        p.setColor(g, QPalette::ButtonText, text);
        p.setColor(g, QPalette::ToolTipBase, base);
        p.setColor(g, QPalette::ToolTipText, text);
        p.setColor(g, QPalette::Highlight, QColor(0x2a, 0x82, 0xda));
        p.setColor(g, QPalette::HighlightedText, Qt::white);
        p.setColor(g, QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
    }
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    return p;
}

QColor colorOf(const QVariant &v) {
    return v.canConvert<QBrush>() ? v.value<QBrush>().color() : v.value<QColor>();
}
} // namespace

class TestViewTheme : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void lightScreens();
    void darkPaletteKeepsEveryStatusLegible();
    void zoomGrowsEveryWindowAndIsRemembered();
    void headerTextIsWholeAt1280_data();
    void headerTextIsWholeAt1280();
    void zoomedHeaderShowsTheWholeName_data();
    void zoomedHeaderShowsTheWholeName();

private:
    bool save(QWidget *w, const QString &name);
    void showPrinters();
    void checkLegible(const QAbstractItemModel *model, const QPalette &palette, const char *what);

    QString m_dir;
    QPalette m_original;
    std::unique_ptr<test::DemoFixture> m_demo;
    model::ConnectionSession *m_redis = nullptr;
};

void TestViewTheme::initTestCase() {
    QApplication::setStyle(QStringLiteral("Fusion")); // a style that draws with the palette
    m_original = QApplication::palette();
    m_dir = QStringLiteral(SEMSCOPE_SCREENSHOT_DIR);
    QVERIFY(QDir().mkpath(m_dir));
    m_demo = std::make_unique<test::DemoFixture>();
    QVERIFY2(m_demo->start(true), "the demo sandbox did not start");
    m_demo->window->resize(1280, 720);
    m_demo->window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_demo->window.get()));
    QVERIFY(m_demo->open(m_demo->sandbox->consulConnection()));
    m_redis = m_demo->open(m_demo->sandbox->redisConnection());
    QVERIFY(m_redis);
}

void TestViewTheme::cleanupTestCase() {
    m_demo.reset();
    QApplication::setPalette(m_original);
}

bool TestViewTheme::save(QWidget *w, const QString &name) {
    return w->grab().save(m_dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

void TestViewTheme::showPrinters() {
    auto *page = m_demo->window->semaphorePage();
    core::SemaphoreRef printers{Kind::Slots, QStringLiteral("demo:printers"), {}};
    QVERIFY(m_demo->window->openSemaphore(m_demo->sandbox->redisConnection().id, printers));
    // The crashed holder turns stale a few seconds in (the profile's threshold): a tinted row.
    QTRY_VERIFY_WITH_TIMEOUT(page->holderModel()->rowOf("crashed-worker-7") >= 0, 30000);
    const int row = page->holderModel()->rowOf("crashed-worker-7");
    QTRY_COMPARE_WITH_TIMEOUT(page->holderModel()
                                  ->index(row, model::HolderTableModel::StateColumn)
                                  .data(model::HolderTableModel::StateRole)
                                  .toInt(),
                              int(core::HolderState::Stale), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(page->history()->samples().size() >= 3, 30000);
}

void TestViewTheme::checkLegible(const QAbstractItemModel *model, const QPalette &palette, const char *what) {
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    int tinted = 0;
    for (int r = 0; r < model->rowCount(); ++r) {
        for (int c = 0; c < model->columnCount(); ++c) {
            const QModelIndex i = model->index(r, c);
            const QVariant bg = i.data(Qt::BackgroundRole);
            const QVariant fg = i.data(Qt::ForegroundRole);
            const QColor back = bg.isValid() ? colorOf(bg) : base;
            const QColor front = fg.isValid() ? colorOf(fg) : text;
            tinted += bg.isValid() ? 1 : 0;
            QVERIFY2(model::contrastRatio(front, back) >= 4.5,
                     qPrintable(QStringLiteral("%1 row %2 column %3: %4 on %5")
                                    .arg(QLatin1String(what))
                                    .arg(r)
                                    .arg(c)
                                    .arg(front.name(), back.name())));
            if (bg.isValid()) // a tint of this palette's base, not a fixed light colour
                QCOMPARE(model::isDarkPalette(palette), model::contrastRatio(back, Qt::black) < 7.0);
        }
    }
    Q_UNUSED(tinted);
}

void TestViewTheme::lightScreens() {
    showPrinters();
    checkLegible(m_demo->window->semaphorePage()->holderModel(), QApplication::palette(), "light holders");
    QVERIFY(save(m_demo->window.get(), QStringLiteral("light-stuck-slots-holder")));
    // The training room's projector: both windows at 1280x720 less the panels.
    m_demo->window->resize(1264, 672);
    QTRY_COMPARE(m_demo->window->size(), QSize(1264, 672));
    QVERIFY(save(m_demo->window.get(), QStringLiteral("projector-main-window")));
    ui::LoadTestWindow *loadTest = m_demo->window->openLoadTest(false);
    QVERIFY(loadTest);
    loadTest->resize(1264, 672);
    QVERIFY(QTest::qWaitForWindowExposed(loadTest));
    QTRY_COMPARE(loadTest->size(), QSize(1264, 672));
    QVERIFY(save(loadTest, QStringLiteral("projector-load-test")));
    loadTest->close();
    m_demo->window->resize(1280, 720);
}

void TestViewTheme::darkPaletteKeepsEveryStatusLegible() {
    QApplication::setPalette(darkPalette());
    const QPalette dark = QApplication::palette();
    QVERIFY(model::isDarkPalette(dark));
    showPrinters();
    auto *page = m_demo->window->semaphorePage();
    QTRY_VERIFY_WITH_TIMEOUT(page->holderModel()->rowCount() > 0, 30000);
    checkLegible(page->holderModel(), dark, "dark holders");
    checkLegible(&m_redis->list, dark, "dark semaphore list");
    checkLegible(m_demo->window->auditPanel()->findChild<QTableView *>()
                     ? m_demo->window->auditPanel()->findChild<QTableView *>()->model()
                     : &m_redis->list,
                 dark, "dark audit log");
    // The charts take the palette: no white box in a dark window.
    const auto charts = page->findChildren<QChartView *>();
    QVERIFY(!charts.isEmpty());
    for (QChartView *view : charts) {
        QTRY_COMPARE(view->chart()->backgroundBrush().color(), dark.color(QPalette::Base));
        QTRY_COMPARE(view->chart()->titleBrush().color(), dark.color(QPalette::Text));
    }
    // Banners on the page: the palette's text on a dark tint.
    for (QLabel *label : page->findChildren<QLabel *>()) {
        const QString sheet = label->styleSheet();
        QRegularExpressionMatch bg =
            QRegularExpression(QStringLiteral("background: (#[0-9a-f]{6})")).match(sheet);
        QRegularExpressionMatch fg =
            QRegularExpression(QStringLiteral("(?:^|[ ;{])color: (#[0-9a-f]{6}|white)")).match(sheet);
        const QColor back = bg.hasMatch() ? QColor(bg.captured(1)) : dark.color(QPalette::Window);
        const QColor front = fg.hasMatch() ? QColor(fg.captured(1)) : dark.color(QPalette::WindowText);
        QVERIFY2(model::contrastRatio(front, back) >= 4.5,
                 qPrintable(label->objectName() + QStringLiteral(": ") + sheet));
    }
    QVERIFY(save(m_demo->window.get(), QStringLiteral("dark-stuck-slots-holder")));
    ui::LoadTestWindow *training = m_demo->window->openLoadTest(true);
    QVERIFY(training);
    QVERIFY(QTest::qWaitForWindowExposed(training));
    for (QChartView *view : training->findChildren<QChartView *>())
        QTRY_COMPARE(view->chart()->backgroundBrush().color(), dark.color(QPalette::Base));
    QVERIFY(save(training, QStringLiteral("dark-training")));
    training->close();
    QApplication::setPalette(m_original);
}

void TestViewTheme::zoomGrowsEveryWindowAndIsRemembered() {
    auto *window = m_demo->window.get();
    ui::ViewZoom *zoom = window->zoom();
    QVERIFY(zoom);
    QCOMPARE(zoom->percent(), 100);
    const qreal base = QApplication::font().pointSizeF();
    auto *page = window->semaphorePage();
    auto *name = page->findChild<QLabel *>(QStringLiteral("nameLabel"));
    QVERIFY(name);
    const qreal nameBefore = name->font().pointSizeF();

    // Ctrl++ three times (Ctrl+= is the same key without Shift), from the main window.
    window->activateWindow();
    for (int i = 0; i < 3; ++i) {
        const int before = zoom->percent();
        QTest::keyClick(window, Qt::Key_Equal, Qt::ControlModifier);
        if (zoom->percent() == before) // no active window on some offscreen setups
            zoom->zoomInAction()->trigger();
    }
    QCOMPARE(zoom->percent(), 130);
    QCOMPARE(QApplication::font().pointSizeF(), base * 1.3);
    QTRY_VERIFY(name->font().pointSizeF() > nameBefore * 1.25);
    QTableView *holders = page->holderView();
    QVERIFY(holders->verticalHeader()->defaultSectionSize() >= holders->fontMetrics().height());
    for (int c = 0; c < holders->model()->columnCount(); ++c) {
        const QString title = holders->model()->headerData(c, Qt::Horizontal).toString();
        if (!holders->isColumnHidden(c))
            QVERIFY2(holders->columnWidth(c) >= holders->fontMetrics().horizontalAdvance(title),
                     qPrintable(title));
    }
    // Every window: the load-test window opened now is zoomed too, and Ctrl+0 works from it.
    ui::LoadTestWindow *loadTest = window->openLoadTest(false);
    QVERIFY(loadTest);
    loadTest->resize(1264, 672);
    QVERIFY(QTest::qWaitForWindowExposed(loadTest));
    QCOMPARE(loadTest->font().pointSizeF(), base * 1.3);
    for (QChartView *view : loadTest->findChildren<QChartView *>())
        QTRY_VERIFY(view->chart()->titleFont().pointSizeF() >= base * 1.3 - 0.01);
    QVERIFY(save(loadTest, QStringLiteral("zoomed-load-test")));
    QVERIFY(save(window, QStringLiteral("zoomed-main-window")));

    // Remembered: the next start (a new window on the same settings) opens at 130 %.
    QCOMPARE(QSettings(m_demo->dir.path() + QStringLiteral("/window.ini"), QSettings::IniFormat)
                 .value(QStringLiteral("view/zoomPercent"))
                 .toInt(),
             130);
    loadTest->activateWindow();
    QTest::keyClick(loadTest, Qt::Key_0, Qt::ControlModifier);
    if (zoom->percent() != 100)
        zoom->resetAction()->trigger();
    QCOMPARE(zoom->percent(), 100);
    QCOMPARE(QApplication::font().pointSizeF(), base);
    loadTest->close();
    // Bounded: no zooming into nothing or beyond a screen.
    for (int i = 0; i < 20; ++i)
        zoom->zoomOut();
    QCOMPARE(zoom->percent(), ui::ViewZoom::kMinPercent);
    QVERIFY(!zoom->zoomOutAction()->isEnabled());
    zoom->reset();
}

void TestViewTheme::headerTextIsWholeAt1280_data() {
    QTest::addColumn<bool>("consul");
    QTest::addColumn<QString>("name");
    QTest::newRow("redis, polled") << false << QStringLiteral("demo:printers");
    QTest::newRow("consul, watched") << true << QStringLiteral("demo/batch-jobs");
}

// Issue 31, screenshots at 1280x720: a watched Consul page cut "watching · last change 1.0 s ago"
// to "… s ag" beside a greyed interval box that does nothing there. Every label of the header row
// shows its whole text, and the interval is offered only where the page polls.
void TestViewTheme::headerTextIsWholeAt1280() {
    QFETCH(bool, consul);
    QFETCH(QString, name);
    auto *window = m_demo->window.get();
    window->resize(1280, 720);
    QTRY_COMPARE(window->size(), QSize(1280, 720));
    auto *page = window->semaphorePage();
    const core::SemaphoreRef ref{consul ? Kind::Consul : Kind::Slots, name, {}};
    QVERIFY(window->openSemaphore(
        consul ? m_demo->sandbox->consulConnection().id : m_demo->sandbox->redisConnection().id, ref));
    const int before = page->snapshotsApplied();
    QTRY_VERIFY_WITH_TIMEOUT(page->snapshotsApplied() > before, 30000);
    auto *lastRead = page->findChild<QLabel *>(QStringLiteral("lastRead"));
    auto *interval = page->findChild<QWidget *>(QStringLiteral("interval"));
    QVERIFY(lastRead && interval);
    QTRY_VERIFY(!lastRead->text().isEmpty() && lastRead->text() != QStringLiteral("reading…"));
    QTRY_VERIFY2(lastRead->width() >= lastRead->fontMetrics().horizontalAdvance(lastRead->text()),
                 qPrintable(QStringLiteral("\"%1\" in %2 px").arg(lastRead->text()).arg(lastRead->width())));
    QCOMPARE(interval->isVisible(), !consul);
}

void TestViewTheme::zoomedHeaderShowsTheWholeName_data() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("whole"); // the row has room for the whole name at 130 %
    QTest::newRow("1600x1000") << QSize(1600, 1000) << true;
    QTest::newRow("1280x720") << QSize(1280, 720) << false;
}

// Issue 31 item 9: at 130 % zoom on a 1280x720 projector the page header showed "dem…ers" beside
// empty room. The name takes the room the row has: whole where it fits, cut in the middle only
// when the refresh controls leave no room, and its tooltip has it always.
void TestViewTheme::zoomedHeaderShowsTheWholeName() {
    QFETCH(QSize, size);
    QFETCH(bool, whole);
    auto *window = m_demo->window.get();
    const QSize before = window->size();
    window->resize(size);
    QTRY_COMPARE(window->size(), size);
    ui::ViewZoom *zoom = window->zoom();
    while (zoom->percent() < 130)
        zoom->zoomInAction()->trigger();
    QCOMPARE(zoom->percent(), 130);
    showPrinters();
    auto *page = window->semaphorePage();
    auto *name = page->findChild<ui::ElidedLabel *>(QStringLiteral("nameLabel"));
    auto *watch = page->findChild<QToolButton *>(QStringLiteral("watchButton"));
    auto *lastRead = page->findChild<QLabel *>(QStringLiteral("lastRead"));
    QVERIFY(name && watch && lastRead);
    QCOMPARE(name->fullText(), QStringLiteral("demo:printers"));
    QCOMPARE(name->toolTip(), QStringLiteral("demo:printers"));
    if (whole) {
        QTRY_COMPARE(name->text(), QStringLiteral("demo:printers"));
    } else {
        QTRY_VERIFY2(name->isElided(), qPrintable(name->text()));
        QVERIFY2(name->text().startsWith(QStringLiteral("demo:")) && name->text().contains(QChar(0x2026)),
                 qPrintable(name->text()));
    }
    // Cut only for want of room: nothing is left between ☆ Watch and "read … ago" but spacing.
    if (name->isElided()) {
        const int gap = lastRead->x() - (watch->x() + watch->width());
        QVERIFY2(gap <= 2 * page->style()->pixelMetric(QStyle::PM_LayoutHorizontalSpacing) + 2,
                 qPrintable(QStringLiteral("%1 px left beside \"%2\"").arg(gap).arg(name->text())));
    }
    zoom->reset();
    QCOMPARE(zoom->percent(), 100);
    window->resize(before);
}

SEMSCOPE_TEST_MAIN(TestViewTheme)
#include "tst_viewtheme.moc"
