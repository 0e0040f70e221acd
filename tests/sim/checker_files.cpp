#include "tests/sim/checker_files.h"

#include <sqlite3.h>
#include <sys/stat.h>
#include <time.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <utility>

namespace pitlink::sim {

using nlohmann::json;

namespace {

struct Db {
    Db(const std::string& path, const char* vfs) {
        if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, vfs) != SQLITE_OK) {
            const std::string error = db != nullptr ? sqlite3_errmsg(db) : "out of memory";
            sqlite3_close(db);
            throw std::runtime_error("checker: cannot open " + path + ": " + error);
        }
    }
    ~Db() { sqlite3_close(db); }
    Db(const Db&) = delete;
    Db& operator=(const Db&) = delete;
    sqlite3* db = nullptr;
};

// Found as schema/README.md "Segments" describes them and nothing more.
}  // namespace

std::vector<std::string> segmentFiles(const std::string& path) {
    namespace fs = std::filesystem;
    if (!fs::is_symlink(path)) {
        return {path};
    }
    const fs::path active = fs::path(path).parent_path() / fs::read_symlink(path);
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(path + ".segments")) {
        const std::string name = entry.path().filename().string();
        if (name.size() == 17 && name.starts_with("segment-") && name.ends_with(".db") &&
            name <= active.filename().string()) {
            files.push_back(entry.path().string());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

namespace {

std::vector<CheckerRow> readRecords(sqlite3* db, CheckerCache* cache) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT seq, kind, round_id, station, body, hash FROM record ORDER BY seq", -1, &stmt,
                           nullptr) != SQLITE_OK) {
        throw std::runtime_error(std::string("checker: ") + sqlite3_errmsg(db));
    }
    std::vector<CheckerRow> rows;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        CheckerRow r;
        r.seq = sqlite3_column_int64(stmt, 0);
        r.kind = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1));
        if (sqlite3_column_type(stmt, 2) != SQLITE_NULL) {
            r.round = sqlite3_column_int64(stmt, 2);
        }
        if (sqlite3_column_type(stmt, 3) != SQLITE_NULL) {
            r.station = sqlite3_column_int64(stmt, 3);
        }
        const std::string_view text(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 4)),
                                    static_cast<std::size_t>(sqlite3_column_bytes(stmt, 4)));
        r.body = cache != nullptr ? cache->parse(r.seq, text) : std::make_shared<const json>(json::parse(text));
        r.hash.assign(static_cast<const char*>(sqlite3_column_blob(stmt, 5)),
                      static_cast<std::size_t>(sqlite3_column_bytes(stmt, 5)));
        rows.push_back(std::move(r));
    }
    sqlite3_finalize(stmt);
    return rows;
}

}  // namespace

std::vector<CheckerRow> readSegment(const std::string& file, const char* vfs, CheckerCache* cache) {
    if (cache != nullptr) {
        return readRecords(cache->connection(file, vfs), cache);
    }
    const Db db(file, vfs);
    return readRecords(db.db, nullptr);
}

std::shared_ptr<const json> CheckerCache::parse(std::int64_t seq, std::string_view text) {
    Parsed& parsed = bySeq_[seq];
    if (parsed.body != nullptr && parsed.text != text) {
        lowestChanged_ = std::min(lowestChanged_, seq);
    }
    if (parsed.body == nullptr || parsed.text != text) {
        parsed.body = std::make_shared<const json>(json::parse(text));
        parsed.text = text;
    }
    return parsed.body;
}

std::int64_t CheckerCache::takeLowestChanged() {
    return std::exchange(lowestChanged_, std::numeric_limits<std::int64_t>::max());
}

sqlite3* CheckerCache::connection(const std::string& file, const char* vfs) {
    auto& open = connections_[file];
    if (open == nullptr) {
        auto db = std::make_shared<Db>(file, vfs);
        open = std::shared_ptr<sqlite3>(db, db->db);  // the connection lives as long as its Db
    }
    return open.get();
}

namespace {

// What changes when a file is written: its size and modification time, and its WAL's; empty when
// a file was modified too recently for that to hold (a file's time moves in clock ticks of a
// few milliseconds: a write in the tick of the last one could leave both unchanged).
std::string fileStamp(const std::string& file) {
    constexpr std::int64_t kSettledNs = 100'000'000;
    timespec now{};
    ::clock_gettime(CLOCK_REALTIME, &now);
    const std::int64_t nowNs = static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
    std::string stamp;
    for (const std::string& path : {file, file + "-wal"}) {
        struct stat st {};
        if (::stat(path.c_str(), &st) != 0) {
            stamp += "none;";
            continue;
        }
        const std::int64_t modifiedNs =
            static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
        if (nowNs - modifiedNs < kSettledNs) {
            return {};
        }
        stamp += std::to_string(st.st_ino) + ":" + std::to_string(st.st_size) + ":" + std::to_string(modifiedNs) + ";";
    }
    return stamp;
}

}  // namespace

CheckerCache::CheckerCache() = default;
CheckerCache::~CheckerCache() = default;

std::shared_ptr<const std::vector<CheckerRow>> CheckerCache::sealed(const std::string& file) const {
    const auto it = sealed_.find(file);
    if (it == sealed_.end()) {
        return nullptr;
    }
    const std::string stamp = fileStamp(file);
    return !stamp.empty() && it->second.stamp == stamp ? it->second.rows : nullptr;
}

void CheckerCache::keepSealed(const std::string& file, std::shared_ptr<const std::vector<CheckerRow>> rows) {
    if (std::string stamp = fileStamp(file); !stamp.empty()) {
        sealed_[file] = Sealed{std::move(stamp), std::move(rows)};
    } else {
        sealed_.erase(file);
    }
}

void CheckerCache::keepOnly(const std::vector<std::string>& files) {
    const auto gone = [&files](const auto& entry) {
        return std::find(files.begin(), files.end(), entry.first) == files.end();
    };
    std::erase_if(connections_, gone);
    std::erase_if(sealed_, gone);
}

void CheckerCache::close() {
    connections_.clear();
}

std::string recordHash(const std::string& path, const char* vfs, std::int64_t seq) {
    const std::vector<std::string> files = segmentFiles(path);
    for (auto file = files.rbegin(); file != files.rend(); ++file) {
        const Db db(*file, vfs);
        sqlite3_stmt* stmt = nullptr;
        sqlite3_prepare_v2(db.db, "SELECT hash FROM record WHERE seq = ?", -1, &stmt, nullptr);
        sqlite3_bind_int64(stmt, 1, seq);
        std::string hash;
        if (sqlite3_step(stmt) == SQLITE_ROW) {
            hash.assign(static_cast<const char*>(sqlite3_column_blob(stmt, 0)),
                        static_cast<std::size_t>(sqlite3_column_bytes(stmt, 0)));
        }
        sqlite3_finalize(stmt);
        if (!hash.empty()) {
            return hash;
        }
    }
    return {};
}

namespace {

std::int64_t activeSegmentSeq(const std::string& path, const char* vfs, const char* sql) {
    const Db db(segmentFiles(path).back(), vfs);
    sqlite3_stmt* stmt = nullptr;
    sqlite3_prepare_v2(db.db, sql, -1, &stmt, nullptr);
    std::int64_t seq = 0;
    if (sqlite3_step(stmt) == SQLITE_ROW) {
        seq = sqlite3_column_int64(stmt, 0);
    }
    sqlite3_finalize(stmt);
    return seq;
}

}  // namespace

std::int64_t lastSeq(const std::string& path, const char* vfs) {
    return activeSegmentSeq(path, vfs, "SELECT coalesce(max(seq), 0) FROM record");
}

std::int64_t firstSeqOfActive(const std::string& path, const char* vfs) {
    return activeSegmentSeq(path, vfs, "SELECT coalesce(min(seq), 0) FROM record");
}

}  // namespace pitlink::sim
