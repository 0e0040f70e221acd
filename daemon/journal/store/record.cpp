#include "daemon/journal/store/record.h"

#include <array>
#include <charconv>

namespace pitlink::journal {

namespace {

// Writes `value` at `at` and returns the end: at most 20 characters ("-9223372036854775808").
char* putInt(std::int64_t value, char* at) {
    return std::to_chars(at, at + 20, value).ptr;
}

void appendCanonicalFields(std::int64_t seq, std::int64_t atMs, std::string_view kind,
                           std::optional<std::int64_t> roundId, std::optional<std::int64_t> station,
                           std::string_view body, std::string& out) {
    // The numbers and tabs are written into a buffer and appended in two pieces, not ten: the
    // chain check of a year's journal makes these bytes for tens of millions of records.
    std::array<char, 4 * 20 + 5> numbers{};
    char* at = putInt(seq, numbers.data());
    *at++ = '\t';
    at = putInt(atMs, at);
    *at++ = '\t';
    out.append(numbers.data(), at);
    out += kind;
    at = numbers.data();
    *at++ = '\t';
    if (roundId) {
        at = putInt(*roundId, at);
    }
    *at++ = '\t';
    if (station) {
        at = putInt(*station, at);
    }
    *at++ = '\t';
    out.append(numbers.data(), at);
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
