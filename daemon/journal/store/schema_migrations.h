#pragma once
// Numbered, forward-only schema migrations (schema/NNNN_name.sql), each applied in one
// transaction that also sets PRAGMA user_version to its number.
#include <string_view>
#include <vector>

#include "daemon/journal/store/sqlite_connection.h"

namespace pitlink::journal {

struct Migration {
    int version;
    std::string_view name;
    std::string_view sql;
};

// Every migration, in order (generated from schema/ at build time).
const std::vector<Migration>& migrations();
[[nodiscard]] int latestSchemaVersion();
[[nodiscard]] int schemaVersion(SqliteConnection& db);

// Brings the journal up to `target` (default: latest). Refuses a journal written by a newer
// pitlink (a higher user_version) rather than guessing what it holds.
void migrate(SqliteConnection& db, int target = -1);

}  // namespace pitlink::journal
