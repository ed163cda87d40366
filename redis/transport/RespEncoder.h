#pragma once

#include <QByteArray>
#include <QList>

namespace semscope::redis {

// One command in RESP (an array of bulk strings), byte for byte what hiredis' redisFormatCommandArgv
// writes. Binary-safe: arguments may hold any bytes, including NUL and CRLF.
QByteArray encodeCommand(const QList<QByteArray> &args);

} // namespace semscope::redis
