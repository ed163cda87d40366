#pragma once

#include "KindRecognition.h"
#include "core/RawKeys.h"

#include <optional>

// What kind of semaphore one key, named by the operator, most likely is (File → Open key…): read
// off its type and a small sample, never off its name alone, since the keys that need opening are
// the ones whose names say nothing (a redis-py lock `invoice-run`). The operator confirms or picks
// another kind; nothing here talks to a server.
namespace semscope::redis {

struct KindGuess {
    std::optional<core::Kind> kind; // unset: no semaphore layout keeps a key like this one
    QString name;                   // the semaphore's name (`S` for a fair semaphore's `S:owner`)
    QString reason;                 // why, in the operator's words ("a string with a token and a TTL")
};

KindGuess guessKind(const KeyFingerprint &key, qint64 nowMs);

// A raw read of a key (the raw view's, bounded) as discovery's fingerprint of it.
KeyFingerprint fingerprintOf(const core::RawKey &key);

} // namespace semscope::redis
