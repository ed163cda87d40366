// The holder card beside the holder table: every row readable in the width the page gives it.

#include "TestMain.h"
#include "model/HolderTableModel.h"
#include "model/StatusColors.h"
#include "ui/HolderDetailCard.h"

#include <QDir>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QTextDocument>
#include <QtTest>

using namespace semscope;

class TestHolderDetailCard : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyRowFitsTheCardsWidth_data();
    void everyRowFitsTheCardsWidth();
    void recordedDetailsAreShownAsTyped();
    // Issue 31 item 6: is the holder's client still there, and since when not?
    void saysWhetherItsClientIsThere_data();
    void saysWhetherItsClientIsThere();
    void silentWhenNobodyKnowsWhoItsClientIs();
    void screenshotOfAHolderWhoseClientIsGone();
    // The card beside an empty table asked the operator to select a holder there was none of.
    void saysSoWhenNobodyHolds_data();
    void saysSoWhenNobodyHolds();
};

Q_DECLARE_METATYPE(semscope::core::ClientLiveness)

namespace {

// A Consul holder as the store reads it: long texts, and a session id whose groups start with
// digits, which leaves a line no place to break in it.
core::Snapshot consulSnapshot() {
    core::Snapshot s;
    s.ref = {core::Kind::Consul, QStringLiteral("demo/deploy"), {}};
    s.limit = 1;
    s.serverNowMs = QDateTime::currentMSecsSinceEpoch();
    core::Holder h;
    h.id = QStringLiteral("deployer@ci-runner-3 (fcd91948)");
    h.rawId = h.id.toUtf8();
    h.rank = 0;
    h.token = 18;
    h.details = {
        {QStringLiteral("session"), QStringLiteral("fcd91948-0f58-4f9b-86e6-82f012345678")},
        {QStringLiteral("sessionName"), QStringLiteral("deployer@ci-runner-3")},
        {QStringLiteral("node"), QStringLiteral("semscope-double-node-1")},
        {QStringLiteral("behavior"), QStringLiteral("delete")},
        {QStringLiteral("checks"), QStringList{QStringLiteral("serfHealth")}},
        {QStringLiteral("ttl"), QStringLiteral("15s")},
        {QStringLiteral("lockDelayMs"), 15000},
        {QStringLiteral("contenderModifyIndex"), 18},
        {QStringLiteral("contenderKey"), QStringLiteral("demo/deploy/fcd91948-0f58-4f9b-86e6-82f012345678")}};
    s.holders = {h};
    return s;
}

// A `leased` holder taken by `semscope-cli acquire`, which exited at once.
core::Snapshot leasedSnapshot() {
    core::Snapshot s;
    s.ref = {core::Kind::Leased, QStringLiteral("nightly-report"), {}};
    s.limit = 2;
    s.limitSource = core::LimitSource::Stored;
    s.serverNowMs = QDateTime::currentMSecsSinceEpoch();
    core::Holder h;
    h.id = QStringLiteral("vm:30410:1f2e3d4c");
    h.rawId = h.id.toUtf8();
    h.rank = 0;
    h.token = 41;
    h.acquiredAtMs = s.serverNowMs - 7 * 60 * 1000;
    h.expiresAtMs = s.serverNowMs + 53 * 60 * 1000;
    h.details.insert(QStringLiteral("client"), QStringLiteral("semscope-cli pid 30410 on vm"));
    s.holders = {h};
    return s;
}

core::ClientLiveness goneSince(qint64 ms, bool firstLook = false) {
    core::ClientLiveness l;
    l.state = core::ClientLiveness::State::Gone;
    l.identity = QStringLiteral("pid 30410 on vm");
    l.evidence = QStringLiteral("no connection of pid 30410 on vm is connected to 127.0.0.1:6379");
    l.goneSinceMs = ms;
    l.sinceFirstLook = firstLook;
    return l;
}

} // namespace

void TestHolderDetailCard::saysWhetherItsClientIsThere_data() {
    QTest::addColumn<core::ClientLiveness>("liveness");
    QTest::addColumn<QStringList>("says");
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const qint64 since = now - 4 * 60 * 1000;
    const QString at = QDateTime::fromMSecsSinceEpoch(since).toString(QStringLiteral("HH:mm:ss"));
    QTest::newRow("gone since a time")
        << goneSince(since)
        << QStringList{QStringLiteral("client gone since ") + at, QStringLiteral("(4 m"),
                       QStringLiteral("no connection of pid 30410"),
                       QStringLiteral("stays taken until its lease runs out (in 5")};
    QTest::newRow("gone before semscope looked")
        << goneSince(since, true)
        << QStringList{QStringLiteral("already when semscope first looked, at ") + at};
    core::ClientLiveness connected;
    connected.state = core::ClientLiveness::State::Connected;
    connected.evidence = QStringLiteral("as semscope-cli:30410@vm from 10.0.0.5:51234");
    QTest::newRow("connected") << connected
                               << QStringList{QStringLiteral("client connected"),
                                              QStringLiteral("from 10.0.0.5:51234")};
    core::ClientLiveness forbidden;
    forbidden.evidence = QStringLiteral("this connection's ACL user may not run CLIENT LIST (NOPERM)");
    QTest::newRow("ACL forbids CLIENT LIST")
        << forbidden
        << QStringList{
               QStringLiteral("client: cannot tell — this connection's ACL user may not run CLIENT LIST")};
    core::ClientLiveness cluster = connected;
    cluster.limits =
        QStringLiteral("Cluster: the client lists of every master are read; a client connected only to "
                       "replicas is not seen.");
    QTest::newRow("cluster says what it cannot see")
        << cluster << QStringList{QStringLiteral("only to replicas")};
    core::ClientLiveness consulFailing = goneSince(since);
    consulFailing.source = core::ClientLiveness::Source::ConsulNodeChecks;
    consulFailing.evidence =
        QStringLiteral("serfHealth critical: Agent not live or unreachable — the session is not "
                       "bound to it: Consul keeps the session and its slot");
    QTest::newRow("consul checks failing") << consulFailing
                                           << QStringList{QStringLiteral("checks failing since ") + at,
                                                          QStringLiteral("keeps the session and its slot")};
}

void TestHolderDetailCard::saysWhetherItsClientIsThere() {
    QFETCH(core::ClientLiveness, liveness);
    QFETCH(QStringList, says);
    model::HolderTableModel model;
    model.setSnapshot(leasedSnapshot());
    ui::HolderDetailCard card;
    card.resize(320, 500);
    card.showHolder(model.holderAt(0), &model, liveness);
    card.show();
    QVERIFY(QTest::qWaitForWindowExposed(&card));
    QLabel *line = card.findChild<QLabel *>(QStringLiteral("holderLiveness"));
    QVERIFY(line);
    QVERIFY(line->isVisible());
    QTextDocument doc;
    doc.setHtml(line->text());
    const QString shown = doc.toPlainText();
    for (const QString &words : says)
        QVERIFY2(shown.contains(words), qPrintable(shown));
    // Gone in the colour of trouble: the operator sees it before reading it.
    if (liveness.state == core::ClientLiveness::State::Gone)
        QVERIFY(line->styleSheet().contains(model::toneText(model::Tone::Bad).name()));
    // Nothing selected: nothing said about anyone's client.
    card.showHolder(nullptr, nullptr, liveness);
    QVERIFY(!line->isVisible());
}

void TestHolderDetailCard::silentWhenNobodyKnowsWhoItsClientIs() {
    model::HolderTableModel model;
    model.setSnapshot(leasedSnapshot());
    ui::HolderDetailCard card;
    card.showHolder(model.holderAt(0), &model);
    card.show();
    QVERIFY(QTest::qWaitForWindowExposed(&card));
    QVERIFY(!card.findChild<QLabel *>(QStringLiteral("holderLiveness"))->isVisible());
}

void TestHolderDetailCard::screenshotOfAHolderWhoseClientIsGone() {
    // As on the page at 1280 px: the card beside the holder table.
    QSplitter page;
    page.addWidget(new QTableView(&page));
    auto *card = new ui::HolderDetailCard(&page);
    page.addWidget(card);
    model::HolderTableModel model;
    model.setSnapshot(leasedSnapshot());
    card->showHolder(model.holderAt(0), &model, goneSince(QDateTime::currentMSecsSinceEpoch() - 245000));
    page.resize(900, 420);
    page.setSizes({620, 280});
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QLabel *line = card->findChild<QLabel *>(QStringLiteral("holderLiveness"));
    QTRY_VERIFY(line->height() >= line->heightForWidth(line->width()));
    const QString dir = QStringLiteral(SEMSCOPE_SCREENSHOT_DIR);
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(card->grab().save(dir + QStringLiteral("/holder-client-gone.png")));
}

void TestHolderDetailCard::saysSoWhenNobodyHolds_data() {
    QTest::addColumn<core::Snapshot>("snapshot");
    QTest::addColumn<QString>("title");
    QTest::addColumn<QString>("state");
    core::Snapshot empty = leasedSnapshot();
    empty.holders.clear();
    empty.limit = 4;
    QTest::newRow("no holders, limit 4") << empty << "No holders"
                                         << "Nobody holds a slot now: 4 of 4 are free.";
    empty.limit = 1;
    QTest::newRow("no holder, limit 1") << empty << "No holders"
                                        << "Nobody holds a slot now: 1 of 1 is free.";
    empty.limit.reset();
    QTest::newRow("limit unknown") << empty << "No holders"
                                   << "Nobody holds a slot now.";
    QTest::newRow("holders, none selected")
        << leasedSnapshot() << "No holder selected"
        << "Select a holder to see who it is, since when it holds, and what its state means.";
}

void TestHolderDetailCard::saysSoWhenNobodyHolds() {
    QFETCH(core::Snapshot, snapshot);
    QFETCH(QString, title);
    QFETCH(QString, state);
    model::HolderTableModel holders;
    holders.setSnapshot(snapshot);
    ui::HolderDetailCard card;
    card.resize(260, 300);
    card.show();
    // A holder shown first: the card must not keep its texts either.
    model::HolderTableModel other;
    other.setSnapshot(leasedSnapshot());
    card.showHolder(other.holderAt(0), &other);
    card.showHolder(nullptr, &holders);
    QStringList texts;
    for (const QLabel *label : card.findChildren<QLabel *>()) {
        if (label->isVisibleTo(&card) && !label->text().isEmpty())
            texts << label->text();
    }
    QVERIFY2(texts.contains(title), qPrintable(texts.join(QLatin1String(" | "))));
    QVERIFY2(texts.contains(state), qPrintable(texts.join(QLatin1String(" | "))));
}

void TestHolderDetailCard::everyRowFitsTheCardsWidth_data() {
    QTest::addColumn<int>("cardWidth");
    QTest::addColumn<int>("cardHeight");
    QTest::newRow("the page at 1600 px") << 230 << 390;
    QTest::newRow("the card at its narrowest") << 220 << 600;
    QTest::newRow("a short card: the rows scroll") << 230 << 200;
    QTest::newRow("a wide card") << 420 << 600;
}

void TestHolderDetailCard::everyRowFitsTheCardsWidth() {
    QFETCH(int, cardWidth);
    QFETCH(int, cardHeight);
    // As on the page: in a splitter beside the table, which holds the card to its share.
    QSplitter page;
    page.addWidget(new QTableView(&page));
    auto *card = new ui::HolderDetailCard(&page);
    page.addWidget(card);
    model::HolderTableModel model;
    model.setSnapshot(consulSnapshot());
    QCOMPARE(model.rowCount(), 1);
    // The liveness line too: a node name is one long run with no place to break.
    core::ClientLiveness failing;
    failing.state = core::ClientLiveness::State::Gone;
    failing.source = core::ClientLiveness::Source::ConsulNodeChecks;
    failing.goneSinceMs = QDateTime::currentMSecsSinceEpoch() - 60000;
    failing.evidence =
        QStringLiteral("service:semscope-double-node-1.eu-central-1.compute.internal critical: HTTP "
                       "GET http://10.0.12.7:8080/health: 503");
    card->showHolder(model.holderAt(0), &model, failing);
    page.resize(700 + cardWidth, cardHeight);
    page.setSizes({700, cardWidth});
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QTRY_VERIFY(qAbs(card->width() - cardWidth) <= 8); // the splitter handle takes a few pixels
    const QList<QLabel *> labels = card->findChildren<QLabel *>();
    QVERIFY(labels.size() >= 10);
    for (QLabel *label : labels) {
        if (!label->isVisible())
            continue;
        const QString what = label->text().left(40);
        // Inside the card: nothing laid out past its edge, where the splitter cuts it off.
        const int right = label->mapTo(card, QPoint(label->width() - 1, 0)).x();
        QVERIFY2(right < card->contentsRect().right(), qPrintable(QStringLiteral("%1 ends at %2 of %3")
                                                                      .arg(what)
                                                                      .arg(right)
                                                                      .arg(card->contentsRect().right())));
        // No run of text wider than the label: a session id is wrapped, not cut at the edge.
        QVERIFY2(label->minimumSizeHint().width() <= label->width(),
                 qPrintable(QStringLiteral("%1 needs %2 px, has %3")
                                .arg(what)
                                .arg(label->minimumSizeHint().width())
                                .arg(label->width())));
        // As high as its text wrapped at the width it has: no line cut off at the bottom.
        if (label->hasHeightForWidth()) {
            QTRY_VERIFY2(label->height() >= label->heightForWidth(label->width()),
                         qPrintable(QStringLiteral("%1: %2 px high, its text needs %3")
                                        .arg(what)
                                        .arg(label->height())
                                        .arg(label->heightForWidth(label->width()))));
        }
    }
}

void TestHolderDetailCard::recordedDetailsAreShownAsTyped() {
    // What a holder recorded about itself comes from whoever wrote the key: markup in it is text.
    core::Snapshot s = consulSnapshot();
    const QString recorded = QStringLiteral("<img src=\"/etc/passwd\"><b>worker</b>");
    s.holders.first().details.insert(QStringLiteral("client"), recorded);
    s.holders.first().id = QStringLiteral("<i>id</i>");
    model::HolderTableModel model;
    model.setSnapshot(s);
    ui::HolderDetailCard card;
    card.showHolder(model.holderAt(0), &model);
    int asTyped = 0;
    for (QLabel *label : card.findChildren<QLabel *>()) {
        if (label->text() == recorded || label->text() == QLatin1String("<i>id</i>")) {
            QCOMPARE(label->textFormat(), Qt::PlainText);
            ++asTyped;
        }
    }
    QCOMPARE(asTyped, 2);
}

SEMSCOPE_TEST_MAIN(TestHolderDetailCard)
#include "tst_holderdetailcard.moc"
