#include "TestMain.h"
#include "core/PrintableText.h"

#include <QTest>

using namespace semscope::core;

class TestPrintableText : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void escapes_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("plain") << "ERR wrong number of arguments"
                               << "ERR wrong number of arguments";
        QTest::newRow("unicode kept") << "Zürich ✓"
                                      << "Zürich ✓";
        QTest::newRow("carriage return overwrite") << "ERR bad\rall good"
                                                   << "ERR bad\\rall good";
        QTest::newRow("ANSI colour") << "\x1b[32mOK\x1b[0m"
                                     << "\\e[32mOK\\e[0m";
        QTest::newRow("newline") << "a\nb"
                                 << "a\\nb";
        QTest::newRow("bell and DEL") << QString::fromLatin1("a\x07z\x7f") << "a\\x07z\\x7f";
        QTest::newRow("C1 CSI") << QString(QChar(0x9b)) + "2J"
                                << "\\x9b2J";
        QTest::newRow("bidi override") << QString(QChar(0x202e)) + "txt"
                                       << "\\x202etxt";
    }
    void escapes() {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QCOMPARE(printableServerText(text), expected);
    }

    void longTextIsCut() {
        const QString huge(8 * 1024 * 1024, QLatin1Char('x'));
        const QString shown = printableServerText(huge, 100);
        QVERIFY(shown.size() < 200);
        QVERIFY(shown.startsWith(QString(100, QLatin1Char('x'))));
        QVERIFY2(shown.contains(QStringLiteral("8388608 characters")), qPrintable(shown));
    }

    void longBytesAreCutBeforeDecoding() {
        QByteArray huge(8 * 1024 * 1024, 'y');
        huge.prepend("\x1b]0;pwned\x07");
        const QString shown = printableServerText(huge, 50);
        QVERIFY(shown.size() < 120);
        QVERIFY2(shown.startsWith(QStringLiteral("\\e]0;pwned\\x07yyy")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("8388618 bytes")), qPrintable(shown));
    }

    void shortBytesAreWhole() {
        QCOMPARE(printableServerText(QByteArray("WRONGPASS invalid")), QStringLiteral("WRONGPASS invalid"));
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestPrintableText)
#include "tst_printabletext.moc"
