#include "RespEncoder.h"

#include <cstring>

namespace semscope::redis {

namespace {

// Decimal digits of n (n >= 0).
int digits(qsizetype n) {
    int d = 1;
    while (n >= 10) {
        n /= 10;
        ++d;
    }
    return d;
}

// Writes `prefix`, n in decimal and CRLF at p; returns the end.
char *header(char *p, char prefix, qsizetype n) {
    *p++ = prefix;
    const int d = digits(n);
    for (int i = d - 1; i >= 0; --i) {
        p[i] = char('0' + n % 10);
        n /= 10;
    }
    p += d;
    *p++ = '\r';
    *p++ = '\n';
    return p;
}

} // namespace

// Written directly into one buffer of the exact size. hiredis' formatters write every length with
// sprintf (redisFormatCommandArgv) or sdscatfmt (redisFormatSdsCommandArgv) into a buffer of their
// own that is then copied into a QByteArray: about ten times the time per command, and 9-28 % more
// of the load tester's CPU per pair in tests/bench/bench_loadtest (README, "Performance").
// tst_redisreply checks the bytes against redisFormatCommandArgv on random commands.
QByteArray encodeCommand(const QList<QByteArray> &args) {
    qsizetype size = 1 + digits(args.size()) + 2;
    for (const QByteArray &a : args)
        size += 1 + digits(a.size()) + 2 + a.size() + 2;
    QByteArray out(size, Qt::Uninitialized);
    char *p = header(out.data(), '*', args.size());
    for (const QByteArray &a : args) {
        p = header(p, '$', a.size());
        if (!a.isEmpty()) {
            std::memcpy(p, a.constData(), size_t(a.size()));
            p += a.size();
        }
        *p++ = '\r';
        *p++ = '\n';
    }
    Q_ASSERT(p == out.constData() + size);
    return out;
}

} // namespace semscope::redis
