// libFuzzer: any bytes as the escaped line a tty gives (FF 00 b wakeup, FF FF data FF) through
// the PARMRK decoder and the poll framer. Every poll that comes out must be whole: a general
// poll is one byte; a long poll that the framer calls good has a matching CRC or is type R.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "protocols/sas/crc16_kermit.h"
#include "protocols/sas/long_poll_table.h"
#include "protocols/sas/parmrk_decoder.h"
#include "protocols/sas/poll_framer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace pitlink::sas;
    ParmrkDecoder decoder;
    PollFramer framer;
    for (std::size_t i = 0; i < size; ++i) {
        const auto byte = decoder.push(data[i]);
        if (!byte) {
            continue;
        }
        const auto poll = framer.push(*byte);
        if (!poll) {
            continue;
        }
        if (poll->address > 127 || poll->bytes.empty()) {
            std::abort();
        }
        if (poll->kind == PollKind::General && poll->bytes.size() != 1) {
            std::abort();
        }
        if (poll->kind == PollKind::Long) {
            const auto shape = requestShape(poll->command);
            if (!shape || poll->bytes.size() != shape->total(poll->bytes.size() > 2 ? poll->bytes[2] : 0)) {
                std::abort();
            }
            if (poll->bytes.size() > 2 && !crcMatches(poll->bytes)) {
                std::abort();
            }
        }
    }
    return 0;
}
