#include "RespEncoder.h"

#include <hiredis/hiredis.h>
#include <new>
#include <vector>

namespace semscope::redis {

QByteArray encodeCommand(const QList<QByteArray> &args) {
    std::vector<const char *> argv;
    std::vector<size_t> argvlen;
    argv.reserve(size_t(args.size()));
    argvlen.reserve(size_t(args.size()));
    for (const QByteArray &a : args) {
        argv.push_back(a.constData());
        argvlen.push_back(size_t(a.size()));
    }
    char *target = nullptr;
    const int len = redisFormatCommandArgv(&target, int(argv.size()), argv.data(), argvlen.data());
    if (len < 0 || !target)
        throw std::bad_alloc();
    QByteArray out(target, len);
    redisFreeCommand(target);
    return out;
}

} // namespace semscope::redis
