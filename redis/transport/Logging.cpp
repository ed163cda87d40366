#include "Logging.h"

namespace semscope::redis {

Q_LOGGING_CATEGORY(lcRedisTransport, "semscope.redis", QtInfoMsg)

} // namespace semscope::redis
