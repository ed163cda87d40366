#include "RawJson.h"

namespace semscope::consul {

RawJson RawJson::boolean(bool b) {
    RawJson v;
    v.m_type = Type::Bool;
    v.m_bool = b;
    return v;
}

RawJson RawJson::number(QByteArray text) {
    RawJson v;
    v.m_type = Type::Number;
    v.m_number = std::move(text);
    return v;
}

RawJson RawJson::string(QString s) {
    RawJson v;
    v.m_type = Type::String;
    v.m_string = std::move(s);
    return v;
}

RawJson RawJson::array(QList<RawJson> items) {
    RawJson v;
    v.m_type = Type::Array;
    v.m_items = std::move(items);
    return v;
}

RawJson RawJson::object(QList<QPair<QString, RawJson>> members) {
    RawJson v;
    v.m_type = Type::Object;
    v.m_members = std::move(members);
    return v;
}

std::optional<quint64> RawJson::toUInt64() const {
    if (m_type != Type::Number)
        return std::nullopt;
    bool ok = false;
    const quint64 v = m_number.toULongLong(&ok, 10);
    if (!ok || m_number.startsWith('-') || m_number.startsWith('+'))
        return std::nullopt;
    return v;
}

std::optional<qint64> RawJson::toInt64() const {
    if (m_type != Type::Number)
        return std::nullopt;
    bool ok = false;
    const qint64 v = m_number.toLongLong(&ok, 10);
    if (!ok || m_number.startsWith('+'))
        return std::nullopt;
    return v;
}

const RawJson *RawJson::find(const QString &name) const {
    if (m_type != Type::Object)
        return nullptr;
    for (const auto &m : m_members) {
        if (m.first == name)
            return &m.second;
    }
    for (const auto &m : m_members) {
        if (m.first.compare(name, Qt::CaseInsensitive) == 0)
            return &m.second;
    }
    return nullptr;
}

QString RawJson::spelling(const QString &name) const {
    if (m_type != Type::Object)
        return {};
    for (const auto &m : m_members) {
        if (m.first == name)
            return m.first;
    }
    for (const auto &m : m_members) {
        if (m.first.compare(name, Qt::CaseInsensitive) == 0)
            return m.first;
    }
    return {};
}

QString RawJson::typeName() const {
    switch (m_type) {
    case Type::Null:
        return QStringLiteral("null");
    case Type::Bool:
        return QStringLiteral("boolean");
    case Type::Number:
        return QStringLiteral("number");
    case Type::String:
        return QStringLiteral("string");
    case Type::Array:
        return QStringLiteral("array");
    case Type::Object:
        return QStringLiteral("object");
    }
    return {};
}

QByteArray jsonQuote(const QString &s) {
    QByteArray out;
    const QByteArray utf8 = s.toUtf8();
    out.reserve(utf8.size() + 2);
    out += '"';
    for (const char c : utf8) {
        const auto u = static_cast<unsigned char>(c);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (u < 0x20) {
                static const char hex[] = "0123456789abcdef";
                out += "\\u00";
                out += hex[u >> 4];
                out += hex[u & 0xf];
            } else {
                out += c;
            }
        }
    }
    out += '"';
    return out;
}

void RawJson::writeCompact(QByteArray &out) const {
    switch (m_type) {
    case Type::Null:
        out += "null";
        break;
    case Type::Bool:
        out += m_bool ? "true" : "false";
        break;
    case Type::Number:
        out += m_number;
        break;
    case Type::String:
        out += jsonQuote(m_string);
        break;
    case Type::Array:
        out += '[';
        for (qsizetype i = 0; i < m_items.size(); ++i) {
            if (i)
                out += ',';
            m_items[i].writeCompact(out);
        }
        out += ']';
        break;
    case Type::Object:
        out += '{';
        for (qsizetype i = 0; i < m_members.size(); ++i) {
            if (i)
                out += ',';
            out += jsonQuote(m_members[i].first);
            out += ':';
            m_members[i].second.writeCompact(out);
        }
        out += '}';
        break;
    }
}

QByteArray RawJson::toCompact() const {
    QByteArray out;
    writeCompact(out);
    return out;
}

namespace {

class Parser {
public:
    Parser(const QByteArray &text, int maxDepth)
        : m_text(text)
        , m_maxDepth(maxDepth) {}

    RawJson::ParseResult run() {
        RawJson::ParseResult result;
        skipSpace();
        RawJson v;
        if (!parseValue(v, 0))
            return fail();
        skipSpace();
        if (m_pos != m_text.size()) {
            m_error = QStringLiteral("unexpected data after the JSON value");
            return fail();
        }
        result.value = std::move(v);
        return result;
    }

private:
    RawJson::ParseResult fail() {
        RawJson::ParseResult result;
        result.error = QStringLiteral("offset %1: %2").arg(m_pos).arg(m_error);
        return result;
    }

    void skipSpace() {
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
                break;
            ++m_pos;
        }
    }

    bool expectLiteral(const char *lit) {
        const QByteArray l(lit);
        if (m_text.mid(m_pos, l.size()) != l) {
            m_error = QStringLiteral("invalid literal");
            return false;
        }
        m_pos += l.size();
        return true;
    }

    bool parseValue(RawJson &out, int depth) {
        if (depth > m_maxDepth) {
            m_error = QStringLiteral("nested deeper than %1 levels").arg(m_maxDepth);
            return false;
        }
        if (m_pos >= m_text.size()) {
            m_error = QStringLiteral("unexpected end of input");
            return false;
        }
        const char c = m_text[m_pos];
        switch (c) {
        case 'n':
            out = RawJson::null();
            return expectLiteral("null");
        case 't':
            out = RawJson::boolean(true);
            return expectLiteral("true");
        case 'f':
            out = RawJson::boolean(false);
            return expectLiteral("false");
        case '"': {
            QString s;
            if (!parseString(s))
                return false;
            out = RawJson::string(std::move(s));
            return true;
        }
        case '[':
            return parseArray(out, depth);
        case '{':
            return parseObject(out, depth);
        default:
            if (c == '-' || (c >= '0' && c <= '9'))
                return parseNumber(out);
            m_error = QStringLiteral("unexpected character '%1'").arg(QLatin1Char(c));
            return false;
        }
    }

    bool parseNumber(RawJson &out) {
        const qsizetype start = m_pos;
        auto digit = [this] { return m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9'; };
        if (m_text[m_pos] == '-')
            ++m_pos;
        if (!digit()) {
            m_error = QStringLiteral("invalid number");
            return false;
        }
        if (m_text[m_pos] == '0') {
            ++m_pos;
        } else {
            while (digit())
                ++m_pos;
        }
        if (m_pos < m_text.size() && m_text[m_pos] == '.') {
            ++m_pos;
            if (!digit()) {
                m_error = QStringLiteral("invalid number");
                return false;
            }
            while (digit())
                ++m_pos;
        }
        if (m_pos < m_text.size() && (m_text[m_pos] == 'e' || m_text[m_pos] == 'E')) {
            ++m_pos;
            if (m_pos < m_text.size() && (m_text[m_pos] == '+' || m_text[m_pos] == '-'))
                ++m_pos;
            if (!digit()) {
                m_error = QStringLiteral("invalid number");
                return false;
            }
            while (digit())
                ++m_pos;
        }
        out = RawJson::number(m_text.mid(start, m_pos - start));
        return true;
    }

    bool parseHex4(uint &out) {
        if (m_pos + 4 > m_text.size()) {
            m_error = QStringLiteral("truncated \\u escape");
            return false;
        }
        bool ok = false;
        out = m_text.mid(m_pos, 4).toUInt(&ok, 16);
        if (!ok) {
            m_error = QStringLiteral("invalid \\u escape");
            return false;
        }
        m_pos += 4;
        return true;
    }

    bool parseString(QString &out) {
        ++m_pos; // opening quote
        QByteArray utf8;
        while (true) {
            if (m_pos >= m_text.size()) {
                m_error = QStringLiteral("unterminated string");
                return false;
            }
            const char c = m_text[m_pos++];
            if (c == '"')
                break;
            if (static_cast<unsigned char>(c) < 0x20) {
                m_error = QStringLiteral("control character in string");
                return false;
            }
            if (c != '\\') {
                utf8 += c;
                continue;
            }
            if (m_pos >= m_text.size()) {
                m_error = QStringLiteral("unterminated string");
                return false;
            }
            const char e = m_text[m_pos++];
            switch (e) {
            case '"':
            case '\\':
            case '/':
                utf8 += e;
                break;
            case 'b':
                utf8 += '\b';
                break;
            case 'f':
                utf8 += '\f';
                break;
            case 'n':
                utf8 += '\n';
                break;
            case 'r':
                utf8 += '\r';
                break;
            case 't':
                utf8 += '\t';
                break;
            case 'u': {
                uint code = 0;
                if (!parseHex4(code))
                    return false;
                char32_t cp = code;
                if (code >= 0xD800 && code <= 0xDBFF && m_pos + 1 < m_text.size() && m_text[m_pos] == '\\' &&
                    m_text[m_pos + 1] == 'u') {
                    m_pos += 2;
                    uint low = 0;
                    if (!parseHex4(low))
                        return false;
                    if (low >= 0xDC00 && low <= 0xDFFF)
                        cp = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                    else
                        cp = 0xFFFD;
                } else if (code >= 0xD800 && code <= 0xDFFF) {
                    cp = 0xFFFD;
                }
                utf8 += QString::fromUcs4(&cp, 1).toUtf8();
                break;
            }
            default:
                m_error = QStringLiteral("invalid escape '\\%1'").arg(QLatin1Char(e));
                return false;
            }
        }
        out = QString::fromUtf8(utf8);
        return true;
    }

    bool parseArray(RawJson &out, int depth) {
        ++m_pos;
        QList<RawJson> items;
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == ']') {
            ++m_pos;
            out = RawJson::array();
            return true;
        }
        while (true) {
            skipSpace();
            RawJson item;
            if (!parseValue(item, depth + 1))
                return false;
            items.append(std::move(item));
            skipSpace();
            if (m_pos >= m_text.size()) {
                m_error = QStringLiteral("unterminated array");
                return false;
            }
            const char c = m_text[m_pos++];
            if (c == ']')
                break;
            if (c != ',') {
                --m_pos;
                m_error = QStringLiteral("expected ',' or ']'");
                return false;
            }
        }
        out = RawJson::array(std::move(items));
        return true;
    }

    bool parseObject(RawJson &out, int depth) {
        ++m_pos;
        QList<QPair<QString, RawJson>> members;
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == '}') {
            ++m_pos;
            out = RawJson::object();
            return true;
        }
        while (true) {
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos] != '"') {
                m_error = QStringLiteral("expected a member name");
                return false;
            }
            QString name;
            if (!parseString(name))
                return false;
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos] != ':') {
                m_error = QStringLiteral("expected ':'");
                return false;
            }
            ++m_pos;
            skipSpace();
            RawJson value;
            if (!parseValue(value, depth + 1))
                return false;
            members.append({name, std::move(value)});
            skipSpace();
            if (m_pos >= m_text.size()) {
                m_error = QStringLiteral("unterminated object");
                return false;
            }
            const char c = m_text[m_pos++];
            if (c == '}')
                break;
            if (c != ',') {
                --m_pos;
                m_error = QStringLiteral("expected ',' or '}'");
                return false;
            }
        }
        out = RawJson::object(std::move(members));
        return true;
    }

    const QByteArray &m_text;
    int m_maxDepth;
    qsizetype m_pos = 0;
    QString m_error;
};

} // namespace

RawJson::ParseResult RawJson::parse(const QByteArray &text, int maxDepth) {
    return Parser(text, maxDepth).run();
}

QByteArray jsonIndent(const QByteArray &compact) {
    QByteArray out;
    out.reserve(compact.size() * 2);
    int level = 0;
    bool inString = false;
    auto newline = [&](int lvl) {
        out += '\n';
        out += QByteArray(lvl * 4, ' ');
    };
    for (qsizetype i = 0; i < compact.size(); ++i) {
        const char c = compact[i];
        if (inString) {
            out += c;
            if (c == '\\' && i + 1 < compact.size()) {
                out += compact[++i];
            } else if (c == '"') {
                inString = false;
            }
            continue;
        }
        switch (c) {
        case '"':
            inString = true;
            out += c;
            break;
        case '[':
        case '{': {
            const char close = c == '[' ? ']' : '}';
            if (i + 1 < compact.size() && compact[i + 1] == close) {
                out += c;
                out += close; // Go prints empty containers as [] and {}
                ++i;
                break;
            }
            out += c;
            newline(++level);
            break;
        }
        case ']':
        case '}':
            newline(--level);
            out += c;
            break;
        case ',':
            out += c;
            newline(level);
            break;
        case ':':
            out += ": ";
            break;
        default:
            out += c;
        }
    }
    out += '\n';
    return out;
}

} // namespace semscope::consul
