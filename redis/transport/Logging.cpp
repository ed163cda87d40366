#include "Logging.h"

namespace semscope::redis {

Q_LOGGING_CATEGORY(lcRedisTransport, "semscope.redis", QtWarningMsg)

} // namespace semscope::redis
