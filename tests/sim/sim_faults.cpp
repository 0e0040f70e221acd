// The faults a run injects (sim_run.h): a crash, and what the recovery after it must keep.
#include "tests/sim/sim_run.h"

namespace pitlink::sim {

// The process dies: its memory and whatever was not yet committed go; the file stays (with
// what a power cut lost). Then a new process recovers from it and the workload goes on.
void Simulation::crash(const std::string& how, double keep) {
    ++result_.crashes;
    checker_.close();  // its connections die with the power
    journal::Journal* journal = daemon_->journal();
    // What was acknowledged, and the link of a record known to be committed (the last one,
    // or, when the power went during a commit, the one read at the last checkpoint).
    const std::int64_t acked = journal != nullptr ? journal->lastCommittedSeq() : 0;
    std::int64_t hashSeq = committedSeq_;
    std::string hash = committedHash_;
    if (!test::PowerLoss::powerIsOff()) {
        if (acked > 0) {
            hashSeq = acked;
            hash = recordHash(path(), test::kPowerLossVfs, acked);
        }
        test::PowerLoss::cutNow(random_(), keep);
    }
    powerOff();
    result_.openingsHeld += daemon_->openingsHeld();
    daemon_.reset();
    executor_.reset();
    connections_.clear();
    test::PowerLoss::reset();
    if (options_.verbose) {
        spdlog::set_level(spdlog::level::info);
        spdlog::info("sim: step {}: {}; record {} was acknowledged", result_.step, how, acked);
    }
    boot();
    if (!result_.ok) {
        return;
    }
    if (acked > 0) {
        const std::int64_t last = lastSeq(path(), test::kPowerLossVfs);
        if (last < acked) {
            fail(how + ": record " + std::to_string(acked) + " was acknowledged, the journal ends at " +
                 std::to_string(last));
            return;
        }
        if (hashSeq > 0 && recordHash(path(), test::kPowerLossVfs, hashSeq) != hash) {
            fail(how + ": committed record " + std::to_string(hashSeq) + " changed or vanished");
            return;
        }
    }
    checkpoint("after " + how + " and recovery");
}

}  // namespace pitlink::sim
