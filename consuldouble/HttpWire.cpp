#include "HttpWire.h"

#include <QUrl>

namespace semscope::consul {

QByteArray HttpRequest::header(const QByteArray &lowerName) const {
    for (const auto &h : headers) {
        if (h.first == lowerName)
            return h.second;
    }
    return {};
}

void HttpResponse::setHeader(const QByteArray &name, const QByteArray &value) {
    for (auto &h : headers) {
        if (h.first.compare(name, Qt::CaseInsensitive) == 0) {
            h.second = value;
            return;
        }
    }
    headers.append({name, value});
}

QByteArray httpReasonPhrase(int status) {
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 409:
        return "Conflict";
    case 411:
        return "Length Required";
    case 413:
        return "Request Entity Too Large";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 503:
        return "Service Unavailable";
    default:
        return "Status";
    }
}

QByteArray HttpResponse::serialize(bool keepAlive) const {
    QByteArray out = "HTTP/1.1 " + QByteArray::number(status) + ' ' + httpReasonPhrase(status) + "\r\n";
    for (const auto &h : headers)
        out += h.first + ": " + h.second + "\r\n";
    out += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    if (!keepAlive)
        out += "Connection: close\r\n";
    out += "\r\n";
    out += body;
    return out;
}

std::optional<HttpRequest> HttpRequestReader::next(QString *error) {
    const qsizetype headerEnd = m_buffer.indexOf("\r\n\r\n");
    if (headerEnd < 0) {
        if (m_buffer.size() > kMaxHeaderBytes)
            *error = QStringLiteral("request header too large");
        return std::nullopt;
    }
    const QList<QByteArray> lines = m_buffer.left(headerEnd).split('\n');
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    if (requestLine.size() != 3 || !requestLine[2].startsWith("HTTP/1.")) {
        *error = QStringLiteral("malformed request line");
        return std::nullopt;
    }
    HttpRequest req;
    req.method = QString::fromLatin1(requestLine[0]);
    req.target = requestLine[1];
    req.keepAlive = requestLine[2] != "HTTP/1.0";
    qsizetype contentLength = 0;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines[i].trimmed();
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            continue;
        const QByteArray name = line.left(colon).trimmed().toLower();
        const QByteArray value = line.mid(colon + 1).trimmed();
        req.headers.append({name, value});
        if (name == "content-length") {
            bool ok = false;
            contentLength = value.toLongLong(&ok);
            if (!ok || contentLength < 0 || contentLength > kMaxBodyBytes) {
                *error = QStringLiteral("bad Content-Length");
                return std::nullopt;
            }
        } else if (name == "transfer-encoding" && value.toLower() != "identity") {
            *error = QStringLiteral("chunked request bodies are not supported; send Content-Length");
            return std::nullopt;
        } else if (name == "connection") {
            if (value.toLower() == "close")
                req.keepAlive = false;
            else if (value.toLower() == "keep-alive")
                req.keepAlive = true;
        }
    }
    const qsizetype total = headerEnd + 4 + contentLength;
    if (m_buffer.size() < total)
        return std::nullopt;
    req.body = m_buffer.mid(headerEnd + 4, contentLength);
    m_buffer.remove(0, total);

    const qsizetype q = req.target.indexOf('?');
    const QByteArray rawPath = q < 0 ? req.target : req.target.left(q);
    req.path = QUrl::fromPercentEncoding(rawPath);
    if (q >= 0)
        req.query.setQuery(QString::fromUtf8(req.target.mid(q + 1)));
    return req;
}

} // namespace semscope::consul
