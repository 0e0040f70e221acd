#include "daemon/journal/store/record.h"

#include <charconv>

namespace pitlink::journal {

namespace {

void appendInt(std::int64_t value, std::string& out) {
    char buffer[24];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, end);
}

void appendCanonicalFields(std::int64_t seq, std::int64_t atMs, std::string_view kind,
                           std::optional<std::int64_t> roundId, std::optional<std::int64_t> station,
                           std::string_view body, std::string& out) {
    appendInt(seq, out);
    out += '\t';
    appendInt(atMs, out);
    out += '\t';
    out += kind;
    out += '\t';
    if (roundId) {
        appendInt(*roundId, out);
    }
    out += '\t';
    if (station) {
        appendInt(*station, out);
    }
    out += '\t';
    out += body;
}

}  // namespace

void appendCanonicalBytes(const JournalRecord& record, std::string& out) {
    appendCanonicalFields(record.seq, record.atMs, record.kind, record.roundId, record.station, record.body, out);
}

void appendCanonicalBytes(std::int64_t seq, const PendingRecord& record, std::string& out) {
    appendCanonicalFields(seq, record.atMs, record.kind, record.roundId, record.station, record.body, out);
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

std::optional<std::vector<std::uint8_t>> fromHex(std::string_view text) {
    const auto nibble = [](char c) -> int {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    };
    if (text.size() % 2 != 0) {
        return std::nullopt;
    }
    std::vector<std::uint8_t> bytes;
    bytes.reserve(text.size() / 2);
    for (std::size_t i = 0; i < text.size(); i += 2) {
        const int high = nibble(text[i]);
        const int low = nibble(text[i + 1]);
        if (high < 0 || low < 0) {
            return std::nullopt;
        }
        bytes.push_back(static_cast<std::uint8_t>(high << 4 | low));
    }
    return bytes;
}

}  // namespace pitlink::journal
