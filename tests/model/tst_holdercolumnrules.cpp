// Which holder-table columns a semaphore's page shows (model/HolderColumnRules): the rule the page
// applied by hand (issue 32 item 6), now a table of kinds and what their holders carry.
#include "TestMain.h"
#include "model/HolderColumnRules.h"
#include "model/HolderTableModel.h"

#include <QtTest>

using namespace semscope;
using core::Kind;
using model::HolderTableModel;

Q_DECLARE_METATYPE(semscope::core::Kind)

namespace {
using Choice = QMap<int, bool>; // column -> shown, as the operator chose

// What a holder carries, as letters: r rank, s slot, t token, a acquired at, e expiry.
core::Holder holderWith(const QString &fields) {
    core::Holder h;
    h.id = QStringLiteral("w1");
    h.rawId = "w1";
    if (fields.contains(QLatin1Char('r')))
        h.rank = 0;
    if (fields.contains(QLatin1Char('s')))
        h.slot = 1;
    if (fields.contains(QLatin1Char('t')))
        h.token = 7;
    if (fields.contains(QLatin1Char('a')))
        h.acquiredAtMs = 1000;
    if (fields.contains(QLatin1Char('e')))
        h.expiresAtMs = 9000;
    return h;
}

// The columns shown among those the rule decides, by their titles' first letters in column order.
QString shown(const QMap<int, bool> &hidden) {
    static const QMap<int, QChar> letter{{HolderTableModel::RankColumn, QLatin1Char('R')},
                                         {HolderTableModel::SlotColumn, QLatin1Char('S')},
                                         {HolderTableModel::TokenColumn, QLatin1Char('T')},
                                         {HolderTableModel::AcquiredColumn, QLatin1Char('A')},
                                         {HolderTableModel::TtlColumn, QLatin1Char('L')},
                                         {HolderTableModel::SessionColumn, QLatin1Char('s')},
                                         {HolderTableModel::NodeColumn, QLatin1Char('n')},
                                         {HolderTableModel::BehaviorColumn, QLatin1Char('b')},
                                         {HolderTableModel::HealthColumn, QLatin1Char('h')}};
    QString out;
    for (auto it = hidden.begin(); it != hidden.end(); ++it) {
        if (!it.value())
            out += letter.value(it.key(), QLatin1Char('?'));
    }
    return out;
}
} // namespace

class TestHolderColumnRules : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void columns_data() {
        QTest::addColumn<Kind>("kind");
        QTest::addColumn<QStringList>("holders"); // one string of fields per holder (see holderWith)
        // R rank, S slot, T token, A acquired, L TTL; Consul: s session, n node, b behavior, h health
        QTest::addColumn<QString>("shownColumns");
        QTest::newRow("leased, full holders")
            << Kind::Leased << QStringList{QStringLiteral("rtae")} << "RTAL";
        QTest::newRow("leased, empty: rank and token titles stay") << Kind::Leased << QStringList{} << "RTL";
        QTest::newRow("zset: expiry only") << Kind::Zset << QStringList{QStringLiteral("e")} << "L";
        QTest::newRow("one holder with a token is enough")
            << Kind::Zset << QStringList{QStringLiteral("e"), QStringLiteral("te")} << "TL";
        QTest::newRow("slots: slot column even when empty") << Kind::Slots << QStringList{} << "RST";
        QTest::newRow("slots without leases: no TTL")
            << Kind::Slots << QStringList{QStringLiteral("s")} << "S";
        QTest::newRow("slots with leases") << Kind::Slots << QStringList{QStringLiteral("se")} << "SL";
        QTest::newRow("lock without expiry keeps TTL (no TTL is news)")
            << Kind::Lock << QStringList{QStringLiteral("t")} << "TL";
        // The session's columns are off at first: the Holder column reads the session's name, the
        // card the rest; all nine pushed Age out of view at 1280x720.
        QTest::newRow("consul: no TTL, session columns off")
            << Kind::Consul << QStringList{QStringLiteral("t")} << "T";
        QTest::newRow("consul mutex, empty") << Kind::ConsulMutex << QStringList{} << "RT";
        QTest::newRow("redisson lock: no Consul columns")
            << Kind::RedissonLock << QStringList{QStringLiteral("e")} << "L";
    }
    void columns() {
        QFETCH(Kind, kind);
        QFETCH(QStringList, holders);
        QFETCH(QString, shownColumns);
        core::Snapshot s;
        s.ref.kind = kind;
        s.ref.name = QStringLiteral("jobs");
        for (const QString &fields : holders)
            s.holders << holderWith(fields);
        QCOMPARE(shown(model::holderColumnsHidden(s)), shownColumns);
    }

    // What the operator turned on or off in the header's context menu wins where the column applies;
    // a column without data stays hidden whatever was chosen.
    void operatorChoiceWins_data() {
        QTest::addColumn<Kind>("kind");
        QTest::addColumn<QString>("fields"); // of the one holder (see holderWith)
        QTest::addColumn<Choice>("choice");
        QTest::addColumn<QString>("shownColumns");
        using M = HolderTableModel;
        QTest::newRow("consul: behavior turned on")
            << Kind::Consul << "t" << Choice{{M::BehaviorColumn, true}} << "Tb";
        QTest::newRow("consul: node on, token off")
            << Kind::Consul << "t" << Choice{{M::NodeColumn, true}, {M::TokenColumn, false}} << "n";
        QTest::newRow("consul: every session column on") << Kind::Consul << "t"
                                                         << Choice{{M::SessionColumn, true},
                                                                   {M::NodeColumn, true},
                                                                   {M::BehaviorColumn, true},
                                                                   {M::HealthColumn, true}}
                                                         << "Tsnbh";
        QTest::newRow("consul: TTL has no data, stays hidden")
            << Kind::Consul << "t" << Choice{{M::TtlColumn, true}} << "T";
        QTest::newRow("leased: token turned off")
            << Kind::Leased << "rtae" << Choice{{M::TokenColumn, false}} << "RAL";
        QTest::newRow("leased: behavior on means nothing without Consul")
            << Kind::Leased << "rtae" << Choice{{M::BehaviorColumn, true}} << "RTAL";
    }
    void operatorChoiceWins() {
        QFETCH(Kind, kind);
        QFETCH(QString, fields);
        QFETCH(Choice, choice);
        QFETCH(QString, shownColumns);
        core::Snapshot s;
        s.ref.kind = kind;
        s.holders << holderWith(fields);
        QCOMPARE(shown(model::holderColumnsHidden(s, choice)), shownColumns);
    }

    // The header's context menu offers the columns this semaphore's holders have data for.
    void offersTheColumnsThatApply() {
        using M = HolderTableModel;
        core::Snapshot consul;
        consul.ref.kind = Kind::Consul;
        consul.holders << holderWith(QStringLiteral("rt"));
        QCOMPARE(model::holderColumnsToChoose(consul),
                 (QList<int>{M::RankColumn, M::TokenColumn, M::SessionColumn, M::NodeColumn,
                             M::BehaviorColumn, M::HealthColumn}));
        core::Snapshot slotsKind;
        slotsKind.ref.kind = Kind::Slots;
        slotsKind.holders << holderWith(QStringLiteral("s"));
        QCOMPARE(model::holderColumnsToChoose(slotsKind), QList<int>{M::SlotColumn});
    }

    // The holder, its age and its state are what an operator looks for: never hidden by the rule.
    void keyColumnsAreNeverDecided() {
        const QMap<int, bool> hidden = model::holderColumnsHidden(core::Snapshot{});
        for (int c :
             {HolderTableModel::HolderColumn, HolderTableModel::AgeColumn, HolderTableModel::StateColumn})
            QVERIFY(!hidden.value(c, false));
    }
};

SEMSCOPE_TEST_MAIN(TestHolderColumnRules)
#include "tst_holdercolumnrules.moc"
