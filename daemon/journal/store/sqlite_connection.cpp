#include "daemon/journal/store/sqlite_connection.h"

#include <string>
#include <utility>

#include "daemon/journal/store/storage_diagnosis.h"

namespace pitlink::journal {

namespace {

int openFlags(SqliteConnection::Mode mode) {
    // NOMUTEX: a connection is used by one thread at a time (the writer, or start-up before it).
    const int common = SQLITE_OPEN_NOMUTEX;
    switch (mode) {
        case SqliteConnection::Mode::ReadWriteCreate:
            return common | SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
        case SqliteConnection::Mode::ReadWrite:
            return common | SQLITE_OPEN_READWRITE;
        case SqliteConnection::Mode::ReadOnly:
            return common | SQLITE_OPEN_READONLY;
        case SqliteConnection::Mode::Immutable:
            return common | SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
    }
    return common | SQLITE_OPEN_READONLY;
}

// A file name as an SQLite URI with `immutable=1`: the characters a URI path gives a meaning to
// are percent-encoded (SQLite's "URI filenames").
std::string immutableUri(const std::string& path) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string uri = "file:";
    for (const char c : path) {
        if (c == '%' || c == '?' || c == '#') {
            const auto byte = static_cast<unsigned char>(c);
            uri += '%';
            uri += kHex[byte >> 4U];
            uri += kHex[byte & 0x0FU];
        } else {
            uri += c;
        }
    }
    return uri + "?immutable=1";
}

}  // namespace

SqliteConnection::SqliteConnection(const std::string& path, Mode mode, const char* vfs) : path_(path) {
    const std::string name = mode == Mode::Immutable ? immutableUri(path) : path;
    const int rc = sqlite3_open_v2(name.c_str(), &db_, openFlags(mode), vfs);
    if (rc != SQLITE_OK) {
        const std::string message = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close(db_);
        db_ = nullptr;
        throw JournalError("cannot open journal " + path + ": " + message, rc);
    }
    sqlite3_extended_result_codes(db_, 1);
    // Another process (an inspector's sqlite3) may hold a read lock for a moment.
    sqlite3_busy_timeout(db_, 2000);
}

SqliteConnection::~SqliteConnection() {
    if (db_ != nullptr) {
        sqlite3_close_v2(db_);
    }
}

SqliteConnection::SqliteConnection(SqliteConnection&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), path_(std::move(other.path_)) {}

SqliteConnection& SqliteConnection::operator=(SqliteConnection&& other) noexcept {
    if (this != &other) {
        if (db_ != nullptr) {
            sqlite3_close_v2(db_);
        }
        db_ = std::exchange(other.db_, nullptr);
        path_ = std::move(other.path_);
    }
    return *this;
}

std::string SqliteConnection::osError(int rc) const {
    const int primary = rc & 0xff;
    if (primary != SQLITE_IOERR && primary != SQLITE_FULL) {
        return {};
    }
    return storageDiagnosis(path_);
}

void SqliteConnection::check(int rc, std::string_view what) const {
    if (rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE) {
        return;
    }
    throw JournalError(std::string(what) + " failed on " + path_ + ": " + sqlite3_errmsg(db_) + " (" +
                           sqlite3_errstr(rc) + osError(rc) + ")",
                       rc);
}

void SqliteConnection::interrupt() const {
    if (db_ != nullptr) {
        sqlite3_interrupt(db_);
    }
}

void SqliteConnection::exec(const std::string& sql) {
    char* error = nullptr;
    const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error);
    if (rc != SQLITE_OK) {
        std::string message = error != nullptr ? error : sqlite3_errstr(rc);
        sqlite3_free(error);
        throw JournalError("SQL failed on " + path_ + ": " + message + " (" + sqlite3_errstr(rc) + osError(rc) + ")",
                           rc);
    }
}

SqliteStatement SqliteConnection::prepare(std::string_view sql) {
    return SqliteStatement(*this, sql);
}

std::int64_t SqliteConnection::queryInt(std::string_view sql) {
    SqliteStatement statement = prepare(sql);
    if (!statement.step()) {
        throw JournalError("query returned no row: " + std::string(sql));
    }
    return statement.integer(0);
}

SqliteStatement::SqliteStatement(const SqliteConnection& connection, std::string_view sql) : connection_(&connection) {
    connection.check(sqlite3_prepare_v3(connection.handle(), sql.data(), static_cast<int>(sql.size()),
                                        SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr),
                     "prepare");
}

SqliteStatement::~SqliteStatement() {
    sqlite3_finalize(stmt_);
}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : connection_(other.connection_), stmt_(std::exchange(other.stmt_, nullptr)) {}

SqliteStatement& SqliteStatement::bind(int index, std::int64_t value) {
    connection_->check(sqlite3_bind_int64(stmt_, index, value), "bind");
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::string_view text) {
    connection_->check(sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT),
                       "bind");
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::span<const std::uint8_t> blob) {
    connection_->check(sqlite3_bind_blob(stmt_, index, blob.data(), static_cast<int>(blob.size()), SQLITE_TRANSIENT),
                       "bind");
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::nullopt_t) {
    connection_->check(sqlite3_bind_null(stmt_, index), "bind");
    return *this;
}

bool SqliteStatement::step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) {
        return true;
    }
    if (rc == SQLITE_DONE) {
        return false;
    }
    // Leave the statement usable for the next attempt.
    sqlite3_reset(stmt_);
    connection_->check(rc, "step");
    return false;
}

void SqliteStatement::run() {
    while (step()) {
    }
    reset();
}

void SqliteStatement::reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

bool SqliteStatement::isNull(int column) const {
    return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

std::int64_t SqliteStatement::integer(int column) const {
    return sqlite3_column_int64(stmt_, column);
}

// A column read takes one sqlite3_column_value() and then the sqlite3_value_*() reads of it,
// which skip the per-call entry and exit work of each sqlite3_column_*() (a walk over a year's
// journal reads seven columns of tens of millions of rows). SQLite calls such a value
// "unprotected": it may be read so by the thread that steps the statement, as here (each
// connection is used by one thread; SQLITE_OPEN_NOMUTEX).
std::optional<std::int64_t> SqliteStatement::optionalInteger(int column) const {
    sqlite3_value* value = sqlite3_column_value(stmt_, column);
    if (sqlite3_value_type(value) == SQLITE_NULL) {
        return std::nullopt;
    }
    return sqlite3_value_int64(value);
}

std::string_view SqliteStatement::text(int column) const {
    sqlite3_value* value = sqlite3_column_value(stmt_, column);
    const auto* data = reinterpret_cast<const char*>(sqlite3_value_text(value));
    const int size = sqlite3_value_bytes(value);
    return data == nullptr ? std::string_view{} : std::string_view(data, static_cast<std::size_t>(size));
}

std::span<const std::uint8_t> SqliteStatement::blob(int column) const {
    sqlite3_value* value = sqlite3_column_value(stmt_, column);
    const auto* data = static_cast<const std::uint8_t*>(sqlite3_value_blob(value));
    const int size = sqlite3_value_bytes(value);
    return data == nullptr ? std::span<const std::uint8_t>{} : std::span(data, static_cast<std::size_t>(size));
}

}  // namespace pitlink::journal
