#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrlQuery>
#include <optional>

namespace semscope::consul {

// One HTTP/1.1 request as the double sees it.
struct HttpRequest {
    QString method;
    QString path;      // percent-decoded
    QByteArray target; // as sent, for logs
    QUrlQuery query;
    QList<QPair<QByteArray, QByteArray>> headers; // names lower-cased
    QByteArray body;
    bool keepAlive = true;

    QByteArray header(const QByteArray &lowerName) const;
    bool has(const QString &param) const { return query.hasQueryItem(param); }
    QString param(const QString &name) const { return query.queryItemValue(name, QUrl::FullyDecoded); }
};

struct HttpResponse {
    int status = 200;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;

    void setHeader(const QByteArray &name, const QByteArray &value);
    QByteArray serialize(bool keepAlive) const;
};

// Incremental request parser: feed bytes as they arrive, take complete requests out.
class HttpRequestReader {
public:
    void feed(const QByteArray &bytes) { m_buffer += bytes; }
    // A complete request, nullopt if more bytes are needed. On a malformed request sets *error.
    std::optional<HttpRequest> next(QString *error);

    static constexpr qsizetype kMaxHeaderBytes = 64 * 1024;
    static constexpr qsizetype kMaxBodyBytes = 16 * 1024 * 1024;

private:
    QByteArray m_buffer;
};

QByteArray httpReasonPhrase(int status);

} // namespace semscope::consul
