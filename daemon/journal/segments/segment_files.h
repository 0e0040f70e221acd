#pragma once
// Where a segmented journal's files are (schema/README.md "Segments"). `journal.path` of
// pitlink.yaml (journal.db) is a symbolic link to the active segment; sealed segments lie beside
// it in `<journal.path>.segments/`, numbered in chain order:
//
//   journal.db -> journal.db.segments/segment-000003.db      (active: the only one written)
//   journal.db.segments/segment-000001.db                    (sealed, read-only)
//   journal.db.segments/segment-000002.db                    (sealed, read-only)
//
// SQLite follows the link, so each segment has its own -wal and -shm, and a reader that opened
// journal.db before a rotation keeps reading the segment it opened, unchanged. A journal made
// before segments (journal.db a regular file) is read as it is and becomes segment 1 at its first
// rotation. Every change of the link is atomic (rename) and synced with its directory.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace pitlink::journal {

class SegmentFiles {
public:
    explicit SegmentFiles(std::filesystem::path journalPath);

    [[nodiscard]] const std::filesystem::path& link() const { return link_; }
    [[nodiscard]] const std::filesystem::path& directory() const { return directory_; }
    [[nodiscard]] std::filesystem::path file(std::uint32_t number) const;
    // The link's target as written in it (relative to the link's folder).
    [[nodiscard]] std::string linkTarget(std::uint32_t number) const;

    // The number of the segment the link points to; nullopt when journal.path is a regular file
    // (a journal from before segments, or one never rotated) or does not exist.
    [[nodiscard]] std::optional<std::uint32_t> active() const;
    // True when journal.path is a regular file: a single-file journal.
    [[nodiscard]] bool singleFile() const;
    // Numbers of the segment files present, ascending.
    [[nodiscard]] std::vector<std::uint32_t> present() const;
    // The sealed segments: those present below the active one (all present ones for a
    // single-file journal are leftovers of an interrupted first rotation, not sealed segments).
    [[nodiscard]] std::vector<std::uint32_t> sealed() const;

    // Points the link at segment `number` (atomically: a new link renamed over the old one) and
    // syncs the folder. For a single-file journal, its file is first renamed to segment
    // `number - 1`, which it becomes. Throws JournalError.
    void activate(std::uint32_t number) const;
    // Removes a segment file with its -wal and -shm.
    void remove(std::uint32_t number) const;
    // Creates the segments folder (synced into its parent) if it does not exist.
    void createDirectory() const;

    // "segment-000042.db" -> 42.
    [[nodiscard]] static std::optional<std::uint32_t> numberOf(const std::string& fileName);

private:
    std::filesystem::path link_;
    std::filesystem::path directory_;
};

// fsync of a folder: a rename or a new file in it survives power loss only after this.
void syncDirectory(const std::filesystem::path& directory);

}  // namespace pitlink::journal
