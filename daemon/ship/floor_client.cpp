#include "daemon/ship/floor_client.h"

#include <arpa/inet.h>
#include <libpq-fe.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <memory>

#include "daemon/ship/copy_rows.h"

namespace pitlink::ship {

namespace {

struct ResultFree {
    void operator()(PGresult* r) const { PQclear(r); }
};
using Result = std::unique_ptr<PGresult, ResultFree>;

std::string trimmed(const char* message) {
    std::string text = message != nullptr ? message : "";
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
        text.pop_back();
    }
    return text;
}

// bytea's text output, "\x" and hex.
std::optional<journal::Digest> digestOf(const char* text) {
    const std::string_view value(text);
    if (value.size() != 66 || value.substr(0, 2) != "\\x") {
        return std::nullopt;
    }
    const auto bytes = journal::fromHex(value.substr(2));
    if (!bytes || bytes->size() != 32) {
        return std::nullopt;
    }
    journal::Digest d{};
    std::copy(bytes->begin(), bytes->end(), d.begin());
    return d;
}

}  // namespace

namespace {

// The connection in use, for cutFromSignal (nullptr: none), and whether a stop cut it. pitlink-ship
// has one thread: a signal handler runs between two of its steps, never beside one. The
// connection, not its socket's number, is kept: libpq closes a socket it finds broken and marks
// the connection (PQsocket -1), so a number closed meanwhile and taken by another file is never
// shut down.
std::atomic<pg_conn*> liveConnection{nullptr};
std::atomic<bool> cutRequested{false};

}  // namespace

namespace {

// The connection string's options as libpq reads them (nullptr: not set).
class ConnOptions {
public:
    explicit ConnOptions(const std::string& conninfo) {
        char* error = nullptr;
        options_ = PQconninfoParse(conninfo.c_str(), &error);
        PQfreemem(error);
    }
    ~ConnOptions() { PQconninfoFree(options_); }
    ConnOptions(const ConnOptions&) = delete;
    ConnOptions& operator=(const ConnOptions&) = delete;
    [[nodiscard]] bool parsed() const { return options_ != nullptr; }
    [[nodiscard]] const char* operator[](std::string_view keyword) const {
        for (const PQconninfoOption* o = options_; o != nullptr && o->keyword != nullptr; ++o) {
            if (keyword == o->keyword) {
                return o->val != nullptr && *o->val != '\0' ? o->val : nullptr;
            }
        }
        return nullptr;
    }

private:
    PQconninfoOption* options_ = nullptr;
};

// Whether libpq has exactly one address to try: a Unix socket (no host, or a socket directory),
// one numeric host, or one hostaddr. A host name (which may resolve to several addresses) or a
// list of hosts is left to PQconnectdb, which gives each address its own connect_timeout and goes
// on to the next (and a stop then waits for it).
bool oneAddress(const ConnOptions& options) {
    if (const char* hostaddr = options["hostaddr"]) {
        return std::string_view(hostaddr).find(',') == std::string_view::npos;
    }
    const char* host = options["host"];
    if (host == nullptr || host[0] == '/' || host[0] == '@') {
        return host == nullptr || std::string_view(host).find(',') == std::string_view::npos;
    }
    in6_addr address{};
    return ::inet_pton(AF_INET, host, &address) == 1 || ::inet_pton(AF_INET6, host, &address) == 1;
}

// connect_timeout in seconds as libpq reads it (none, or 0 or less: none; 1: 2), or a FloorError
// with libpq's message for a value that is not an integer.
std::optional<int> connectTimeoutOf(const ConnOptions& options) {
    const char* value = options["connect_timeout"];
    if (value == nullptr) {
        return std::nullopt;
    }
    errno = 0;
    char* end = nullptr;
    const long seconds = std::strtol(value, &end, 10);
    while (end != nullptr && *end != '\0' && std::isspace(static_cast<unsigned char>(*end)) != 0) {
        ++end;
    }
    if (end == value || errno != 0 || seconds != static_cast<int>(seconds) || end == nullptr || *end != '\0') {
        throw FloorError(std::string("cannot connect to the floor server: invalid integer value \"") + value +
                             "\" for connection option \"connect_timeout\"",
                         "");
    }
    return seconds > 0 ? std::optional(std::max(static_cast<int>(seconds), 2)) : std::nullopt;
}

// A connection to one address made step by step (PQconnectStart, PQconnectPoll) instead of
// PQconnectdb, which blocks until the server answers or connect_timeout passes: a stop
// (cutRequested) ends the wait within one slice of the poll. connect_timeout is kept here, as
// PQconnectdb keeps it for each address.
pg_conn* connectUnlessStopped(const std::string& conninfo) {
    const ConnOptions options(conninfo);
    if (!options.parsed() || !oneAddress(options)) {
        return PQconnectdb(conninfo.c_str());  // libpq's own message for what it cannot read
    }
    using Clock = std::chrono::steady_clock;
    constexpr auto kSlice = std::chrono::milliseconds(100);
    const auto timeout = connectTimeoutOf(options);
    const auto deadline = Clock::now() + std::chrono::seconds(timeout.value_or(0));
    pg_conn* conn = PQconnectStart(conninfo.c_str());
    if (conn == nullptr) {
        return nullptr;
    }
    PostgresPollingStatusType state = PGRES_POLLING_WRITING;
    while (PQstatus(conn) != CONNECTION_BAD && state != PGRES_POLLING_OK && state != PGRES_POLLING_FAILED) {
        if (cutRequested) {
            PQfinish(conn);
            throw FloorError("cannot connect to the floor server: stopped while connecting", "");
        }
        if (timeout && Clock::now() >= deadline) {
            PQfinish(conn);
            throw FloorError("cannot connect to the floor server: timeout expired", "");
        }
        pollfd wait{PQsocket(conn), static_cast<short>(state == PGRES_POLLING_READING ? POLLIN : POLLOUT), 0};
        if (const int ready = ::poll(&wait, 1, static_cast<int>(kSlice.count()));
            ready == 0 || (ready < 0 && errno == EINTR)) {
            continue;  // nothing yet, or a signal: the stop and the deadline are looked at again
        }
        state = PQconnectPoll(conn);
    }
    return conn;
}

}  // namespace

FloorClient::FloorClient(const std::string& conninfo) : conn_(connectUnlessStopped(conninfo)) {
    if (conn_ == nullptr || PQstatus(conn_) != CONNECTION_OK) {
        const std::string why = conn_ != nullptr ? trimmed(PQerrorMessage(conn_)) : "out of memory";
        PQfinish(conn_);
        conn_ = nullptr;
        throw FloorError("cannot connect to the floor server: " + why, "");
    }
    liveConnection = conn_;
    if (cutRequested) {
        cutFromSignal();  // the stop came as it connected: nothing more is sent
    }
    try {
        // Text is compared and hashed byte for byte on the server: UTF-8 both ways, whatever
        // the server's default.
        exec("SET client_encoding = 'UTF8'");
    } catch (...) {
        liveConnection = nullptr;
        PQfinish(conn_);
        throw;
    }
}

FloorClient::~FloorClient() {
    pg_conn* mine = conn_;
    liveConnection.compare_exchange_strong(mine, nullptr);  // before PQfinish frees it
    PQfinish(conn_);
}

void FloorClient::cutFromSignal() noexcept {
    const int saved = errno;  // a signal handler leaves errno as it found it
    cutRequested = true;
    if (pg_conn* connection = liveConnection.load(); connection != nullptr) {
        if (const int socket = PQsocket(connection); socket >= 0) {
            ::shutdown(socket, SHUT_RDWR);
        }
    }
    errno = saved;
}

std::string FloorClient::withTimeouts(const std::string& conninfo) {
    std::string out = conninfo;
    const auto add = [&out](const std::string& key, const std::string& value) {
        if (out.find(key + "=") == std::string::npos) {
            out += (out.empty() ? "" : " ") + key + "=" + value;
        }
    };
    add("connect_timeout", "10");
    add("keepalives", "1");
    add("keepalives_idle", "5");
    add("keepalives_interval", "2");
    add("keepalives_count", "3");
    add("tcp_user_timeout", "20000");
    add("application_name", "pitlink-ship");
    return out;
}

FloorError FloorClient::error(const std::string& what) const {
    if (PQstatus(conn_) != CONNECTION_OK) {
        return FloorError(
            what + ": the connection to the floor server was lost (" + trimmed(PQerrorMessage(conn_)) + ")", "");
    }
    return FloorError(what + ": " + trimmed(PQerrorMessage(conn_)), "");
}

namespace {

// Throws the server's error of `r` (or the connection's) unless it has status `expected`.
void check(pg_conn* conn, const Result& r, ExecStatusType expected, const std::string& what) {
    if (r && PQresultStatus(r.get()) == expected) {
        return;
    }
    const char* state = r ? PQresultErrorField(r.get(), PG_DIAG_SQLSTATE) : nullptr;
    const std::string message = r ? trimmed(PQresultErrorMessage(r.get())) : trimmed(PQerrorMessage(conn));
    std::string sqlstate = state != nullptr ? state : "";
    // Class 08 (connection exception) and 57P (the server shutting down or crashed): the
    // connection is gone, whatever the server said last.
    if (PQstatus(conn) != CONNECTION_OK || sqlstate.starts_with("08") || sqlstate.starts_with("57P")) {
        sqlstate.clear();
    }
    throw FloorError(what + ": " + message, sqlstate);
}

}  // namespace

void FloorClient::exec(const std::string& sql) {
    const Result r(PQexec(conn_, sql.c_str()));
    check(conn_, r, r && PQresultStatus(r.get()) == PGRES_TUPLES_OK ? PGRES_TUPLES_OK : PGRES_COMMAND_OK,
          sql.substr(0, sql.find(' ')));
}

int FloorClient::schemaVersion() {
    // Two statements: a relation named in a query must exist when it is planned.
    const Result exists(PQexec(conn_, "SELECT to_regclass('floor.schema_version') IS NOT NULL"));
    check(conn_, exists, PGRES_TUPLES_OK, "the floor schema's version");
    if (std::string_view(PQgetvalue(exists.get(), 0, 0)) != "t") {
        return 0;
    }
    const Result r(PQexec(conn_, "SELECT coalesce(max(version), 0) FROM floor.schema_version"));
    check(conn_, r, PGRES_TUPLES_OK, "the floor schema's version");
    return std::stoi(PQgetvalue(r.get(), 0, 0));
}

int FloorClient::migrate(const std::vector<FloorMigration>& migrations) {
    int applied = 0;
    for (const FloorMigration& m : migrations) {
        exec("BEGIN");
        try {
            exec("SELECT pg_advisory_xact_lock(hashtext('pitlink floor migrations'))");
        } catch (const FloorError&) {
            exec("ROLLBACK");
            throw;
        }
        if (m.version <= schemaVersion()) {
            exec("ROLLBACK");
            continue;
        }
        const Result r(PQexec(conn_, m.sql));
        if (!r || (PQresultStatus(r.get()) != PGRES_COMMAND_OK && PQresultStatus(r.get()) != PGRES_TUPLES_OK)) {
            const Result rollback(PQexec(conn_, "ROLLBACK"));
            check(conn_, r, PGRES_COMMAND_OK, std::string("floor migration ") + m.name);
        }
        exec("COMMIT");
        ++applied;
    }
    return applied;
}

FloorHead FloorClient::registerJournal(const std::string& table, const journal::JournalIdentity& identity) {
    const std::string journalId = std::to_string(identity.createdAtMs);
    const char* values[] = {table.c_str(), journalId.c_str(), identity.chain.c_str(), identity.keyFingerprint.c_str()};
    const Result r(PQexecParams(conn_, "SELECT last_seq, last_hash FROM floor.register_journal($1, $2, $3, $4)", 4,
                                nullptr, values, nullptr, nullptr, 0));
    check(conn_, r, PGRES_TUPLES_OK, "floor.register_journal");
    FloorHead head;
    head.lastSeq = std::stoll(PQgetvalue(r.get(), 0, 0));
    const auto hash = digestOf(PQgetvalue(r.get(), 0, 1));
    if (!hash) {
        throw FloorError("floor.register_journal answered a head hash that is not 32 bytes", "");
    }
    head.lastHash = *hash;
    return head;
}

std::string rangeDigest(std::span<const journal::JournalRecord> records) {
    std::string bytes;
    for (const journal::JournalRecord& r : records) {
        bytes += journal::canonicalBytes(r);
        bytes.append(reinterpret_cast<const char*>(r.hash.data()), r.hash.size());
    }
    return journal::toHex(journal::sha256(bytes));
}

std::pair<std::int64_t, std::string> FloorClient::rangeDigest(const std::string& table, std::int64_t journalId,
                                                              std::int64_t from, std::int64_t to) {
    const std::string id = std::to_string(journalId);
    const std::string lo = std::to_string(from);
    const std::string hi = std::to_string(to);
    const char* values[] = {table.c_str(), id.c_str(), lo.c_str(), hi.c_str()};
    // schema/README.md "Hash chain"'s canonical text, NULL as '', then the hash.
    const Result r(PQexecParams(
        conn_,
        "SELECT count(*), encode(sha256(coalesce(string_agg(convert_to(seq::text || E'\\t' || at_ms::text || E'\\t' "
        "|| kind || E'\\t' || coalesce(round_id::text, '') || E'\\t' || coalesce(station::text, '') || E'\\t' || "
        "body, 'UTF8') || hash, ''::bytea ORDER BY seq), ''::bytea)), 'hex') FROM floor.record "
        "WHERE table_name = $1 AND journal_id = $2 AND seq BETWEEN $3 AND $4",
        4, nullptr, values, nullptr, nullptr, 0));
    check(conn_, r, PGRES_TUPLES_OK, "a range's digest");
    return {std::stoll(PQgetvalue(r.get(), 0, 0)), PQgetvalue(r.get(), 0, 1)};
}

std::vector<FloorClient::Journal> FloorClient::journals(const std::string& table) {
    const char* values[] = {table.c_str()};
    const Result r(PQexecParams(conn_,
                                "SELECT journal_id, chain, key_fingerprint, last_seq FROM floor.journals "
                                "WHERE table_name = $1 ORDER BY journal_id",
                                1, nullptr, values, nullptr, nullptr, 0));
    check(conn_, r, PGRES_TUPLES_OK, "the table's journals");
    std::vector<Journal> out;
    out.reserve(static_cast<std::size_t>(PQntuples(r.get())));
    for (int i = 0; i < PQntuples(r.get()); ++i) {
        out.push_back(Journal{std::stoll(PQgetvalue(r.get(), i, 0)), PQgetvalue(r.get(), i, 1),
                              PQgetvalue(r.get(), i, 2), std::stoll(PQgetvalue(r.get(), i, 3))});
    }
    return out;
}

void FloorClient::forEachRecord(const std::string& table, std::int64_t journalId,
                                const std::function<bool(const journal::JournalRecord&)>& visit) {
    exec("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    try {
        const std::string id = std::to_string(journalId);
        const char* values[] = {table.c_str(), id.c_str()};
        const Result declared(PQexecParams(conn_,
                                           "DECLARE records NO SCROLL CURSOR FOR SELECT seq, at_ms, kind, round_id, "
                                           "station, body, hash FROM floor.record WHERE table_name = $1 AND "
                                           "journal_id = $2 ORDER BY seq",
                                           2, nullptr, values, nullptr, nullptr, 0));
        check(conn_, declared, PGRES_COMMAND_OK, "DECLARE");
        journal::JournalRecord record;
        for (bool more = true; more;) {
            const Result rows(PQexec(conn_, "FETCH 10000 FROM records"));
            check(conn_, rows, PGRES_TUPLES_OK, "FETCH");
            const int n = PQntuples(rows.get());
            more = n > 0;
            for (int i = 0; i < n && more; ++i) {
                PGresult* r = rows.get();
                record.seq = std::stoll(PQgetvalue(r, i, 0));
                record.atMs = std::stoll(PQgetvalue(r, i, 1));
                record.kind = PQgetvalue(r, i, 2);
                record.roundId = PQgetisnull(r, i, 3) ? std::nullopt : std::optional(std::stoll(PQgetvalue(r, i, 3)));
                record.station = PQgetisnull(r, i, 4) ? std::nullopt : std::optional(std::stoll(PQgetvalue(r, i, 4)));
                record.body.assign(PQgetvalue(r, i, 5), static_cast<std::size_t>(PQgetlength(r, i, 5)));
                const auto hash = digestOf(PQgetvalue(r, i, 6));
                record.hash = hash.value_or(journal::Digest{});  // a hash of another length fails its link
                more = visit(record);
            }
        }
        exec("COMMIT");
    } catch (const FloorError& e) {
        if (!e.connectionLost()) {
            const Result rollback(PQexec(conn_, "ROLLBACK"));
        }
        throw;
    }
}

void FloorClient::ensurePartitions(std::int64_t fromMs, std::int64_t toMs) {
    const std::string from = std::to_string(fromMs);
    const std::string to = std::to_string(toMs);
    const char* values[] = {from.c_str(), to.c_str()};
    const Result r(
        PQexecParams(conn_, "SELECT floor.ensure_partitions($1, $2)", 2, nullptr, values, nullptr, nullptr, 0));
    check(conn_, r, PGRES_TUPLES_OK, "floor.ensure_partitions");
}

void FloorClient::append(const std::string& table, std::int64_t journalId,
                         std::span<const journal::JournalRecord> records) {
    if (records.empty()) {
        return;
    }
    if (!batchTable_) {
        exec(
            "CREATE TEMP TABLE IF NOT EXISTS ship_batch (table_name text, journal_id bigint, seq bigint, "
            "at_ms bigint, kind text, round_id bigint, station bigint, body text, hash bytea) ON COMMIT DELETE ROWS");
        batchTable_ = true;
    }
    rows_.clear();
    for (const journal::JournalRecord& record : records) {
        appendCopyRow(rows_, table, journalId, record);
    }
    exec("BEGIN");
    try {
        const Result copy(PQexec(conn_, ("COPY ship_batch (" + std::string(kCopyColumns) + ") FROM STDIN").c_str()));
        check(conn_, copy, PGRES_COPY_IN, "COPY");
        if (PQputCopyData(conn_, rows_.data(), static_cast<int>(rows_.size())) != 1 ||
            PQputCopyEnd(conn_, nullptr) != 1) {
            throw error("COPY");
        }
        Result copied(PQgetResult(conn_));
        check(conn_, copied, PGRES_COMMAND_OK, "COPY");
        while (Result(PQgetResult(conn_))) {
        }
        exec("INSERT INTO floor.record (" + std::string(kCopyColumns) + ") SELECT " + std::string(kCopyColumns) +
             " FROM ship_batch ORDER BY seq");
        exec("COMMIT");
    } catch (const FloorError& e) {
        if (!e.connectionLost()) {
            const Result rollback(PQexec(conn_, "ROLLBACK"));
        }
        throw;
    }
}

}  // namespace pitlink::ship
