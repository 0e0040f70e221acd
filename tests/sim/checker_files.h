#pragma once
// How the simulation's journal checker reads the journal's files (schema/README.md "Segments"),
// with the sqlite3 C API and its own SQL, sharing nothing with the daemon but the files.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

struct sqlite3;

namespace pitlink::sim {

// Its implicit special members only destroy and copy std and nlohmann values; clang-tidy 14
// reports a possible throw there that it cannot place.
// NOLINTNEXTLINE(bugprone-exception-escape)
// One record as the checker read it.
struct CheckerRow {
    std::int64_t seq = 0;
    std::string kind;
    std::optional<std::int64_t> round;
    std::optional<std::int64_t> station;
    std::shared_ptr<const nlohmann::json> body;
    std::string hash;  // the chain's link, as stored
};

// What the checker keeps between its checks of one journal, where the simulation spent most of
// its time (reading the same records at every check):
// - the bodies it parsed, by record: a record whose stored text is byte for byte the text parsed
//   before reuses that parse;
// - the records of the sealed segments (those before the active one), kept with their files'
//   inode, size and modification time and read again when any of them changed. A file modified
//   in the last 100 ms is not kept (its time moves in clock ticks: a write in the same tick could
//   leave it unchanged). Nothing is trusted across a change: a segment written after its seal,
//   or taken back by a recovery, is read again;
// - while the process that writes the journal lives, its read connections to the segment files
//   (opening one parses the schema again). `close()` closes them before the files go (a crash:
//   the power-loss VFS is reset under them).
class CheckerCache {
public:
    CheckerCache();
    ~CheckerCache();
    CheckerCache(const CheckerCache&) = delete;
    CheckerCache& operator=(const CheckerCache&) = delete;

    [[nodiscard]] std::shared_ptr<const nlohmann::json> parse(std::int64_t seq, std::string_view text);
    // The lowest record whose text differed from the text parsed before since the last call
    // (none: the largest number): the checker feeds again from scratch when it fed that record.
    [[nodiscard]] std::int64_t takeLowestChanged();
    // The open read connection to `file` (opened through `vfs` when it is not open yet).
    [[nodiscard]] sqlite3* connection(const std::string& file, const char* vfs);
    // The records of sealed segment `file` read at an earlier check, if its files are unchanged.
    [[nodiscard]] std::shared_ptr<const std::vector<CheckerRow>> sealed(const std::string& file) const;
    void keepSealed(const std::string& file, std::shared_ptr<const std::vector<CheckerRow>> rows);
    // Forgets the files other than `files` (archived, or never there).
    void keepOnly(const std::vector<std::string>& files);
    void close();

private:
    struct Parsed {
        std::string text;
        std::shared_ptr<const nlohmann::json> body;
    };
    struct Sealed {
        std::string stamp;  // the size and modification time of the file and of its WAL
        std::shared_ptr<const std::vector<CheckerRow>> rows;
    };
    std::unordered_map<std::int64_t, Parsed> bySeq_;
    std::int64_t lowestChanged_ = std::numeric_limits<std::int64_t>::max();
    std::map<std::string, std::shared_ptr<sqlite3>> connections_;
    std::map<std::string, Sealed> sealed_;
};

// The journal's files in chain order: journal.db a regular file (one file), or a link to the
// active segment, with the sealed ones numbered below it in journal.db.segments/.
[[nodiscard]] std::vector<std::string> segmentFiles(const std::string& path);

// Every record of one file in order; `cache` (or null) reuses the parses and the connection.
[[nodiscard]] std::vector<CheckerRow> readSegment(const std::string& file, const char* vfs, CheckerCache* cache);

// The hash stored for record `seq`, or empty when there is none (the chain's link, to prove that
// a record acknowledged before a crash is still there after it, unchanged). The newest segment
// is searched first: the record asked for is nearly always a recent one.
[[nodiscard]] std::string recordHash(const std::string& path, const char* vfs, std::int64_t seq);
[[nodiscard]] std::int64_t lastSeq(const std::string& path, const char* vfs);
// The first record of the active segment (0 when it has none).
[[nodiscard]] std::int64_t firstSeqOfActive(const std::string& path, const char* vfs);

}  // namespace pitlink::sim
