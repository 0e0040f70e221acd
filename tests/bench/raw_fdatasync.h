#pragma once
// The disk's own durable-write rate on a directory, 4 KiB and fdatasync each time, two ways:
// appended to a growing file (the size changes, so the file system journals metadata too) and
// overwritten in place in a preallocated file (as pg_test_fsync does; what a WAL that has been
// reset mostly does). The second is the cheaper, stricter baseline. The benchmarks compare
// journal commits and whole-daemon rounds with it, measured in the same run. In place, it can
// also write several pages before each fdatasync, as a WAL commit of that many frames does.
#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace pitlink::test {

class RawFdatasync {
public:
    RawFdatasync(const std::filesystem::path& dir, bool inPlace, int pages = 1)
        : path_(dir / (inPlace ? "fdatasync-in-place-" + std::to_string(pages) + ".bin" : "fdatasync-append.bin")),
          fd_(::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644)),
          inPlace_(inPlace),
          pages_(inPlace ? pages : 1) {
        if (fd_ < 0) {
            throw std::runtime_error("cannot create " + path_.string());
        }
        if (inPlace_) {
            const std::vector<char> zeros(kRegion, 0);
            if (::write(fd_, zeros.data(), zeros.size()) != static_cast<ssize_t>(zeros.size()) || ::fsync(fd_) != 0) {
                throw std::runtime_error("cannot preallocate " + path_.string());
            }
        }
    }
    ~RawFdatasync() {
        ::close(fd_);
        std::error_code ignored;
        std::filesystem::remove(path_, ignored);
    }
    RawFdatasync(const RawFdatasync&) = delete;
    RawFdatasync& operator=(const RawFdatasync&) = delete;

    // One 4 KiB write (`pages` of them in place, one after the other) and one fdatasync; false
    // if any failed.
    bool once() {
        const auto n = static_cast<ssize_t>(page_.size());
        if (inPlace_) {
            for (int i = 0; i < pages_; ++i) {
                offset_ = (offset_ + n) % kRegion;
                if (::pwrite(fd_, page_.data(), page_.size(), offset_) != n) {
                    return false;
                }
            }
            return ::fdatasync(fd_) == 0;
        }
        return ::write(fd_, page_.data(), page_.size()) == n && ::fdatasync(fd_) == 0;
    }

private:
    static constexpr off_t kRegion = 4 << 20;
    std::filesystem::path path_;
    int fd_;
    bool inPlace_;
    int pages_;
    off_t offset_ = 0;
    std::vector<char> page_ = std::vector<char>(4096, 'x');
};

}  // namespace pitlink::test
