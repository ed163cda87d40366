#include "HashSlot.h"

#include <array>

namespace semscope::redis::topology {

namespace {

// CRC16-CCITT (XMODEM): polynomial 0x1021, initial value 0, no reflection; the cluster spec's
// reference answer for "123456789" is 0x31C3.
constexpr std::array<quint16, 256> makeTable() {
    std::array<quint16, 256> table{};
    for (int i = 0; i < 256; ++i) {
        quint16 crc = quint16(i << 8);
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc & 0x8000) ? quint16((crc << 1) ^ 0x1021) : quint16(crc << 1);
        table[size_t(i)] = crc;
    }
    return table;
}

constexpr std::array<quint16, 256> kTable = makeTable();

quint16 crc16(const char *data, qsizetype size) {
    quint16 crc = 0;
    for (qsizetype i = 0; i < size; ++i)
        crc = quint16((crc << 8) ^ kTable[size_t(((crc >> 8) ^ quint8(data[i])) & 0xff)]);
    return crc;
}

} // namespace

int hashSlot(const QByteArray &key) {
    const qsizetype open = key.indexOf('{');
    if (open >= 0) {
        const qsizetype close = key.indexOf('}', open + 1);
        if (close > open + 1)
            return crc16(key.constData() + open + 1, close - open - 1) % kHashSlots;
    }
    return crc16(key.constData(), key.size()) % kHashSlots;
}

QList<int> distinctSlots(const QList<QByteArray> &keys) {
    QList<int> found;
    for (const QByteArray &k : keys) {
        const int s = hashSlot(k);
        if (!found.contains(s))
            found << s;
    }
    return found;
}

} // namespace semscope::redis::topology
