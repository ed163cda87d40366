#pragma once

#include <QLoggingCategory>

namespace semscope::redis {

// "semscope.redis" (named apart from the store's lcRedis): connection life cycle, failures and
// reconnects at info/debug level, off by default because every failure also reaches the caller
// (TransportError, connectionLost, warning) and semscope-cli must print exactly one error line.
// Turn on with QT_LOGGING_RULES="semscope.redis.debug=true". Never logs passwords.
Q_DECLARE_LOGGING_CATEGORY(lcRedisTransport)

} // namespace semscope::redis
