#include "LuaScript.h"

#include "transport/Logging.h"
#include <QCryptographicHash>
#include <QFile>

namespace semscope::redis {

LuaScript::LuaScript(QByteArray source)
    : m_source(std::move(source))
    , m_sha1(QCryptographicHash::hash(m_source, QCryptographicHash::Sha1).toHex()) {}

LuaScript LuaScript::fromResource(const QString &name) {
    const QString path = QStringLiteral(":/lua/") + name + QStringLiteral(".lua");
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        // A missing script is a build mistake; the invalid script makes eval() fail with a clear
        // error instead of sending an empty script.
        qCWarning(lcRedisTransport) << "Lua script resource missing:" << path;
        return {};
    }
    return LuaScript(file.readAll());
}

RedisReply LuaScript::withoutErrorPlace(RedisReply reply) const {
    if (!reply.isServerError())
        return reply;
    // Only this script's own sha1 counts, so an error that merely quotes such words stays whole.
    const QByteArray marker = " script: " + m_sha1 + ", on @user_script:";
    const qsizetype at = reply.str.lastIndexOf(marker);
    if (at < 0 || !reply.str.endsWith('.'))
        return reply;
    qCDebug(lcRedisTransport).noquote() << "script error raised at" << reply.str.mid(at + 1);
    reply.str.truncate(at);
    return reply;
}

} // namespace semscope::redis
