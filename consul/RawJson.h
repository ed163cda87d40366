#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <memory>
#include <optional>

namespace semscope::consul {

// A JSON value that keeps every number exactly as it was written. Consul's Flags and indices are
// uint64; QJsonDocument stores numbers as double and would silently round 16210313421097356768
// (the semaphore flag) to a different integer, so everything that carries a Flags or index value
// goes through this parser instead.
class RawJson {
public:
    enum class Type { Null, Bool, Number, String, Array, Object };

    RawJson() = default;
    static RawJson null() { return {}; }
    static RawJson boolean(bool b);
    static RawJson number(QByteArray text);
    static RawJson string(QString s);
    static RawJson array(QList<RawJson> items = {});
    static RawJson object(QList<QPair<QString, RawJson>> members = {});

    Type type() const { return m_type; }
    bool isNull() const { return m_type == Type::Null; }
    bool isBool() const { return m_type == Type::Bool; }
    bool isNumber() const { return m_type == Type::Number; }
    bool isString() const { return m_type == Type::String; }
    bool isArray() const { return m_type == Type::Array; }
    bool isObject() const { return m_type == Type::Object; }

    bool toBool() const { return m_bool; }
    const QString &toString() const { return m_string; }
    const QByteArray &numberText() const { return m_number; }
    // Exact integer conversions; nullopt when the number is not an integer or out of range.
    std::optional<quint64> toUInt64() const;
    std::optional<qint64> toInt64() const;

    const QList<RawJson> &items() const { return m_items; }
    const QList<QPair<QString, RawJson>> &members() const { return m_members; }
    QList<QPair<QString, RawJson>> &members() { return m_members; }
    QList<RawJson> &items() { return m_items; }

    // Object lookup: exact name first, then (like Go's encoding/json) case-insensitively.
    const RawJson *find(const QString &name) const;
    // The member name as spelled in the document, for a case-insensitive match; empty if absent.
    QString spelling(const QString &name) const;
    QString typeName() const;

    // Compact serialisation (Go's json.Marshal style: no spaces).
    QByteArray toCompact() const;

    struct ParseResult;
    static ParseResult parse(const QByteArray &text, int maxDepth = 64);

private:
    void writeCompact(QByteArray &out) const;

    Type m_type = Type::Null;
    bool m_bool = false;
    QByteArray m_number;
    QString m_string;
    QList<RawJson> m_items;
    QList<QPair<QString, RawJson>> m_members;
};

struct RawJson::ParseResult {
    std::optional<RawJson> value;
    QString error; // "offset 12: expected ':'"
    bool ok() const { return value.has_value(); }
};

// JSON string literal (with quotes) for `s`, escaped as Go does for ASCII control characters.
QByteArray jsonQuote(const QString &s);
// Re-indents compact JSON text like Go's json.MarshalIndent(v, "", "    ") plus a newline, which is
// what Consul returns for `?pretty`.
QByteArray jsonIndent(const QByteArray &compact);

} // namespace semscope::consul
