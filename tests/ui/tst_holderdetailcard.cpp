// The holder card beside the holder table: every row readable in the width the page gives it.

#include "TestMain.h"
#include "model/HolderTableModel.h"
#include "ui/HolderDetailCard.h"

#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QtTest>

using namespace semscope;

class TestHolderDetailCard : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyRowFitsTheCardsWidth_data();
    void everyRowFitsTheCardsWidth();
    void recordedDetailsAreShownAsTyped();
};

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

} // namespace

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
    card->showHolder(model.holderAt(0), &model);
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
