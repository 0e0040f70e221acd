#include "daemon/journal/store/storage_diagnosis.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <cstdint>
#include <filesystem>

namespace pitlink::journal {

namespace {

constexpr std::uint64_t kMargin = std::uint64_t{64} * 1024;  // more than one commit's pages

}  // namespace

std::string storageDiagnosis(const std::string& databasePath) {
    rlimit limit{};
    if (::getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
        for (const char* suffix : {"", "-wal", "-journal"}) {
            const std::string file = databasePath + suffix;
            struct stat info {};
            if (::stat(file.c_str(), &info) == 0 &&
                static_cast<std::uint64_t>(info.st_size) + kMargin > limit.rlim_cur) {
                return "; " + std::filesystem::path(file).filename().string() + " is " + std::to_string(info.st_size) +
                       " bytes, at this process's file-size limit of " + std::to_string(limit.rlim_cur) +
                       " bytes (RLIMIT_FSIZE, systemd LimitFSIZE=)";
            }
        }
    }
    const std::filesystem::path directory = std::filesystem::absolute(databasePath).parent_path();
    struct statvfs space {};
    if (::statvfs(directory.c_str(), &space) == 0) {
        const std::uint64_t free = static_cast<std::uint64_t>(space.f_bavail) * space.f_frsize;
        if (free < kMargin) {
            return "; the file system of " + std::filesystem::path(databasePath).filename().string() + " has " +
                   std::to_string(free) + " bytes free";
        }
    }
    return {};
}

}  // namespace pitlink::journal
