// RawJson keeps uint64 numbers exact (QJsonDocument would round them through double), the .lock
// dialects round-trip, and Go durations parse and print like Go's.
#include "TestMain.h"
#include "consul/ConsulTypes.h"
#include "consul/GoDuration.h"
#include "consul/LockDocument.h"
#include "consul/RawJson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace semscope::consul;

class TestConsulJson : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void flagsStayExact() {
        const QByteArray body =
            R"([{"LockIndex":0,"Key":"s/.lock","Flags":16210313421097356768,"Value":null,"CreateIndex":7,"ModifyIndex":9}])";
        QString error;
        const auto entries = parseKvEntries(body, &error);
        QVERIFY2(entries, qPrintable(error));
        QCOMPARE(entries->first().flags, quint64(16210313421097356768ULL));
        QCOMPARE(entries->first().flags, kSemaphoreFlagValue);
        QVERIFY(!entries->first().hasValue);
        // What the naive parse would give: the double closest to it, a different integer.
        const double viaDouble =
            QJsonDocument::fromJson(body).array().first().toObject().value("Flags").toDouble();
        QVERIFY(quint64(viaDouble) != kSemaphoreFlagValue);
    }

    void integerRanges_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("fitsUnsigned");
        QTest::newRow("max uint64") << QByteArray("18446744073709551615") << true;
        QTest::newRow("one above") << QByteArray("18446744073709551616") << false;
        QTest::newRow("negative") << QByteArray("-1") << false;
        QTest::newRow("fraction") << QByteArray("1.5") << false;
        QTest::newRow("exponent") << QByteArray("1e3") << false;
        QTest::newRow("zero") << QByteArray("0") << true;
    }
    void integerRanges() {
        QFETCH(QByteArray, text);
        QFETCH(bool, fitsUnsigned);
        const auto parsed = RawJson::parse(text);
        QVERIFY(parsed.ok());
        QCOMPARE(parsed.value->toUInt64().has_value(), fitsUnsigned);
        QCOMPARE(parsed.value->toCompact(), text); // numbers are written back as they were read
    }

    void garbageIsAnErrorNotACrash_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("truncated") << QByteArray("{\"Limit\":3,\"Hol");
        QTest::newRow("trailing") << QByteArray("{} x");
        QTest::newRow("bad escape") << QByteArray("\"\\q\"");
        QTest::newRow("deep") << QByteArray(5000, char(0x7b)) /* '{' */;
        QTest::newRow("control char") << QByteArray("\"a\x01\"");
    }
    void garbageIsAnErrorNotACrash() {
        QFETCH(QByteArray, text);
        const auto parsed = RawJson::parse(text);
        QVERIFY(!parsed.ok());
        QVERIFY(parsed.error.startsWith(QStringLiteral("offset ")));
    }

    void prettyLikeGo() {
        const auto v = RawJson::parse(R"([{"Key":"a","Flags":0,"Value":null,"H":[],"O":{}}])");
        QCOMPARE(
            jsonIndent(v.value->toCompact()),
            QByteArray("[\n    {\n        \"Key\": \"a\",\n        \"Flags\": 0,\n        \"Value\": null,\n"
                       "        \"H\": [],\n        \"O\": {}\n    }\n]\n"));
    }

    void dialectsRoundTrip_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("dialect");
        QTest::newRow("go map") << QByteArray(R"({"Limit":2,"Holders":{"a":true,"b":true}})") << "go-map";
        QTest::newRow("guide") << QByteArray(R"({"Limit":2,"Holders":["b","a"]})") << "guide-array";
        QTest::newRow("seed") << QByteArray(R"({"limit":2,"holders":["b","a"]})") << "seed-array";
        QTest::newRow("extra members kept")
            << QByteArray(R"({"owner":"ops","limit":2,"holders":[],"v":1})") << "seed-array";
        QTest::newRow("mixed case") << QByteArray(R"({"LIMIT":1,"HOLDERS":["x"]})") << "seed-array";
        QTest::newRow("null holders") << QByteArray(R"({"Limit":2,"Holders":null})") << "go-map";
    }
    void dialectsRoundTrip() {
        QFETCH(QByteArray, text);
        QFETCH(QString, dialect);
        QString error;
        const auto doc = LockDocument::parse(text, &error);
        QVERIFY2(doc, qPrintable(error));
        QCOMPARE(doc->dialectName(), dialect);
        if (!text.contains("null"))
            QCOMPARE(doc->serialize(), text);
        LockDocument more = *doc;
        more.addHolder(QStringLiteral("c"));
        QVERIFY(more.serialize().contains("\"c\""));
        QVERIFY(more.removeHolder(QStringLiteral("c")));
    }

    void goDurations_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<QString>("printed");
        QTest::newRow("ms") << "15000ms" << qint64(15'000'000'000) << "15s";
        QTest::newRow("mixed") << "1m30s" << qint64(90'000'000'000) << "1m30s";
        QTest::newRow("fraction") << "1.5s" << qint64(1'500'000'000) << "1.5s";
        QTest::newRow("day") << "24h" << qint64(86'400'000'000'000) << "24h0m0s";
        QTest::newRow("small") << "100ms" << qint64(100'000'000) << "100ms";
    }
    void goDurations() {
        QFETCH(QString, text);
        QFETCH(qint64, ns);
        QFETCH(QString, printed);
        QCOMPARE(parseGoDurationNs(text), std::optional<qint64>(ns));
        QCOMPARE(goDurationString(ns), printed);
        QVERIFY(!parseGoDurationNs(QStringLiteral("10 s")));
        QVERIFY(!parseGoDurationNs(QStringLiteral("-1s")));
        QVERIFY(!parseGoDurationNs(QStringLiteral("5d")));
    }

    void addressesLikeConsulsTools() {
        QString error;
        QCOMPARE(ConsulConfig::parseAddress(QStringLiteral("127.0.0.1:8500"), false, &error)->toString(),
                 QStringLiteral("http://127.0.0.1:8500"));
        QCOMPARE(ConsulConfig::parseAddress(QStringLiteral("localhost"), true, &error)->toString(),
                 QStringLiteral("https://localhost:8501"));
        QVERIFY(!ConsulConfig::parseAddress(QStringLiteral("ftp://x"), false, &error));
        QVERIFY(error.contains(QStringLiteral("not a Consul HTTP address")));
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestConsulJson)
#include "tst_consul_json.moc"
