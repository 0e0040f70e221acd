// libFuzzer: the whole station link over a test channel. Bytes are the escaped line (as
// fuzz_sas_framer) and every input byte advances a manual clock by its low 4 bits x 100 ms
// when it is a data 0x7E (so the loop break, chirps and the 30 s no-ACK limit are reached).
// The link may answer only a synchronised poll to its own address, never a broadcast, and a
// resend must repeat the previous answer byte for byte.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "protocols/sas/exception_queue.h"
#include "protocols/sas/parmrk_decoder.h"
#include "protocols/sas/poll_framer.h"
#include "protocols/sas/station_link.h"
#include "tests/support/recording_link_output.h"

namespace {

using namespace pitlink::sas;

struct Station : StationProtocol {
    std::vector<std::uint8_t> generalPoll() override {
        reported = queue.next();
        return {reported ? reported->code : std::uint8_t{0}};
    }
    std::optional<std::vector<std::uint8_t>> longPoll(const Poll& poll) override {
        if (poll.command % 3 == 0) {
            return std::nullopt;  // unsupported
        }
        return std::vector<std::uint8_t>{poll.address, poll.command, static_cast<std::uint8_t>(++answers)};
    }
    void acknowledged() override {
        if (reported) {
            queue.acknowledge(*reported);
            reported.reset();
        }
    }
    ExceptionQueue queue;
    std::optional<SasException> reported;
    std::uint8_t answers = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Station station;
    pitlink::test::RecordingLinkOutput out;
    out.keepHex = false;
    std::int64_t now = 0;
    StationLink link(1, station, out, now);
    ParmrkDecoder decoder;
    PollFramer framer;
    for (std::size_t i = 0; i < size; ++i) {
        station.queue.raise(static_cast<std::uint8_t>(0x11 + (i % 7)));
        const auto byte = decoder.push(data[i]);
        if (!byte) {
            continue;
        }
        if (!byte->wakeup && byte->value == 0x7E) {
            now += std::int64_t{data[i] & 0x0F} * 100;
            link.tick(now);
            continue;
        }
        const auto poll = framer.push(*byte);
        if (!poll) {
            continue;
        }
        const int before = out.sends;
        const std::vector<std::uint8_t> previous = out.last;
        const bool wasUp = link.up();
        const auto resends = link.stats().resends;
        link.onPoll(*poll, now);
        if (out.sends != before) {
            if (poll->address != 1 || poll->kind == PollKind::BadCrc) {
                std::abort();  // answered a broadcast, another station's poll or a bad CRC
            }
            if (!wasUp && !link.up()) {
                std::abort();  // answered without being synchronised
            }
            if (link.stats().resends != resends && out.last != previous) {
                std::abort();  // a resend that differs from the answer it repeats
            }
        }
    }
    return 0;
}
