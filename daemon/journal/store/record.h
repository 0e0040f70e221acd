#pragma once
// One journal record, and the canonical bytes its chain link is computed over (schema/README.md
// "Hash chain" gives the same definition for inspectors who check it with their own tools).
#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pitlink::journal {

using Digest = std::array<std::uint8_t, 32>;

struct JournalRecord {
    std::int64_t seq = 0;
    std::int64_t atMs = 0;
    std::string kind;
    std::optional<std::int64_t> roundId;
    std::optional<std::int64_t> station;
    std::string body;  // canonical JSON
    Digest hash{};
};

// A record the logic thread wants written; the store gives it its sequence number and link.
struct PendingRecord {
    std::int64_t atMs = 0;
    std::string kind;
    std::optional<std::int64_t> roundId;
    std::optional<std::int64_t> station;
    std::string body;  // canonical JSON
};

// The sequence numbers the store gave one transaction's records.
struct AppendResult {
    std::int64_t firstSeq = 0;
    std::int64_t lastSeq = 0;
};

// "<seq>\t<at_ms>\t<kind>\t<round_id or empty>\t<station or empty>\t<body>" in UTF-8.
[[nodiscard]] std::string canonicalBytes(const JournalRecord& record);
void appendCanonicalBytes(const JournalRecord& record, std::string& out);
// The same bytes for a record about to be written as number `seq` (no copy of its body).
void appendCanonicalBytes(std::int64_t seq, const PendingRecord& record, std::string& out);

// The body's canonical text: sorted keys, no spaces, integers only; invalid UTF-8 in free text
// (a dispute's words) is replaced rather than refused.
[[nodiscard]] std::string canonicalJson(const nlohmann::json& body);

[[nodiscard]] std::string toHex(std::span<const std::uint8_t> bytes);
// The bytes of hexadecimal text (either case); nullopt when it is not whole bytes of hex digits.
[[nodiscard]] std::optional<std::vector<std::uint8_t>> fromHex(std::string_view text);

}  // namespace pitlink::journal
