#pragma once
// The journal file: opening (pragmas, migrations, chain mode), appending records in one
// transaction each with their chain links, and reading them back. Used by one thread at a time:
// start-up and recovery first, then the writer thread; readers (audit, recall tools) open their own.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "daemon/journal/store/chain_hasher.h"
#include "daemon/journal/store/record.h"
#include "daemon/journal/store/sqlite_connection.h"

namespace pitlink::journal {

struct StoreOptions {
    std::optional<std::vector<std::uint8_t>> key;  // HMAC key; none: plain SHA-256 chain
    const char* vfs = nullptr;                     // SQLite VFS (tests: power loss, failing disk)
    bool readOnly = false;                         // inspectors' tools: never migrate, never write
    std::int64_t createdAtMs = 0;                  // for journal_info of a new journal
    bool immutable = false;                        // with readOnly: a sealed segment (Mode::Immutable)
    // With readOnly: the chain mode and key fingerprint are read, not checked against `key`: a
    // reader that never recomputes an HMAC link (pitlink-ship holds no key) opens any journal.
    bool anyChain = false;
};

class JournalStore {
public:
    JournalStore(const std::string& path, const StoreOptions& options);

    // One transaction holding every record given, linked to the chain. On failure nothing is
    // written, the chain tip is unchanged, and JournalError is thrown.
    AppendResult append(std::span<const PendingRecord> records);
    // The same in steps, for the writer's group commit: begin, insert batches, commit.
    void begin();
    AppendResult insert(std::span<const PendingRecord> records);
    void commit();
    void rollback() noexcept;

    [[nodiscard]] std::int64_t tipSeq() const { return tipSeq_; }
    [[nodiscard]] const Digest& tipHash() const { return tipHash_; }
    [[nodiscard]] ChainHasher& hasher() { return *hasher_; }
    [[nodiscard]] int schemaVersion() const { return schemaVersion_; }
    // journal_info's created_at_ms: when the journal (its first segment) was created.
    [[nodiscard]] std::int64_t createdAtMs();
    // journal_info's chain ("sha256" or "hmac-sha256") and key_fingerprint ("" without a key).
    [[nodiscard]] const std::string& chainMode() const { return chainMode_; }
    [[nodiscard]] const std::string& keyFingerprint() const { return keyFingerprint_; }

    // A new, empty segment continues the chain of the one it follows: its first record is
    // `seq + 1` (journal_info first_seq), linked to `hash`. Throws JournalError if the store holds
    // records.
    void continueChain(std::int64_t seq, const Digest& hash);
    // Copies the WAL into the file and truncates it (PRAGMA wal_checkpoint(TRUNCATE)); false when
    // another connection's reads kept part of it from being copied.
    bool checkpoint();

    // "ok", or what PRAGMA quick_check found.
    [[nodiscard]] std::string quickCheck();

    // Records with from <= seq <= to, in order; the callback returns false to stop.
    void forEach(std::int64_t from, std::int64_t to, const std::function<bool(const JournalRecord&)>& visit);
    [[nodiscard]] std::optional<JournalRecord> record(std::int64_t seq);
    [[nodiscard]] std::vector<JournalRecord> recordsOfRound(std::int64_t roundId);
    [[nodiscard]] std::optional<std::int64_t> lastRoundId();
    // The first record's sequence number: 1, or where a segment after the first starts
    // (journal_info first_seq, written by continueChain).
    [[nodiscard]] std::int64_t firstSeq();
    // The last record's sequence number as the file holds it now (another process may be
    // appending; 0: none). tipSeq() is this connection's own.
    [[nodiscard]] std::int64_t lastSeqNow();
    // The lowest sequence number the record table holds (0: none), read from the table (an index
    // lookup): below firstSeq() only in a file edited by hand.
    [[nodiscard]] std::int64_t lowestSeq();
    // When the first record was written (nullopt: none).
    [[nodiscard]] std::optional<std::int64_t> firstAtMs();
    // The last record of `kind` with seq < before, if any.
    [[nodiscard]] std::optional<std::int64_t> lastSeqOfKind(std::string_view kind, std::int64_t before);
    [[nodiscard]] SqliteConnection& connection() { return db_; }

private:
    void configure(const StoreOptions& options);
    // A journal_info value that is a number (nullopt: the key is absent).
    [[nodiscard]] std::optional<std::int64_t> infoInteger(std::string_view key);
    void checkChainMode(const StoreOptions& options);
    void loadTip();

    SqliteConnection db_;
    std::unique_ptr<ChainHasher> hasher_;
    // Prepared once: every commit runs these three (tests/bench/RESULTS.md: no gain measurable
    // beyond noise, SQLite's inserts dominate, but nothing to parse per commit either).
    std::optional<SqliteStatement> insert_;
    std::optional<SqliteStatement> begin_;
    std::optional<SqliteStatement> commit_;
    std::int64_t tipSeq_ = 0;
    Digest tipHash_ = kGenesisDigest;
    std::int64_t txStartSeq_ = 0;
    Digest txStartHash_ = kGenesisDigest;
    int schemaVersion_ = 0;
    std::string canonical_;  // reused buffer
    std::string chainMode_;
    std::string keyFingerprint_;
};

// Reads the columns seq, at_ms, kind, round_id, station, body, hash (in that order) of a row.
[[nodiscard]] JournalRecord recordFromRow(const SqliteStatement& row);
// The same into `record`, reusing its strings' storage.
void readRecordInto(const SqliteStatement& row, JournalRecord& record);

inline constexpr std::string_view kRecordColumns = "seq, at_ms, kind, round_id, station, body, hash";

}  // namespace pitlink::journal
