#pragma once
// pitlink-ship's connection to the floor's PostgreSQL server (libpq; schema/floor/README.md):
// the schema's version and migrations, a journal's registration and head, and the append of a
// batch of records in one transaction (COPY into a temporary table, then one INSERT through
// row-level security: PostgreSQL 15 refuses COPY into a table under row-level security). Every
// call blocks; the connection's TCP time-outs bound it (FloorClient::withTimeouts).
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "daemon/journal/read/journal_tail.h"
#include "daemon/journal/store/record.h"

struct pg_conn;

namespace pitlink::ship {

// A failure of the server or of the connection: `sqlstate` is the server's error code (PF001:
// records not the next ones; PF002: journal not registered; PF003: registered with another
// chain; 42501: not this role's table), empty when the connection failed or was lost.
class FloorError : public std::runtime_error {
public:
    FloorError(const std::string& what, std::string sqlstate)
        : std::runtime_error(what), sqlstate_(std::move(sqlstate)) {}
    [[nodiscard]] const std::string& sqlstate() const { return sqlstate_; }
    [[nodiscard]] bool connectionLost() const { return sqlstate_.empty(); }

private:
    std::string sqlstate_;
};

// A floor schema file (schema/floor/NNNN_*.sql), compiled into the binary.
struct FloorMigration {
    int version;
    const char* name;
    const char* sql;
};
[[nodiscard]] const std::vector<FloorMigration>& floorMigrations();

// The digest FloorClient::rangeDigest answers, of the journal's own records.
[[nodiscard]] std::string rangeDigest(std::span<const journal::JournalRecord> records);

// The server's head of a journal: the last record it holds.
struct FloorHead {
    std::int64_t lastSeq = 0;
    journal::Digest lastHash{};
};

class FloorClient {
public:
    // Connects; throws FloorError, also when a stop (cutFromSignal) comes while it connects.
    explicit FloorClient(const std::string& conninfo);
    ~FloorClient();
    FloorClient(const FloorClient&) = delete;
    FloorClient& operator=(const FloorClient&) = delete;

    // From a signal handler (async-signal-safe): shuts the socket of the connection in use down,
    // so that a call waiting on the server (a busy one, or one cut off) fails at once instead of
    // holding a stop; a connection being made is given up within a tenth of a second. What it was
    // inserting is rolled back by the server; it is shipped again.
    static void cutFromSignal() noexcept;

    // `conninfo` with the time-outs a shipper needs unless it sets them: connect within 10 s,
    // and a dead peer found within about 20 s (TCP keepalives, tcp_user_timeout).
    [[nodiscard]] static std::string withTimeouts(const std::string& conninfo);

    // The floor schema's version (0: none applied).
    [[nodiscard]] int schemaVersion();
    // Applies the migrations after the server's version, each in one transaction under an
    // advisory lock; returns how many. The caller is the schema's owner (the DBA's role).
    int migrate(const std::vector<FloorMigration>& migrations);

    // floor.register_journal: the journal registered (once) and its head.
    [[nodiscard]] FloorHead registerJournal(const std::string& table, const journal::JournalIdentity& identity);
    // The records from..to as the server holds them: how many, and the SHA-256 (hex) of each
    // one's canonical bytes followed by its hash, in seq order (rangeDigest() computes the same
    // of the journal's records).
    [[nodiscard]] std::pair<std::int64_t, std::string> rangeDigest(const std::string& table, std::int64_t journalId,
                                                                   std::int64_t from, std::int64_t to);
    // The journals of a table the server holds (a replacement controller's beside the old one).
    struct Journal {
        std::int64_t journalId = 0;
        std::string chain;
        std::string keyFingerprint;
        std::int64_t lastSeq = 0;
    };
    [[nodiscard]] std::vector<Journal> journals(const std::string& table);
    // Every record of a journal, in seq order, in one read-only snapshot of the server (a cursor
    // fetched 10,000 rows at a time); `visit` returns false to stop.
    void forEachRecord(const std::string& table, std::int64_t journalId,
                       const std::function<bool(const journal::JournalRecord&)>& visit);
    // The monthly partitions from..to (UTC ms), in a transaction of their own.
    void ensurePartitions(std::int64_t fromMs, std::int64_t toMs);
    // The records, which must follow the server's head, in one transaction.
    void append(const std::string& table, std::int64_t journalId, std::span<const journal::JournalRecord> records);

private:
    void exec(const std::string& sql);
    [[nodiscard]] FloorError error(const std::string& what) const;

    pg_conn* conn_ = nullptr;
    bool batchTable_ = false;
    std::string rows_;  // reused COPY buffer
};

}  // namespace pitlink::ship
