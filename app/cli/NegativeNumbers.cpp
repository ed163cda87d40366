#include "NegativeNumbers.h"

#include <QSet>

namespace semscope::cli {

namespace {

bool isNegativeNumber(const QString &argument) {
    return argument.size() >= 2 && argument.at(0) == QLatin1Char('-') && argument.at(1).isDigit();
}

} // namespace

QStringList negativeNumbersAsPositional(const QStringList &arguments,
                                        const QList<QCommandLineOption> &options) {
    QSet<QString> takeValue;
    for (const QCommandLineOption &option : options) {
        if (!option.valueName().isEmpty())
            takeValue.unite(QSet<QString>(option.names().cbegin(), option.names().cend()));
    }
    QStringList optionArguments = arguments.mid(0, 1);
    QStringList positional;
    bool negative = false;
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        const QString &a = arguments.at(i);
        if (a == QLatin1String("--")) {
            positional << arguments.mid(i + 1);
            break;
        }
        if (isNegativeNumber(a)) {
            positional << a;
            negative = true;
            continue;
        }
        if (a.size() < 2 || !a.startsWith(QLatin1Char('-'))) {
            positional << a;
            continue;
        }
        optionArguments << a;
        // "--name", "-name" (single-dash words are long options) or "--name=value".
        QString name = a.mid(a.startsWith(QLatin1String("--")) ? 2 : 1);
        if (name.contains(QLatin1Char('=')))
            continue;
        if (takeValue.contains(name) && i + 1 < arguments.size())
            optionArguments << arguments.at(++i);
    }
    if (!negative)
        return arguments;
    return optionArguments + QStringList{QStringLiteral("--")} + positional;
}

} // namespace semscope::cli
