#pragma once

#include <QLoggingCategory>

namespace semscope::redis {

// "semscope.redis" (the transport's own object, named apart from lcRedis of the store): connection life
// cycle, reconnects, script loading. Never logs passwords.
Q_DECLARE_LOGGING_CATEGORY(lcRedisTransport)

} // namespace semscope::redis
