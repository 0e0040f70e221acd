#include "daemon/journal/segments/segment_rotation.h"

#include <nlohmann/json.hpp>
#include <unistd.h>

#include <array>

#include "daemon/journal/records/record_kinds.h"

namespace pitlink::journal {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// What `segment.sealed` says of the segment it closes: its records, the rounds played in it (a
// re-settlement of an older round is in the segment active at the time), its time, and the last
// link, which the next record chains from.
json sealBody(JournalStore& sealing, std::uint32_t number, const std::string& fileName) {
    SqliteConnection& db = sealing.connection();
    SqliteStatement range = db.prepare(
        "SELECT (SELECT min(seq) FROM record), (SELECT at_ms FROM record ORDER BY seq LIMIT 1), "
        "(SELECT at_ms FROM record ORDER BY seq DESC LIMIT 1), "
        "(SELECT min(round_id) FROM record WHERE kind = 'round.opened'), "
        "(SELECT max(round_id) FROM record WHERE kind = 'round.opened')");
    range.step();
    json body{{"segment", number},
              {"file", fileName},
              {"first_seq", range.optionalInteger(0).value_or(sealing.tipSeq() + 1)},
              {"last_seq", sealing.tipSeq()},
              {"last_hash", toHex(sealing.tipHash())},
              {"from_ms", range.optionalInteger(1).value_or(0)},
              {"to_ms", range.optionalInteger(2).value_or(0)}};
    if (const auto first = range.optionalInteger(3)) {
        body["first_round"] = *first;
        body["last_round"] = range.optionalInteger(4).value_or(*first);
    }
    return body;
}

// The kinds of record in a segment file that is not (or not yet) the journal; nullopt when it
// holds no record table (it died before its first transaction committed).
std::optional<std::vector<std::string>> kindsIn(const fs::path& file, const StoreOptions& options) {
    SqliteConnection db(file.string(), SqliteConnection::Mode::ReadWrite, options.vfs);
    if (db.queryInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'record'") == 0) {
        return std::nullopt;
    }
    std::vector<std::string> kinds;
    SqliteStatement rows = db.prepare("SELECT DISTINCT kind FROM record");
    while (rows.step()) {
        kinds.emplace_back(rows.text(0));
    }
    return kinds;
}

}  // namespace

bool isOpeningKind(std::string_view kind) {
    static constexpr std::array<std::string_view, 4> kOpening{kind::kSegmentSealed, kind::kSegmentCarried,
                                                              kind::kMetersSnapshot, kind::kSasQueue};
    return std::find(kOpening.begin(), kOpening.end(), kind) != kOpening.end();
}

SegmentRotation::SegmentRotation(std::string journalPath, StoreOptions options, Carry carry, Step step)
    : files_(std::move(journalPath)), options_(std::move(options)), carry_(std::move(carry)), step_(std::move(step)) {
    options_.readOnly = false;
}

std::unique_ptr<JournalStore> SegmentRotation::rotate(std::unique_ptr<JournalStore>& current,
                                                      std::span<const PendingRecord> opening, AppendResult& result) {
    const bool single = files_.singleFile();
    const std::optional<std::uint32_t> active = single ? std::optional<std::uint32_t>(1) : files_.active();
    if (!active) {
        throw RotationPostponed("journal " + files_.link().string() + " is neither a file nor a segment's link");
    }
    const std::uint32_t next = *active + 1;
    // The single file is renamed into the segments folder: every committed page must be in it,
    // none left in a WAL that keeps the old name.
    if (single && !current->checkpoint()) {
        throw RotationPostponed("another reader holds the journal's WAL; the segment is sealed later");
    }
    const std::int64_t at = opening.empty() ? 0 : opening.front().atMs;
    std::vector<PendingRecord> records;
    records.push_back(PendingRecord{at, std::string(kind::kSegmentSealed), std::nullopt, std::nullopt,
                                    canonicalJson(sealBody(*current, *active, files_.file(*active).filename()))});
    if (carry_) {
        for (PendingRecord& carried : carry_(*current, at)) {
            records.push_back(std::move(carried));
        }
    }
    records.insert(records.end(), opening.begin(), opening.end());

    std::unique_ptr<JournalStore> fresh;
    try {
        files_.createDirectory();
        files_.remove(next);  // an orphan of an attempt that died, if any (tidySegments removes them too)
        StoreOptions options = options_;
        options.createdAtMs = current->createdAtMs();
        fresh = std::make_unique<JournalStore>(files_.file(next).string(), options);
        fresh->continueChain(current->tipSeq(), current->tipHash());
        result = fresh->append(records);
        syncDirectory(files_.directory());
    } catch (const std::exception& error) {
        fresh.reset();
        try {
            files_.remove(next);
        } catch (const std::exception&) {
            // left for tidySegments at the next start
        }
        throw RotationPostponed(std::string("the next segment cannot be written: ") + error.what());
    }
    if (step_) {
        step_("written");
    }
    if (single) {
        current.reset();  // closed before its file is renamed (its WAL keeps the old name)
    }
    try {
        files_.activate(next);
    } catch (const JournalError&) {
        if (single && !fs::exists(fs::symlink_status(files_.link()))) {
            throw;  // moved but not linked: tidySegments links it at the next start; the table tilts
        }
        fresh.reset();
        files_.remove(next);
        if (single) {
            throw;  // the old file is closed: it is reopened at the next start
        }
        throw RotationPostponed("journal " + files_.link().string() + " cannot be pointed at its next segment");
    }
    if (step_) {
        step_("activated");
    }
    if (!single) {
        // Sealed: its last pages copied from its WAL, so that the sealed file stands alone.
        (void)current->checkpoint();
        current.reset();
    }
    return fresh;
}

std::vector<std::string> tidySegments(const std::string& journalPath, const StoreOptions& options) {
    const SegmentFiles files(journalPath);
    std::vector<std::string> actions;
    ::unlink((journalPath + ".new-link").c_str());
    const std::vector<std::uint32_t> present = files.present();
    if (!fs::exists(fs::symlink_status(files.link())) && !present.empty()) {
        files.activate(present.back());
        actions.push_back("journal " + journalPath + " linked to segment " + std::to_string(present.back()) +
                          " (a rotation died after moving the single-file journal)");
        return actions;
    }
    const std::uint32_t active = files.active().value_or(0);
    for (const std::uint32_t n : present) {
        if (n <= active) {
            continue;
        }
        std::optional<std::vector<std::string>> kinds;
        try {
            kinds = kindsIn(files.file(n), options);
        } catch (const JournalError& error) {
            // Torn by a power cut while it was written (it was never the journal: the link moves
            // only after it is synced whole). Kept aside, not removed: nothing is destroyed.
            const std::string aside = files.file(n).string() + ".torn";
            std::filesystem::rename(files.file(n), aside);
            for (const char* suffix : {"-wal", "-shm", "-journal"}) {
                std::error_code ignored;
                std::filesystem::rename(files.file(n).string() + suffix, aside + suffix, ignored);
            }
            syncDirectory(files.directory());
            actions.push_back("moved segment " + std::to_string(n) + " aside to " + aside +
                              ": a rotation died while writing it (" + error.what() + ")");
            continue;
        }
        if (kinds) {
            for (const std::string& k : *kinds) {
                if (!isOpeningKind(k)) {
                    throw JournalError("segment file " + files.file(n).string() +
                                       " is beyond the journal's active segment and holds '" + k +
                                       "' records: it is not the orphan of a rotation; look before removing it");
                }
            }
        }
        files.remove(n);
        actions.push_back("removed segment " + std::to_string(n) + ", written by a rotation that died before " +
                          journalPath + " pointed at it");
    }
    return actions;
}

}  // namespace pitlink::journal
