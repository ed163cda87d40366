#pragma once

#include <QByteArray>
#include <QString>

#include "redis/RedisReply.h"

namespace semscope::redis {

// A Lua script with its SHA1, run through EVALSHA with a NOSCRIPT fallback to EVAL.
class LuaScript {
public:
    LuaScript() = default;
    explicit LuaScript(QByteArray source);
    // Loads ":/lua/<name>.lua" from the resources compiled into semscope_redis.
    static LuaScript fromResource(const QString &name);

    const QByteArray &source() const { return m_source; }
    const QByteArray &sha1() const { return m_sha1; } // lower-case hex
    bool isValid() const { return !m_source.isEmpty(); }

    // `reply` to a run of this script, with the place Redis 7 appends to an error the script raised
    // (" script: <sha1>, on @user_script:<line>.") taken off: semscope's own message ends the
    // line an operator reads. The place is logged (debug) for whoever debugs the script.
    RedisReply withoutErrorPlace(RedisReply reply) const;

private:
    QByteArray m_source;
    QByteArray m_sha1;
};

} // namespace semscope::redis
