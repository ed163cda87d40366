#include "ListenAddress.h"

namespace semscope::cli {

std::optional<ListenAddress> parseListenAddress(const QString &text, QString *error) {
    const auto fail = [&](const QString &why) -> std::optional<ListenAddress> {
        *error = QStringLiteral("--metrics: '%1' %2").arg(text, why);
        return std::nullopt;
    };
    QString host;
    QString port;
    if (text.startsWith(QLatin1Char('['))) {
        const qsizetype close = text.indexOf(QStringLiteral("]:"));
        if (close < 0)
            return fail(QStringLiteral("is not [IPv6]:PORT"));
        host = text.mid(1, close - 1);
        port = text.mid(close + 2);
    } else if (const qsizetype colon = text.lastIndexOf(QLatin1Char(':')); colon >= 0) {
        host = text.left(colon);
        port = text.mid(colon + 1);
        if (host.contains(QLatin1Char(':')))
            return fail(QStringLiteral("has an IPv6 address without brackets; write [ADDRESS]:PORT"));
    } else {
        port = text;
    }
    bool ok = false;
    const uint number = port.toUInt(&ok);
    if (!ok || number > 65535)
        return fail(QStringLiteral("needs a port from 0 to 65535, e.g. 127.0.0.1:9464"));
    ListenAddress address;
    address.port = quint16(number);
    if (host.isEmpty() || host == QLatin1String("localhost")) {
        address.host = QHostAddress(QHostAddress::LocalHost);
    } else if (!address.host.setAddress(host)) {
        return fail(
            QStringLiteral("does not name an IP address to listen on (e.g. 127.0.0.1, 0.0.0.0, [::1])"));
    }
    return address;
}

} // namespace semscope::cli
