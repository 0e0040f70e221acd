#pragma once
// The journal's hash chain: h_n = SHA-256(h_{n-1} || canonical bytes of record n), or
// HMAC-SHA-256 keyed with the table's journal key, so that someone without the key who edits a
// record cannot recompute the links after it. h_0 is 32 zero bytes. OpenSSL does the hashing.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/journal/store/record.h"

namespace pitlink::journal {

class ChainHasher {
public:
    // No key: plain SHA-256 chain. A key: HMAC-SHA-256 chain.
    explicit ChainHasher(std::optional<std::vector<std::uint8_t>> key = std::nullopt);
    ~ChainHasher();
    ChainHasher(const ChainHasher&) = delete;
    ChainHasher& operator=(const ChainHasher&) = delete;

    [[nodiscard]] Digest link(const Digest& previous, std::string_view canonical);
    [[nodiscard]] bool keyed() const { return keyed_; }
    // "sha256" or "hmac-sha256": stored in journal_info so a journal is never checked the wrong way.
    [[nodiscard]] std::string_view mode() const { return keyed_ ? "hmac-sha256" : "sha256"; }
    // SHA-256 of the key, hex: lets start-up tell a wrong key from an edited journal.
    [[nodiscard]] std::string keyFingerprint() const { return fingerprint_; }

private:
    struct OpenSsl;
    std::unique_ptr<OpenSsl> ssl_;
    bool keyed_;
    std::string fingerprint_;
};

inline constexpr Digest kGenesisDigest{};

// SHA-256 of arbitrary bytes (paytable content hashes, key fingerprints).
[[nodiscard]] Digest sha256(std::string_view bytes);

// Reads a journal key file: at least 32 bytes, a regular file that group and others cannot read
// (a key anyone can read signs nothing). Throws JournalError naming the problem.
[[nodiscard]] std::vector<std::uint8_t> loadChainKey(const std::filesystem::path& path);

}  // namespace pitlink::journal
