#include "daemon/journal/segments/segment_archive.h"

#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <openssl/evp.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <memory>

#include "daemon/journal/read/audit.h"
#include "daemon/journal/segments/sealed_check.h"
#include "daemon/journal/segments/segment_files.h"
#include "daemon/journal/segments/segmented_journal.h"
#include "daemon/journal/store/record.h"

namespace pitlink::journal {

namespace fs = std::filesystem;

namespace {

std::string fileSha256(const fs::path& path) {
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr);
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw JournalError("cannot read " + path.string());
    }
    std::vector<char> buffer(1 << 20);
    while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0) {
        EVP_DigestUpdate(ctx.get(), buffer.data(), static_cast<std::size_t>(in.gcount()));
    }
    Digest digest{};
    unsigned int size = 0;
    EVP_DigestFinal_ex(ctx.get(), digest.data(), &size);
    return toHex(digest);
}

void syncFile(const fs::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || ::fsync(fd) != 0) {
        if (fd >= 0) {
            ::close(fd);
        }
        throw JournalError("cannot sync " + path.string());
    }
    ::close(fd);
}

}  // namespace

std::vector<ArchivedSegment> archiveSegments(const std::string& journalPath, const StoreOptions& options,
                                             std::int64_t beforeMs, const fs::path& archive,
                                             std::optional<std::int64_t> keepAfter) {
    SegmentedJournal journal(journalPath, options);
    // The candidates: a run of the oldest sealed segments, each checked before anything moves.
    std::vector<ArchivedSegment> chosen;
    for (std::size_t i = 0; i + 1 < journal.size(); ++i) {
        const auto [fromMs, toMs] = journal.timeRange(i);
        if (toMs >= beforeMs) {
            break;
        }
        JournalStore& store = journal.segment(i);
        if (keepAfter && store.tipSeq() > *keepAfter) {
            break;  // not all of it on the floor's server yet
        }
        if (const std::string quick = store.quickCheck(); quick != "ok") {
            throw JournalError(journal.file(i) + " failed its integrity check: " + quick + "; nothing archived");
        }
        const ChainCheck chain = verifyChain(store, store.firstSeq());
        if (!chain.ok) {
            throw JournalError(journal.file(i) + ": " + chain.problem + "; nothing archived");
        }
        if (const std::string problem = checkSegmentSeal(journal, i + 1); !problem.empty()) {
            throw JournalError(problem + "; nothing archived");
        }
        chosen.push_back(ArchivedSegment{fs::path(journal.file(i)).filename().string(),
                                         {},
                                         static_cast<std::int64_t>(fs::file_size(journal.file(i))),
                                         store.firstSeq(),
                                         store.tipSeq(),
                                         toMs});
    }
    if (chosen.empty()) {
        return chosen;
    }
    // Copies first, synced and hashed again from the disk; the journal's files are removed only
    // once every copy is known good.
    fs::create_directories(archive);
    const SegmentFiles files(journalPath);
    std::ofstream manifest(archive / "MANIFEST.jsonl", std::ios::app);
    const std::int64_t now =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    for (ArchivedSegment& segment : chosen) {
        const fs::path source = files.directory() / segment.file;
        const fs::path copy = archive / segment.file;
        if (fs::exists(copy)) {
            throw JournalError(copy.string() + " exists already; nothing more archived");
        }
        segment.sha256 = fileSha256(source);
        fs::copy_file(source, copy);
        syncFile(copy);
        if (fileSha256(copy) != segment.sha256) {
            fs::remove(copy);
            throw JournalError("the copy of " + segment.file + " differs from it; nothing more archived");
        }
        manifest << nlohmann::json{{"file", segment.file},        {"sha256", segment.sha256},
                                   {"bytes", segment.bytes},      {"first_seq", segment.firstSeq},
                                   {"last_seq", segment.lastSeq}, {"to_ms", segment.toMs},
                                   {"archived_at_ms", now}}
                        .dump()
                 << "\n";
    }
    manifest.close();
    syncFile(archive / "MANIFEST.jsonl");
    syncDirectory(archive);
    for (const ArchivedSegment& segment : chosen) {
        const auto number = SegmentFiles::numberOf(segment.file);
        if (number) {
            files.remove(*number);
        }
    }
    return chosen;
}

}  // namespace pitlink::journal
