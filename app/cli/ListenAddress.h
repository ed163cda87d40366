#pragma once

#include <QHostAddress>
#include <QString>
#include <optional>

namespace semscope::cli {

struct ListenAddress {
    QHostAddress host;
    quint16 port = 0; // 0: any free port (the one chosen is printed)
};

// Reads `serve --metrics`' HOST:PORT. HOST is an IPv4 address, a bracketed IPv6 address
// ("[::1]:9464") or `localhost`; an empty HOST (":9464") or a bare port means 127.0.0.1 — an
// exporter is reachable from other machines only when the operator names an address for that
// (0.0.0.0, [::]). nullopt with `error` set for anything else.
std::optional<ListenAddress> parseListenAddress(const QString &text, QString *error);

} // namespace semscope::cli
