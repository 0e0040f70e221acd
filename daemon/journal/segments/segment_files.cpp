#include "daemon/journal/segments/segment_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "daemon/journal/store/journal_error.h"

namespace pitlink::journal {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kPrefix = "segment-";
constexpr std::string_view kSuffix = ".db";

std::string segmentName(std::uint32_t number) {
    std::string digits = std::to_string(number);
    if (digits.size() < 6) {
        digits.insert(0, 6 - digits.size(), '0');
    }
    return std::string(kPrefix) + digits + std::string(kSuffix);
}

[[noreturn]] void fail(const std::string& what, const fs::path& path) {
    throw JournalError(what + " " + path.string() + ": " + std::strerror(errno));
}

fs::path parentOf(const fs::path& path) {
    return path.has_parent_path() ? path.parent_path() : fs::path(".");
}

}  // namespace

void syncDirectory(const fs::path& directory) {
    const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        fail("cannot open folder", directory);
    }
    const int synced = ::fsync(fd);
    const int error = errno;
    ::close(fd);
    if (synced != 0) {
        errno = error;
        fail("cannot sync folder", directory);
    }
}

SegmentFiles::SegmentFiles(fs::path journalPath)
    : link_(std::move(journalPath)), directory_(link_.string() + ".segments") {}

fs::path SegmentFiles::file(std::uint32_t number) const {
    return directory_ / segmentName(number);
}

std::string SegmentFiles::linkTarget(std::uint32_t number) const {
    return (fs::path(directory_.filename()) / segmentName(number)).string();
}

std::optional<std::uint32_t> SegmentFiles::numberOf(const std::string& fileName) {
    if (fileName.size() != kPrefix.size() + 6 + kSuffix.size() || !fileName.starts_with(kPrefix) ||
        !fileName.ends_with(kSuffix)) {
        return std::nullopt;
    }
    const std::string digits = fileName.substr(kPrefix.size(), 6);
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return std::nullopt;
    }
    const auto number = static_cast<std::uint32_t>(std::stoul(digits));
    return number == 0 ? std::nullopt : std::optional(number);
}

std::optional<std::uint32_t> SegmentFiles::active() const {
    std::error_code error;
    if (!fs::is_symlink(fs::symlink_status(link_, error))) {
        return std::nullopt;
    }
    const fs::path target = fs::read_symlink(link_, error);
    if (error || target.parent_path() != fs::path(directory_.filename())) {
        throw JournalError("journal " + link_.string() + " is a link to " + target.string() + ", not to a segment in " +
                           directory_.string());
    }
    const auto number = numberOf(target.filename().string());
    if (!number) {
        throw JournalError("journal " + link_.string() + " is a link to " + target.string() +
                           ", which is not a segment's name");
    }
    return number;
}

bool SegmentFiles::singleFile() const {
    std::error_code error;
    return fs::is_regular_file(fs::symlink_status(link_, error));
}

std::vector<std::uint32_t> SegmentFiles::present() const {
    std::vector<std::uint32_t> numbers;
    std::error_code error;
    if (!fs::is_directory(directory_, error)) {
        return numbers;
    }
    for (const fs::directory_entry& entry : fs::directory_iterator(directory_)) {
        if (const auto number = numberOf(entry.path().filename().string()); number && entry.is_regular_file()) {
            numbers.push_back(*number);
        }
    }
    std::sort(numbers.begin(), numbers.end());
    return numbers;
}

std::vector<std::uint32_t> SegmentFiles::sealed() const {
    const auto current = active();
    std::vector<std::uint32_t> numbers;
    if (!current) {
        return numbers;
    }
    for (const std::uint32_t n : present()) {
        if (n < *current) {
            numbers.push_back(n);
        }
    }
    return numbers;
}

void SegmentFiles::createDirectory() const {
    std::error_code error;
    if (fs::is_directory(directory_, error)) {
        return;
    }
    if (::mkdir(directory_.c_str(), 0750) != 0 && errno != EEXIST) {
        fail("cannot create the segments folder", directory_);
    }
    syncDirectory(parentOf(link_));
}

void SegmentFiles::activate(std::uint32_t number) const {
    if (singleFile()) {
        if (number < 2) {
            throw JournalError("a single-file journal becomes segment 1: the next one is 2, not " +
                               std::to_string(number));
        }
        if (::rename(link_.c_str(), file(number - 1).c_str()) != 0) {
            fail("cannot move the single-file journal into", directory_);
        }
        syncDirectory(directory_);
        syncDirectory(parentOf(link_));
    }
    const fs::path fresh = link_.string() + ".new-link";
    ::unlink(fresh.c_str());
    if (::symlink(linkTarget(number).c_str(), fresh.c_str()) != 0) {
        fail("cannot create the link", fresh);
    }
    if (::rename(fresh.c_str(), link_.c_str()) != 0) {
        fail("cannot point the journal at its new segment", link_);
    }
    syncDirectory(parentOf(link_));
}

void SegmentFiles::remove(std::uint32_t number) const {
    const std::string base = file(number).string();
    for (const std::string& path : {base, base + "-wal", base + "-shm", base + "-journal"}) {
        if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
            fail("cannot remove", path);
        }
    }
    syncDirectory(directory_);
}

}  // namespace pitlink::journal
