#include "Handshake.h"

#include "redis/ClientLiveness.h"

namespace semscope::redis {

QByteArray HandshakeStep::name() const {
    if (args.isEmpty())
        return {};
    // Subcommands are part of the name (CLIENT SETNAME); AUTH's and SELECT's arguments are not.
    if (args.size() > 1 && args.constFirst() == "CLIENT")
        return args.constFirst() + ' ' + args.at(1);
    return args.constFirst();
}

QList<HandshakeStep> handshakeSteps(const ConnectionSettings &settings, bool throughSentinel,
                                    const QString &servingNode) {
    QList<HandshakeStep> steps;
    if (!settings.password.isEmpty()) {
        QList<QByteArray> auth = {QByteArrayLiteral("AUTH")};
        if (!settings.user.isEmpty())
            auth << settings.user.toUtf8();
        auth << settings.password.toUtf8();
        steps.append({auth, QStringLiteral("authentication failed"), true});
    }
    if (settings.db != 0) {
        steps.append({{QByteArrayLiteral("SELECT"), QByteArray::number(settings.db)},
                      QStringLiteral("SELECT %1 failed").arg(settings.db),
                      true});
    }
    if (!settings.clientName.isEmpty()) {
        // "<name>:<pid>@<host>": a holder's owner record names its process, and this is how
        // the holder card finds that process among the server's clients (ClientLiveness.h).
        const QByteArray name = processClientName(settings.clientName).toUtf8();
        steps.append({{QByteArrayLiteral("CLIENT"), QByteArrayLiteral("SETNAME"), name},
                      QStringLiteral("CLIENT SETNAME failed"),
                      false});
    }
    if (settings.clusterReadOnly) {
        // Part of the handshake, so that a reconnected replica connection reads again at once.
        steps.append({{QByteArrayLiteral("READONLY")}, QStringLiteral("READONLY failed"), true});
    }
    if (throughSentinel) {
        // A sentinel that has not caught up can name a node that was demoted: talk only to a
        // master (the next attempt asks the sentinels again).
        steps.append({{QByteArrayLiteral("ROLE")},
                      QStringLiteral("role check failed"),
                      true,
                      [node = servingNode](const RedisReply &reply) {
                          const QByteArray role = reply.isArray() && !reply.elements.isEmpty()
                                                      ? reply.elements.constFirst().str
                                                      : QByteArray();
                          if (role == "master")
                              return QString();
                          return QStringLiteral("%1 is not a master (ROLE says '%2')")
                              .arg(node, QString::fromUtf8(role.left(20)));
                      },
                      true});
    }
    return steps;
}

HandshakeVerdict judgeHandshakeReply(const HandshakeStep &step, const RedisReply &reply) {
    using Outcome = HandshakeVerdict::Outcome;
    if (step.check && !reply.isError()) {
        const QString refusal = step.check(reply);
        if (!refusal.isEmpty())
            return {step.staleMaster ? Outcome::StaleMaster : Outcome::Failed, refusal};
    }
    // NOAUTH to any step: the server wants a password and none was given. Nothing after the handshake
    // could work either, so the attempt ends here as a refused AUTH would, rather than every command
    // failing one by one with its own text (an acquire's script load reads "unauthenticated multibulk
    // length").
    if (reply.isServerError() && reply.str.startsWith("NOAUTH"))
        return {Outcome::Failed, QStringLiteral("authentication required: the server wants a password and "
                                                "none was given (%1)")
                                     .arg(reply.errorMessage())};
    if (reply.isServerError()) {
        const QString message = step.what + QStringLiteral(": ") + reply.errorMessage();
        return {step.required ? Outcome::Failed : Outcome::Warned, message};
    }
    return {};
}

} // namespace semscope::redis
