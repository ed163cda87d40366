// What the semaphore page's header says (model/SemaphoreHeaderText): the limit and its source, the
// gauge and its colour, where the semaphore is served, the warnings and the age of the last read.
#include "TestMain.h"
#include "model/SemaphoreHeaderText.h"

#include <QtTest>

using namespace semscope;
using core::LimitSource;
using model::Tone;

Q_DECLARE_METATYPE(semscope::core::LimitSource)
Q_DECLARE_METATYPE(semscope::model::Tone)
Q_DECLARE_METATYPE(std::optional<semscope::model::Tone>)

namespace {
core::Snapshot withHolders(int used, std::optional<qint64> limit, LimitSource source) {
    core::Snapshot s;
    s.ref.kind = core::Kind::Leased;
    s.ref.name = QStringLiteral("jobs");
    s.limit = limit;
    s.limitSource = source;
    for (int i = 0; i < used; ++i) {
        core::Holder h;
        h.id = QStringLiteral("w%1").arg(i);
        s.holders << h;
    }
    return s;
}
} // namespace

class TestSemaphoreHeaderText : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void usageTone_data() {
        QTest::addColumn<qint64>("used");
        QTest::addColumn<qint64>("limit");
        QTest::addColumn<Tone>("tone");
        QTest::newRow("empty") << qint64(0) << qint64(5) << Tone::Good;
        QTest::newRow("below 80 %") << qint64(3) << qint64(5) << Tone::Good;
        QTest::newRow("80 %") << qint64(4) << qint64(5) << Tone::Caution;
        QTest::newRow("full") << qint64(5) << qint64(5) << Tone::Caution;
        QTest::newRow("over") << qint64(6) << qint64(5) << Tone::Bad;
        QTest::newRow("mutex held") << qint64(1) << qint64(1) << Tone::Caution;
        QTest::newRow("limit 0, one holder: over") << qint64(1) << qint64(0) << Tone::Bad;
        QTest::newRow("limit 0, empty") << qint64(0) << qint64(0) << Tone::Good;
    }
    void usageTone() {
        QFETCH(qint64, used);
        QFETCH(qint64, limit);
        QFETCH(Tone, tone);
        QCOMPARE(model::usageTone(used, limit), tone);
    }

    void header_data() {
        QTest::addColumn<int>("used");
        QTest::addColumn<qint64>("limit"); // -1: unknown
        QTest::addColumn<LimitSource>("source");
        QTest::addColumn<QString>("limitText");
        QTest::addColumn<QString>("toolTipContains");
        QTest::addColumn<int>("maximum");
        QTest::addColumn<int>("value");
        QTest::addColumn<QString>("format");
        QTest::addColumn<std::optional<Tone>>("tone");
        QTest::addColumn<bool>("fromProfile");
        QTest::newRow("stored, 3 of 5")
            << 3 << qint64(5) << LimitSource::Stored << "Limit <b>5</b> (stored)"
            << "stored with" << 5 << 3 << "3 / 5 used" << std::optional<Tone>(Tone::Good) << false;
        QTest::newRow("profile, full")
            << 2 << qint64(2) << LimitSource::Profile << "Limit <b>2</b> (profile)"
            << "profile (profile)" << 2 << 2 << "2 / 2 used" << std::optional<Tone>(Tone::Caution) << true;
        QTest::newRow("inferred, over the limit: the gauge stops at full")
            << 4 << qint64(3) << LimitSource::Inferred << "Limit <b>3</b> (inferred)"
            << "does not store" << 3 << 3 << "4 / 3 used — OVER THE LIMIT" << std::optional<Tone>(Tone::Bad)
            << true;
        QTest::newRow("unknown") << 2 << qint64(-1) << LimitSource::Unknown
                                 << "Limit <b>unknown</b> — not stored in this layout"
                                 << "Edit profile" << 1 << 0 << "2 used / limit unknown"
                                 << std::optional<Tone>() << true;
        QTest::newRow("limit 0 keeps a gauge of 1")
            << 0 << qint64(0) << LimitSource::Stored << "Limit <b>0</b> (stored)"
            << "stored with" << 1 << 0 << "0 / 0 used" << std::optional<Tone>(Tone::Good) << false;
    }
    void header() {
        QFETCH(int, used);
        QFETCH(qint64, limit);
        QFETCH(LimitSource, source);
        QFETCH(QString, limitText);
        QFETCH(QString, toolTipContains);
        QFETCH(int, maximum);
        QFETCH(int, value);
        QFETCH(QString, format);
        QFETCH(std::optional<Tone>, tone);
        QFETCH(bool, fromProfile);
        const auto text = model::semaphoreHeaderText(
            withHolders(used, limit < 0 ? std::nullopt : std::optional<qint64>(limit), source));
        QCOMPARE(text.limit, limitText);
        QVERIFY2(text.limitToolTip.contains(toolTipContains), qPrintable(text.limitToolTip));
        QCOMPARE(text.gaugeMaximum, maximum);
        QCOMPARE(text.gaugeValue, value);
        QCOMPARE(text.gaugeFormat, format);
        QCOMPARE(text.gaugeTone, tone);
        QCOMPARE(text.limitFromProfile, fromProfile);
    }

    void place_data() {
        QTest::addColumn<QString>("node");
        QTest::addColumn<int>("slot");
        QTest::addColumn<QString>("servingMaster");
        QTest::addColumn<QString>("text");
        QTest::newRow("single server") << QString() << -1 << QString() << "on demo · redis://h:6379/0";
        QTest::newRow("behind Sentinel") << QString() << -1 << "10.0.0.2:6379"
                                         << "on demo · redis://h:6379/0 · 10.0.0.2:6379";
        QTest::newRow("cluster: master and slot")
            << "127.0.0.1:7001" << 6452 << "127.0.0.1:7000"
            << "on demo · redis://h:6379/0 · master 127.0.0.1:7001, slot 6452";
        QTest::newRow("slot 0 is a slot") << "127.0.0.1:7000" << 0 << QString()
                                          << "on demo · redis://h:6379/0 · master 127.0.0.1:7000, slot 0";
    }
    void place() {
        QFETCH(QString, node);
        QFETCH(int, slot);
        QFETCH(QString, servingMaster);
        QFETCH(QString, text);
        core::DiscoveredSemaphore found;
        found.node = node;
        found.slot = slot;
        QCOMPARE(model::semaphorePlaceText(QStringLiteral("demo"), QStringLiteral("redis://h:6379/0"), found,
                                           servingMaster),
                 text);
    }

    void warnings_data() {
        QTest::addColumn<QStringList>("warnings");
        QTest::addColumn<QString>("text");
        QTest::newRow("none") << QStringList{} << QString();
        QTest::newRow("one") << QStringList{QStringLiteral("slot 2 twice")} << "⚠ slot 2 twice";
        QTest::newRow("every one, a line each")
            << QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")} << "⚠ a\n⚠ b\n⚠ c";
    }
    void warnings() {
        QFETCH(QStringList, warnings);
        QFETCH(QString, text);
        QCOMPARE(model::warningsText(warnings), text);
    }

    void lastRead_data() {
        QTest::addColumn<qint64>("agoMs");
        QTest::addColumn<bool>("watching");
        QTest::addColumn<bool>("paused");
        QTest::addColumn<int>("intervalMs");
        QTest::addColumn<QString>("startsWith");
        QTest::addColumn<bool>("paused_suffix");
        QTest::addColumn<bool>("late");
        QTest::newRow("fresh") << qint64(300) << false << false << 1000 << "read " << false << false;
        QTest::newRow("5 s is not late yet")
            << qint64(5000) << false << false << 1000 << "read " << false << false;
        QTest::newRow("6 s at 1 s: late")
            << qint64(6000) << false << false << 1000 << "read " << false << true;
        QTest::newRow("6 s at 3 s: not late")
            << qint64(6000) << false << false << 3000 << "read " << false << false;
        QTest::newRow("10 s at 3 s: late")
            << qint64(10000) << false << false << 3000 << "read " << false << true;
        QTest::newRow("paused: never late")
            << qint64(60000) << false << true << 1000 << "read " << true << false;
        QTest::newRow("watched: never late")
            << qint64(60000) << true << false << 1000 << "watching · last change " << false << false;
        QTest::newRow("clock went back")
            << qint64(-50) << false << false << 1000 << "read " << false << false;
    }
    void lastRead() {
        QFETCH(qint64, agoMs);
        QFETCH(bool, watching);
        QFETCH(bool, paused);
        QFETCH(int, intervalMs);
        QFETCH(QString, startsWith);
        QFETCH(bool, paused_suffix);
        QFETCH(bool, late);
        const QString text = model::lastReadText(agoMs, watching, paused);
        QVERIFY2(text.startsWith(startsWith), qPrintable(text));
        QVERIFY2(text.endsWith(QStringLiteral(" ago")) != paused_suffix, qPrintable(text));
        QVERIFY2(!text.contains(QLatin1Char('-')), qPrintable(text)); // never "-50 ms ago"
        QCOMPARE(model::isReadLate(agoMs, watching, paused, intervalMs), late);
    }
};

SEMSCOPE_TEST_MAIN(TestSemaphoreHeaderText)
#include "tst_semaphoreheadertext.moc"
