#include "daemon/journal/record.h"

#include <charconv>

namespace pitlink::journal {

namespace {

void appendInt(std::int64_t value, std::string& out) {
    char buffer[24];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, end);
}

}  // namespace

void appendCanonicalBytes(const JournalRecord& record, std::string& out) {
    appendInt(record.seq, out);
    out += '\t';
    appendInt(record.atMs, out);
    out += '\t';
    out += record.kind;
    out += '\t';
    if (record.roundId) {
        appendInt(*record.roundId, out);
    }
    out += '\t';
    if (record.station) {
        appendInt(*record.station, out);
    }
    out += '\t';
    out += record.body;
}

std::string canonicalBytes(const JournalRecord& record) {
    std::string out;
    appendCanonicalBytes(record, out);
    return out;
}

std::string canonicalJson(const nlohmann::json& body) {
    return body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string toHex(std::span<const std::uint8_t> bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (const std::uint8_t byte : bytes) {
        out += kDigits[byte >> 4];
        out += kDigits[byte & 0x0f];
    }
    return out;
}

}  // namespace pitlink::journal
