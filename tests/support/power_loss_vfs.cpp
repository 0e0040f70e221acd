#include "tests/support/power_loss_vfs.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <set>
#include <vector>

namespace pitlink::test {

namespace {

struct PendingWrite {
    sqlite3_int64 offset;
    std::vector<unsigned char> data;
};

struct PlFile {
    sqlite3_file base;  // must be first: SQLite sees a sqlite3_file*
    sqlite3_file* real;
    std::vector<PendingWrite>* pending;
};

struct State {
    std::mutex mutex;
    sqlite3_vfs* real = nullptr;
    sqlite3_vfs vfs{};
    std::set<PlFile*> open;
    bool dead = false;
    std::int64_t writes = 0;
    std::int64_t failAt = -1;  // write number from which writes fail
    int failError = SQLITE_FULL;
    std::int64_t cutAt = -1;  // write number at which the power goes
    std::uint64_t cutSeed = 0;
    double cutKeep = 0.5;
};

State& state() {
    static State s;
    return s;
}

sqlite3_file* realOf(sqlite3_file* f) {
    return reinterpret_cast<PlFile*>(f)->real;
}

int flush(PlFile* file) {
    for (const PendingWrite& w : *file->pending) {
        const int rc =
            file->real->pMethods->xWrite(file->real, w.data.data(), static_cast<int>(w.data.size()), w.offset);
        if (rc != SQLITE_OK) {
            return rc;
        }
    }
    file->pending->clear();
    return SQLITE_OK;
}

void cutLocked(State& s, std::mt19937_64& random, double keep) {
    std::bernoulli_distribution kept(keep);
    for (PlFile* file : s.open) {
        for (const PendingWrite& w : *file->pending) {
            if (kept(random)) {
                file->real->pMethods->xWrite(file->real, w.data.data(), static_cast<int>(w.data.size()), w.offset);
            }
        }
        file->pending->clear();
    }
    s.dead = true;
}

int xClose(sqlite3_file* f) {
    auto* file = reinterpret_cast<PlFile*>(f);
    State& s = state();
    const std::lock_guard lock(s.mutex);
    if (!s.dead) {
        flush(file);  // a clean close leaves the data with the OS, as a real close does
    }
    const int rc = file->real->pMethods != nullptr ? file->real->pMethods->xClose(file->real) : SQLITE_OK;
    s.open.erase(file);
    delete file->pending;
    return rc;
}

int xRead(sqlite3_file* f, void* out, int amount, sqlite3_int64 offset) {
    auto* file = reinterpret_cast<PlFile*>(f);
    State& s = state();
    const std::lock_guard lock(s.mutex);
    if (s.dead) {
        return SQLITE_IOERR_READ;
    }
    int rc = file->real->pMethods->xRead(file->real, out, amount, offset);
    if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ) {
        return rc;
    }
    sqlite3_int64 realSize = 0;
    file->real->pMethods->xFileSize(file->real, &realSize);
    sqlite3_int64 covered = realSize;
    auto* bytes = static_cast<unsigned char*>(out);
    for (const PendingWrite& w : *file->pending) {
        const sqlite3_int64 begin = std::max(offset, w.offset);
        const sqlite3_int64 end = std::min(offset + amount, w.offset + static_cast<sqlite3_int64>(w.data.size()));
        if (begin < end) {
            std::memcpy(bytes + (begin - offset), w.data.data() + (begin - w.offset),
                        static_cast<std::size_t>(end - begin));
        }
        covered = std::max(covered, w.offset + static_cast<sqlite3_int64>(w.data.size()));
    }
    return offset + amount <= covered ? SQLITE_OK : SQLITE_IOERR_SHORT_READ;
}

int xWrite(sqlite3_file* f, const void* data, int amount, sqlite3_int64 offset) {
    auto* file = reinterpret_cast<PlFile*>(f);
    State& s = state();
    const std::lock_guard lock(s.mutex);
    if (s.dead) {
        return SQLITE_IOERR_WRITE;
    }
    const std::int64_t number = s.writes++;
    if (s.cutAt >= 0 && number >= s.cutAt) {
        std::mt19937_64 random(s.cutSeed);
        cutLocked(s, random, s.cutKeep);
        return SQLITE_IOERR_WRITE;
    }
    if (s.failAt >= 0 && number >= s.failAt) {
        return s.failError;
    }
    const auto* bytes = static_cast<const unsigned char*>(data);
    file->pending->push_back(PendingWrite{offset, std::vector<unsigned char>(bytes, bytes + amount)});
    return SQLITE_OK;
}

int xTruncate(sqlite3_file* f, sqlite3_int64 size) {
    auto* file = reinterpret_cast<PlFile*>(f);
    State& s = state();
    const std::lock_guard lock(s.mutex);
    if (s.dead) {
        return SQLITE_IOERR_TRUNCATE;
    }
    if (const int rc = flush(file); rc != SQLITE_OK) {
        return rc;
    }
    return file->real->pMethods->xTruncate(file->real, size);
}

int xSync(sqlite3_file* f, int flags) {
    auto* file = reinterpret_cast<PlFile*>(f);
    State& s = state();
    const std::lock_guard lock(s.mutex);
    if (s.dead) {
        return SQLITE_IOERR_FSYNC;
    }
    if (const int rc = flush(file); rc != SQLITE_OK) {
        return rc;
    }
    return file->real->pMethods->xSync(file->real, flags);
}

int xFileSize(sqlite3_file* f, sqlite3_int64* size) {
    auto* file = reinterpret_cast<PlFile*>(f);
    State& s = state();
    const std::lock_guard lock(s.mutex);
    if (s.dead) {
        return SQLITE_IOERR_FSTAT;
    }
    const int rc = file->real->pMethods->xFileSize(file->real, size);
    for (const PendingWrite& w : *file->pending) {
        *size = std::max(*size, w.offset + static_cast<sqlite3_int64>(w.data.size()));
    }
    return rc;
}

int xLock(sqlite3_file* f, int level) {
    return realOf(f)->pMethods->xLock(realOf(f), level);
}
int xUnlock(sqlite3_file* f, int level) {
    return realOf(f)->pMethods->xUnlock(realOf(f), level);
}
int xCheckReservedLock(sqlite3_file* f, int* out) {
    return realOf(f)->pMethods->xCheckReservedLock(realOf(f), out);
}
int xFileControl(sqlite3_file* f, int op, void* arg) {
    return realOf(f)->pMethods->xFileControl(realOf(f), op, arg);
}
int xSectorSize(sqlite3_file* f) {
    return realOf(f)->pMethods->xSectorSize(realOf(f));
}
int xDeviceCharacteristics(sqlite3_file* f) {
    return realOf(f)->pMethods->xDeviceCharacteristics(realOf(f));
}
int xShmMap(sqlite3_file* f, int region, int size, int extend, void volatile** out) {
    return realOf(f)->pMethods->xShmMap(realOf(f), region, size, extend, out);
}
int xShmLock(sqlite3_file* f, int offset, int n, int flags) {
    return realOf(f)->pMethods->xShmLock(realOf(f), offset, n, flags);
}
void xShmBarrier(sqlite3_file* f) {
    realOf(f)->pMethods->xShmBarrier(realOf(f));
}
int xShmUnmap(sqlite3_file* f, int deleteFlag) {
    return realOf(f)->pMethods->xShmUnmap(realOf(f), deleteFlag);
}

// Version 2: shared memory for WAL, but no memory-mapped I/O (every read and write comes here).
const sqlite3_io_methods kMethods = {
    2,
    xClose,
    xRead,
    xWrite,
    xTruncate,
    xSync,
    xFileSize,
    xLock,
    xUnlock,
    xCheckReservedLock,
    xFileControl,
    xSectorSize,
    xDeviceCharacteristics,
    xShmMap,
    xShmLock,
    xShmBarrier,
    xShmUnmap,
    nullptr,
    nullptr,
};

int xOpen(sqlite3_vfs* vfs, const char* name, sqlite3_file* f, int flags, int* outFlags) {
    State& s = *static_cast<State*>(vfs->pAppData);
    auto* file = reinterpret_cast<PlFile*>(f);
    file->real = reinterpret_cast<sqlite3_file*>(file + 1);
    file->base.pMethods = nullptr;
    {
        const std::lock_guard lock(s.mutex);
        if (s.dead) {
            return SQLITE_CANTOPEN;
        }
    }
    const int rc = s.real->xOpen(s.real, name, file->real, flags, outFlags);
    if (rc != SQLITE_OK) {
        return rc;
    }
    file->pending = new std::vector<PendingWrite>();
    file->base.pMethods = &kMethods;
    const std::lock_guard lock(s.mutex);
    s.open.insert(file);
    return SQLITE_OK;
}

int xDelete(sqlite3_vfs* vfs, const char* name, int syncDir) {
    State& s = *static_cast<State*>(vfs->pAppData);
    return s.real->xDelete(s.real, name, syncDir);
}
int xAccess(sqlite3_vfs* vfs, const char* name, int flags, int* out) {
    State& s = *static_cast<State*>(vfs->pAppData);
    return s.real->xAccess(s.real, name, flags, out);
}
int xFullPathname(sqlite3_vfs* vfs, const char* name, int n, char* out) {
    State& s = *static_cast<State*>(vfs->pAppData);
    return s.real->xFullPathname(s.real, name, n, out);
}
int xRandomness(sqlite3_vfs* vfs, int n, char* out) {
    State& s = *static_cast<State*>(vfs->pAppData);
    return s.real->xRandomness(s.real, n, out);
}
int xSleep(sqlite3_vfs* vfs, int micros) {
    State& s = *static_cast<State*>(vfs->pAppData);
    return s.real->xSleep(s.real, micros);
}
int xCurrentTime(sqlite3_vfs* vfs, double* out) {
    State& s = *static_cast<State*>(vfs->pAppData);
    return s.real->xCurrentTime(s.real, out);
}
int xGetLastError(sqlite3_vfs* vfs, int n, char* out) {
    State& s = *static_cast<State*>(vfs->pAppData);
    return s.real->xGetLastError(s.real, n, out);
}
int xCurrentTimeInt64(sqlite3_vfs* vfs, sqlite3_int64* out) {
    State& s = *static_cast<State*>(vfs->pAppData);
    return s.real->xCurrentTimeInt64(s.real, out);
}

}  // namespace

void registerPowerLossVfs() {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    if (s.real != nullptr) {
        return;
    }
    s.real = sqlite3_vfs_find(nullptr);
    s.vfs.iVersion = 2;
    s.vfs.szOsFile = static_cast<int>(sizeof(PlFile)) + s.real->szOsFile;
    s.vfs.mxPathname = s.real->mxPathname;
    s.vfs.zName = kPowerLossVfs;
    s.vfs.pAppData = &s;
    s.vfs.xOpen = xOpen;
    s.vfs.xDelete = xDelete;
    s.vfs.xAccess = xAccess;
    s.vfs.xFullPathname = xFullPathname;
    s.vfs.xRandomness = xRandomness;
    s.vfs.xSleep = xSleep;
    s.vfs.xCurrentTime = xCurrentTime;
    s.vfs.xGetLastError = xGetLastError;
    s.vfs.xCurrentTimeInt64 = xCurrentTimeInt64;
    sqlite3_vfs_register(&s.vfs, 0);
}

void PowerLoss::reset() {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    s.dead = false;
    s.failAt = -1;
    s.cutAt = -1;
}

void PowerLoss::disarm() {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    if (s.failAt >= s.writes) {
        s.failAt = -1;
    }
    if (s.cutAt >= s.writes) {
        s.cutAt = -1;
    }
}

void PowerLoss::failWritesAfter(std::int64_t writes, int sqliteError) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    s.failAt = s.writes + writes;
    s.failError = sqliteError;
}

void PowerLoss::cutAfterWrites(std::int64_t writes, std::uint64_t seed, double keep) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    s.cutAt = s.writes + writes;
    s.cutSeed = seed;
    s.cutKeep = keep;
}

void PowerLoss::cutNow(std::uint64_t seed, double keep) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    if (!s.dead) {
        std::mt19937_64 random(seed);
        cutLocked(s, random, keep);
    }
}

bool PowerLoss::powerIsOff() {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    return s.dead;
}

}  // namespace pitlink::test
