// LP 72's implied acknowledgement through a whole station (framer, link, SasStation) to an
// AftHost double: only a 72 FF 00 answered with the current transfer's final status is
// acknowledged by the host's next other poll. One answered 40 (pending) is not, even when the
// transfer ends before that poll: the host has not seen how it ended (found by
// fuzz_sas_station_aft). The frames' CRCs are computed here by the test's own CRC-16/KERMIT.
#include <gtest/gtest.h>

#include <cstdio>

#include "protocols/sas/aft_polls.h"
#include "protocols/sas/station_stack.h"
#include "tests/support/hex.h"
#include "tests/support/polled_station.h"
#include "tests/support/test_crc.h"

namespace pitlink::sas::aft {
namespace {

using test::bytes;

using test::withCrc;

// One current transfer whose status the test sets; counts the acknowledgements.
struct Host final : AftHost {
    TransferReply transfer(const TransferRequest& /*request*/) override { return NoAnswerYet{}; }
    TransferReply interrogate(const TransferQuery& /*query*/) override {
        TransferAnswer a;
        a.status = status;
        a.transactionId = "T1";
        return a;
    }
    void interrogationAcknowledged() override { ++acknowledgements; }
    std::optional<RegistrationAnswer> registration(const RegistrationRequest& /*request*/) override {
        return RegistrationAnswer{};
    }
    LockAnswer lock(const LockRequest& /*request*/) override { return {}; }
    std::uint8_t status = status::kPending;
    int acknowledgements = 0;
};

// A whole station whose AFT polls reach `host`.
struct Station : test::PolledStation {
    Station() { stack.station().setAftHost(&host); }
    Host host;
};

TEST(SasStationAft, A72FFAnsweredPendingIsNotAcknowledgedEvenIfTheTransferEndsBeforeTheNextPoll) {
    Station s;
    const std::string ff = withCrc("01 72 02 FF 00");
    EXPECT_NE(s.poll(ff), "(nothing)");     // answered 40
    s.host.status = status::kFullTransfer;  // it ends (its transaction commits) before the next poll
    EXPECT_EQ(s.poll("80"), "(nothing)");
    EXPECT_EQ(s.host.acknowledgements, 0);
    // FE (status only) is never acknowledged; FF answered with the final status is.
    EXPECT_NE(s.poll(withCrc("01 72 02 FE 00")), "(nothing)");
    EXPECT_EQ(s.poll("80"), "(nothing)");
    EXPECT_EQ(s.host.acknowledgements, 0);
    EXPECT_NE(s.poll(ff), "(nothing)");
    EXPECT_EQ(s.poll("80"), "(nothing)");
    EXPECT_EQ(s.host.acknowledgements, 1);
}

}  // namespace
}  // namespace pitlink::sas::aft
