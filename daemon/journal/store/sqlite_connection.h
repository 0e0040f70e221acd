#pragma once
// Thin RAII over the SQLite C API: one connection, prepared statements, errors as JournalError
// carrying SQLite's message and code. Nothing journal-specific lives here.
#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "daemon/journal/store/journal_error.h"

namespace pitlink::journal {

class SqliteStatement;

class SqliteConnection {
public:
    // Immutable: read-only, SQLite told the file never changes (URI `immutable=1`): no locks, no
    // -wal or -shm looked at or made. For a sealed segment, which a reader in group pitlink could
    // not open otherwise (ReadOnly wants to write a -shm in a folder it may not write to).
    enum class Mode : std::uint8_t { ReadWriteCreate, ReadWrite, ReadOnly, Immutable };
    // `vfs`: a registered SQLite VFS name (tests use a power-loss VFS), or nullptr for the default.
    SqliteConnection(const std::string& path, Mode mode, const char* vfs = nullptr);
    ~SqliteConnection();
    SqliteConnection(const SqliteConnection&) = delete;
    SqliteConnection& operator=(const SqliteConnection&) = delete;
    SqliteConnection(SqliteConnection&& other) noexcept;
    SqliteConnection& operator=(SqliteConnection&& other) noexcept;

    void exec(const std::string& sql);
    [[nodiscard]] SqliteStatement prepare(std::string_view sql);
    // First column of the first row as an integer (PRAGMAs, counts).
    [[nodiscard]] std::int64_t queryInt(std::string_view sql);
    [[nodiscard]] sqlite3* handle() const { return db_; }
    // Makes the statement running on this connection stop with SQLITE_INTERRUPT. The one call
    // that is safe from another thread (SQLite's documentation): used to end a long scan.
    void interrupt() const;
    [[nodiscard]] const std::string& path() const { return path_; }
    // Throws JournalError naming `what` with SQLite's message when rc is an error.
    void check(int rc, std::string_view what) const;
    // After an I/O error or a full disk `rc`: what the journal's files show of the cause (a
    // file-size limit reached, no space left: storage_diagnosis.h), else empty.
    [[nodiscard]] std::string osError(int rc) const;

private:
    sqlite3* db_ = nullptr;
    std::string path_;
};

class SqliteStatement {
public:
    SqliteStatement(const SqliteConnection& connection, std::string_view sql);
    ~SqliteStatement();
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;
    SqliteStatement(SqliteStatement&& other) noexcept;
    SqliteStatement& operator=(SqliteStatement&&) = delete;

    // Parameters are 1-based, as in SQLite.
    SqliteStatement& bind(int index, std::int64_t value);
    SqliteStatement& bind(int index, std::string_view text);
    SqliteStatement& bind(int index, std::span<const std::uint8_t> blob);
    SqliteStatement& bind(int index, std::nullopt_t);
    template <class T>
    SqliteStatement& bind(int index, const std::optional<T>& value) {
        return value ? bind(index, static_cast<std::int64_t>(*value)) : bind(index, std::nullopt);
    }
    // true while a row is available; false when done. Errors throw.
    bool step();
    // step() that must finish without a row (INSERT, UPDATE).
    void run();
    void reset();

    [[nodiscard]] bool isNull(int column) const;
    [[nodiscard]] std::int64_t integer(int column) const;
    [[nodiscard]] std::optional<std::int64_t> optionalInteger(int column) const;
    [[nodiscard]] std::string_view text(int column) const;
    [[nodiscard]] std::span<const std::uint8_t> blob(int column) const;

private:
    const SqliteConnection* connection_;
    sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace pitlink::journal
