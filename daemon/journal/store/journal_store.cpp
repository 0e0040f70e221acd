#include "daemon/journal/store/journal_store.h"

#include <algorithm>
#include <cstring>

#include "daemon/journal/store/schema_migrations.h"

namespace pitlink::journal {

namespace {

SqliteConnection::Mode modeOf(const StoreOptions& options) {
    if (!options.readOnly) {
        return SqliteConnection::Mode::ReadWriteCreate;
    }
    return options.immutable ? SqliteConnection::Mode::Immutable : SqliteConnection::Mode::ReadOnly;
}

std::string selectRecords(std::string_view where) {
    return "SELECT " + std::string(kRecordColumns) + " FROM record " + std::string(where);
}

}  // namespace

JournalRecord recordFromRow(const SqliteStatement& row) {
    JournalRecord record;
    readRecordInto(row, record);
    return record;
}

void readRecordInto(const SqliteStatement& row, JournalRecord& record) {
    record.seq = row.integer(0);
    record.atMs = row.integer(1);
    record.kind.assign(row.text(2));
    record.roundId = row.optionalInteger(3);
    record.station = row.optionalInteger(4);
    record.body.assign(row.text(5));
    record.hash = {};
    const auto hash = row.blob(6);
    std::copy_n(hash.begin(), std::min(hash.size(), record.hash.size()), record.hash.begin());
}

JournalStore::JournalStore(const std::string& path, const StoreOptions& options)
    : db_(path, modeOf(options), options.vfs), hasher_(std::make_unique<ChainHasher>(options.key)) {
    configure(options);
    checkChainMode(options);
    loadTip();
}

void JournalStore::configure(const StoreOptions& options) {
    if (options.readOnly) {
        schemaVersion_ = journal::schemaVersion(db_);
        if (schemaVersion_ == 0) {
            throw JournalError(db_.path() + " is not a pitlink journal (schema version 0)");
        }
        return;
    }
    // WAL: readers (pitlinkctl, an inspector's sqlite3) never block the writer. FULL: a commit is
    // on the disk (the WAL fsynced) before COMMIT returns, so an acknowledgement survives power loss.
    {
        SqliteStatement mode = db_.prepare("PRAGMA journal_mode = WAL");
        if (!mode.step() || mode.text(0) != "wal") {
            throw JournalError("journal " + db_.path() + " cannot use WAL mode");
        }
    }
    db_.exec("PRAGMA synchronous = FULL");
    migrate(db_);
    schemaVersion_ = journal::schemaVersion(db_);
    if (db_.queryInt("SELECT count(*) FROM journal_info") == 0) {
        db_.exec("BEGIN IMMEDIATE");
        SqliteStatement info = db_.prepare("INSERT INTO journal_info(key, value) VALUES (?, ?)");
        info.bind(1, std::string_view("created_at_ms")).bind(2, std::to_string(options.createdAtMs)).run();
        info.bind(1, std::string_view("chain")).bind(2, hasher_->mode()).run();
        info.bind(1, std::string_view("key_fingerprint")).bind(2, hasher_->keyFingerprint()).run();
        db_.exec("COMMIT");
    }
    insert_.emplace(db_, "INSERT INTO record(seq, at_ms, kind, round_id, station, body, hash) VALUES (?,?,?,?,?,?,?)");
    begin_.emplace(db_, "BEGIN IMMEDIATE");
    commit_.emplace(db_, "COMMIT");
}

void JournalStore::checkChainMode(const StoreOptions& options) {
    SqliteStatement info = db_.prepare("SELECT key, value FROM journal_info");
    std::string chain;
    std::string fingerprint;
    while (info.step()) {
        if (info.text(0) == "chain") {
            chain = info.text(1);
        } else if (info.text(0) == "key_fingerprint") {
            fingerprint = info.text(1);
        }
    }
    if (chain.empty()) {
        throw JournalError("journal " + db_.path() + " has no chain mode in journal_info");
    }
    chainMode_ = chain;
    keyFingerprint_ = fingerprint;
    if (options.readOnly && options.anyChain) {
        return;
    }
    if (chain != hasher_->mode()) {
        throw JournalError("journal " + db_.path() + " is chained with " + chain + " but " +
                           (options.key ? "a key was given" : "no key was given"));
    }
    if (fingerprint != hasher_->keyFingerprint()) {
        throw JournalError("journal " + db_.path() + " was signed with a different key (fingerprint " +
                           fingerprint.substr(0, 16) + "...)");
    }
}

void JournalStore::loadTip() {
    SqliteStatement last = db_.prepare("SELECT seq, hash FROM record ORDER BY seq DESC LIMIT 1");
    if (last.step()) {
        tipSeq_ = last.integer(0);
        const auto hash = last.blob(1);
        std::copy_n(hash.begin(), std::min(hash.size(), tipHash_.size()), tipHash_.begin());
    }
}

std::optional<std::int64_t> JournalStore::infoInteger(std::string_view key) {
    SqliteStatement row = db_.prepare("SELECT value FROM journal_info WHERE key = ?");
    row.bind(1, key);
    if (!row.step()) {
        return std::nullopt;
    }
    try {
        return std::stoll(std::string(row.text(0)));
    } catch (const std::exception&) {
        throw JournalError("journal " + db_.path() + " has a " + std::string(key) + " that is not a number");
    }
}

std::int64_t JournalStore::createdAtMs() {
    return infoInteger("created_at_ms").value_or(0);
}

void JournalStore::continueChain(std::int64_t seq, const Digest& hash) {
    if (tipSeq_ != 0) {
        throw JournalError("journal " + db_.path() + " already holds records up to " + std::to_string(tipSeq_));
    }
    SqliteStatement info = db_.prepare("INSERT INTO journal_info(key, value) VALUES ('first_seq', ?)");
    info.bind(1, std::string_view(std::to_string(seq + 1))).run();
    tipSeq_ = seq;
    tipHash_ = hash;
}

bool JournalStore::checkpoint() {
    SqliteStatement check = db_.prepare("PRAGMA wal_checkpoint(TRUNCATE)");
    return check.step() && check.integer(0) == 0;
}

void JournalStore::begin() {
    if (!begin_) {
        throw JournalError("journal " + db_.path() + " is open read-only");
    }
    begin_->run();
    txStartSeq_ = tipSeq_;
    txStartHash_ = tipHash_;
}

AppendResult JournalStore::insert(std::span<const PendingRecord> records) {
    if (!insert_) {
        throw JournalError("journal " + db_.path() + " is open read-only");
    }
    AppendResult result{tipSeq_ + 1, tipSeq_};
    for (const PendingRecord& pending : records) {
        const std::int64_t seq = tipSeq_ + 1;
        canonical_.clear();
        appendCanonicalBytes(seq, pending, canonical_);
        const Digest hash = hasher_->link(tipHash_, canonical_);
        insert_->bind(1, seq)
            .bind(2, pending.atMs)
            .bind(3, std::string_view(pending.kind))
            .bind(4, pending.roundId)
            .bind(5, pending.station)
            .bind(6, std::string_view(pending.body))
            .bind(7, std::span<const std::uint8_t>(hash));
        insert_->run();
        tipSeq_ = seq;
        tipHash_ = hash;
    }
    result.lastSeq = tipSeq_;
    return result;
}

void JournalStore::commit() {
    commit_->run();
}

void JournalStore::rollback() noexcept {
    // After an I/O error SQLite may already have rolled back; ignore "no transaction is active".
    sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
    tipSeq_ = txStartSeq_;
    tipHash_ = txStartHash_;
}

AppendResult JournalStore::append(std::span<const PendingRecord> records) {
    begin();
    try {
        const AppendResult result = insert(records);
        commit();
        return result;
    } catch (...) {
        rollback();
        throw;
    }
}

std::string JournalStore::quickCheck() {
    SqliteStatement check = db_.prepare("PRAGMA quick_check");
    std::string found;
    while (check.step()) {
        if (!found.empty()) {
            found += "; ";
        }
        found += check.text(0);
    }
    return found;
}

void JournalStore::forEach(std::int64_t from, std::int64_t to, const std::function<bool(const JournalRecord&)>& visit) {
    SqliteStatement rows = db_.prepare(selectRecords("WHERE seq BETWEEN ? AND ? ORDER BY seq"));
    rows.bind(1, from).bind(2, to);
    JournalRecord record;  // one, its strings reused: a walk over a segment allocates nothing per record
    while (rows.step()) {
        readRecordInto(rows, record);
        if (!visit(record)) {
            break;
        }
    }
}

std::optional<JournalRecord> JournalStore::record(std::int64_t seq) {
    SqliteStatement row = db_.prepare(selectRecords("WHERE seq = ?"));
    row.bind(1, seq);
    if (!row.step()) {
        return std::nullopt;
    }
    return recordFromRow(row);
}

std::vector<JournalRecord> JournalStore::recordsOfRound(std::int64_t roundId) {
    SqliteStatement rows = db_.prepare(selectRecords("WHERE round_id = ? ORDER BY seq"));
    rows.bind(1, roundId);
    std::vector<JournalRecord> out;
    while (rows.step()) {
        out.push_back(recordFromRow(rows));
    }
    return out;
}

std::optional<std::int64_t> JournalStore::lastRoundId() {
    SqliteStatement row = db_.prepare("SELECT max(round_id) FROM record WHERE round_id IS NOT NULL");
    row.step();
    return row.optionalInteger(0);
}

std::int64_t JournalStore::firstSeq() {
    // From journal_info (a few bytes), not the record table: a start-up reads no old page of a
    // single-file journal before its integrity scan has passed.
    return infoInteger("first_seq").value_or(1);
}

std::int64_t JournalStore::lastSeqNow() {
    return db_.queryInt("SELECT coalesce(max(seq), 0) FROM record");
}

std::int64_t JournalStore::lowestSeq() {
    return db_.queryInt("SELECT coalesce(min(seq), 0) FROM record");
}

std::optional<std::int64_t> JournalStore::firstAtMs() {
    SqliteStatement row = db_.prepare("SELECT at_ms FROM record ORDER BY seq LIMIT 1");
    if (!row.step()) {
        return std::nullopt;
    }
    return row.integer(0);
}

std::optional<std::int64_t> JournalStore::lastSeqOfKind(std::string_view kind, std::int64_t before) {
    // Written out per kind so that SQLite can use the kind's partial index (schema/0001); kinds
    // are the program's own constants, checked anyway.
    if (kind.empty() || kind.find_first_not_of("abcdefghijklmnopqrstuvwxyz._") != std::string_view::npos) {
        throw JournalError("not a record kind: " + std::string(kind));
    }
    SqliteStatement row =
        db_.prepare("SELECT max(seq) FROM record WHERE kind = '" + std::string(kind) + "' AND seq < ?");
    row.bind(1, before);
    row.step();
    return row.optionalInteger(0);
}

}  // namespace pitlink::journal
