#pragma once

#include "redis/ConnectionSettings.h"
#include "redis/RedisReply.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <functional>

namespace semscope::redis {

// What a fresh connection says before any command of the owner goes out: AUTH, SELECT, CLIENT
// SETNAME, READONLY (a Cluster replica) and, through Sentinel, ROLE. The connection writes the
// steps in one go and sends queued commands only after their replies, so those never run
// unauthenticated, in the wrong database or on a demoted master.
struct HandshakeStep {
    QList<QByteArray> args;
    QString what;  // prefix of the failure message ("authentication failed")
    bool required; // an error reply ends the attempt; otherwise it is only a warning
    // Optional: a reason to refuse a reply that is not an error.
    std::function<QString(const RedisReply &)> check = {};
    // A refusal by `check` means the sentinels named a node that is not the master.
    bool staleMaster = false;

    // The command as messages name it ("AUTH", "CLIENT SETNAME"): never its arguments, which may
    // be a password.
    QByteArray name() const;
};

// The steps for `settings`, in the order they are written. `throughSentinel` adds the ROLE check of
// `servingNode` (the node the sentinels named). Empty: the connection is ready at once.
QList<HandshakeStep> handshakeSteps(const ConnectionSettings &settings, bool throughSentinel,
                                    const QString &servingNode);

// What one step's reply means for the attempt.
struct HandshakeVerdict {
    enum class Outcome {
        Passed,      // go on with the next step
        Warned,      // go on, but tell the owner `message` (an optional step failed)
        Failed,      // end the attempt with `message`
        StaleMaster, // end the attempt and ask the sentinels again: `message` says why
    };
    Outcome outcome = Outcome::Passed;
    QString message;
};
HandshakeVerdict judgeHandshakeReply(const HandshakeStep &step, const RedisReply &reply);

} // namespace semscope::redis
