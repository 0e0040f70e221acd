#include "daemon/journal/store/schema_migrations.h"

#include <string>

namespace pitlink::journal {

int latestSchemaVersion() {
    return migrations().empty() ? 0 : migrations().back().version;
}

int schemaVersion(SqliteConnection& db) {
    return static_cast<int>(db.queryInt("PRAGMA user_version"));
}

void migrate(SqliteConnection& db, int target) {
    const int latest = latestSchemaVersion();
    if (target < 0) {
        target = latest;
    }
    const int current = schemaVersion(db);
    if (current > latest) {
        throw JournalError("journal " + db.path() + " has schema version " + std::to_string(current) +
                           ", newer than this pitlink understands (" + std::to_string(latest) + ")");
    }
    for (const Migration& migration : migrations()) {
        if (migration.version <= current || migration.version > target) {
            continue;
        }
        db.exec("BEGIN IMMEDIATE");
        try {
            db.exec(std::string(migration.sql));
            db.exec("PRAGMA user_version = " + std::to_string(migration.version));
            db.exec("COMMIT");
        } catch (const JournalError& error) {
            db.exec("ROLLBACK");
            throw JournalError("migration " + std::string(migration.name) + " failed: " + error.what(),
                               error.sqliteCode());
        }
    }
}

}  // namespace pitlink::journal
