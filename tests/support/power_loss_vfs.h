#pragma once
// A SQLite VFS for tests that behaves like a disk with a volatile write cache, as SQLite's own
// crash tests model one: a write is only durable once its file has been synced. When the "power"
// is cut, each write not yet synced is independently kept or lost (the disk may have written
// some of its cache, in any order), and every later I/O fails. It can also make writes fail
// (disk full, I/O error) after a number of them. It wraps the default (unix) VFS.
#include <cstdint>
#include <random>

namespace pitlink::test {

inline constexpr const char* kPowerLossVfs = "pitlink-powerloss";

// Registers the VFS (idempotent). Not the default: open the journal with it by name.
void registerPowerLossVfs();

// Test control. The VFS is process-global, as SQLite's VFS registry is.
struct PowerLoss {
    // Forget injected faults and revive I/O (files opened afterwards work again).
    static void reset();
    // The write after `writes` more writes (and every write after it) fails with `sqliteError`
    // (SQLITE_FULL, SQLITE_IOERR_WRITE...); nothing is cut: synced data stays.
    static void failWritesAfter(std::int64_t writes, int sqliteError);
    // Cuts the power at the start of write number `writes` from now (counted over all files):
    // each unsynced write is kept with probability `keep`, then all I/O fails.
    static void cutAfterWrites(std::int64_t writes, std::uint64_t seed, double keep);
    // Cuts the power now: each unsynced write is kept with probability `keep` (1: a process
    // killed, whose writes the OS still has), then all I/O fails.
    static void cutNow(std::uint64_t seed, double keep);
    // Forgets the injected faults that have not struck yet (no write has reached them); one that
    // has struck stays, with what it did.
    static void disarm();
    [[nodiscard]] static bool powerIsOff();
};

}  // namespace pitlink::test
