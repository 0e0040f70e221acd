#pragma once
// Why a write to a journal file can have failed, as the system stands now. SQLite reports a
// file-size limit (EFBIG) as a plain disk I/O error and its errno is not kept reliably, so the
// failure's message says what the files show: an operator reading the tilt then knows whether to
// raise a limit, free space, or look at the disk.
#include <string>

namespace pitlink::journal {

// "; journal.db-wal is 1069056 bytes, at this process's file-size limit of 1069056 bytes
// (RLIMIT_FSIZE, systemd LimitFSIZE=)" when the database, its WAL or its rollback journal is
// within 64 KiB of the limit; "; the file system of journal.db has 4096 bytes free" when less than
// 64 KiB are left to this process; empty when neither (the error is the disk's own).
[[nodiscard]] std::string storageDiagnosis(const std::string& databasePath);

}  // namespace pitlink::journal
