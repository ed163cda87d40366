// semscope-cli: the headless face of semscope. QtCore and QtNetwork only.
#include "CliCommand.h"
#include "CliContext.h"
#include "GlobalOptions.h"
#include "NegativeNumbers.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QSet>
#include <QTextStream>

using namespace semscope::cli;

namespace {

QString commandListText(const std::vector<std::unique_ptr<CliCommand>> &commands) {
    QString text = QStringLiteral("Commands:\n");
    for (const auto &c : commands) {
        QString head = QStringLiteral("  ") + c->name();
        if (!c->usage().isEmpty())
            head += QLatin1Char(' ') + c->usage();
        text += head + QStringLiteral("\n      ") + c->summary() + QLatin1Char('\n');
    }
    return text;
}

} // namespace

int main(int argc, char *argv[]) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("semscope-cli"));
    QCoreApplication::setOrganizationName(QStringLiteral("semscope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SEMSCOPE_VERSION));

    const auto commands = allCommands();

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Inspect and steer distributed semaphores in Redis and Consul.\n\n") +
        commandListText(commands));
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions(globalOptions());
    QList<QCommandLineOption> known = globalOptions();
    QSet<QString> globalNames;
    for (const auto &opt : std::as_const(known))
        globalNames.unite(QSet<QString>(opt.names().cbegin(), opt.names().cend()));
    QSet<QString> seen = globalNames;
    for (const auto &c : commands) {
        for (const auto &opt : c->options()) {
            if (seen.contains(opt.names().constFirst()))
                continue; // shared option, declared by an earlier command
            seen.unite(QSet<QString>(opt.names().cbegin(), opt.names().cend()));
            parser.addOption(opt);
            known << opt;
        }
    }
    parser.addPositionalArgument(QStringLiteral("command"), QStringLiteral("What to do (see Commands)."));
    parser.addPositionalArgument(QStringLiteral("args"), QStringLiteral("The command's arguments."),
                                 QStringLiteral("[args...]"));

    QTextStream err(stderr);
    // A usage error before any command ran: one line on stderr and, with --json, its JSON document
    // on stdout as every other failure has (CliContext::fail).
    auto usageError = [&err](const QString &message, bool json) {
        err << "semscope-cli: " << message << "\n";
        err.flush();
        if (json)
            QTextStream(stdout)
                << QJsonDocument(jsonError(ExitUsage, {}, message)).toJson(QJsonDocument::Compact) << "\n";
        return int(ExitUsage);
    };
    if (!parser.parse(negativeNumbersAsPositional(QCoreApplication::arguments(), known)))
        return usageError(parser.errorText(),
                          QCoreApplication::arguments().contains(QStringLiteral("--json")));
    const bool json = parser.isSet(QStringLiteral("json"));
    if (parser.isSet(QStringLiteral("version"))) {
        QTextStream(stdout) << "semscope-cli " << SEMSCOPE_VERSION << "\n";
        return ExitOk;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(stdout) << parser.helpText();
        return ExitOk;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty())
        return usageError(QStringLiteral("no command given; see semscope-cli --help"), json);
    CliCommand *command = nullptr;
    for (const auto &c : commands) {
        if (c->name() == positional.constFirst())
            command = c.get();
    }
    if (!command)
        return usageError(
            QStringLiteral("unknown command '%1'; see semscope-cli --help").arg(positional.constFirst()),
            json);

    // One parser holds every command's options: one the command does not read would be taken and
    // ignored (`release … --replicas 1` promised what release never does).
    QSet<QString> accepted = globalNames;
    const QStringList own = command->optionNames();
    accepted.unite(QSet<QString>(own.cbegin(), own.cend()));
    for (const QString &name : parser.optionNames()) {
        if (!accepted.contains(name))
            return usageError(QStringLiteral("--%1 does not apply to %2; see semscope-cli --help")
                                  .arg(name, command->name()),
                              json);
    }

    CliContext ctx(parser);
    command->start(ctx);
    if (ctx.finished())
        return ctx.exitCode();
    const int code = QCoreApplication::exec();
    return ctx.finished() ? ctx.exitCode() : code;
}
