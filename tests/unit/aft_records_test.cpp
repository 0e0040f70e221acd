// The AFT records (daemon/journal/records/aft_records.h) and the state a start-up resumes from
// them: a pending transfer's end replaces it, a refusal found at once needs no acknowledgement,
// an acknowledged success goes to the history (the newest 127), and the carried JSON reads back.
#include "daemon/journal/records/aft_records.h"

#include <gtest/gtest.h>

#include "daemon/journal/records/sas_records.h"
#include "daemon/journal/records/typed_record.h"

namespace pitlink::journal {
namespace {

AftTransferRecord transfer(const std::string& id, std::uint8_t status, std::int64_t cashable = 0) {
    AftTransferRecord r;
    r.id = id;
    r.asked = {cashable, 0, 0};
    r.status = status;
    if (status == 0x00 || status == 0x01) {
        r.moved = {cashable, 0, 0};
        r.at = "2026-11-27 21:00:00";
    }
    return r;
}

TEST(AftRecords, ThePendingEndAcknowledgementAndRefusalSequenceLeavesTheStateSasNeeds) {
    AftState s;
    s.apply(transfer("A", 0x40, 500));
    EXPECT_FALSE(s.acknowledged);
    s.apply(transfer("A", 0x00, 500));  // its end: still the current one, unacknowledged
    EXPECT_EQ(s.current->status, 0x00);
    EXPECT_FALSE(s.acknowledged);
    EXPECT_TRUE(s.history.empty());
    s.apply(AftAcknowledgedRecord{"B"});  // not the current one: nothing
    EXPECT_FALSE(s.acknowledged);
    s.apply(AftAcknowledgedRecord{"A"});
    EXPECT_TRUE(s.acknowledged);
    ASSERT_EQ(s.history.size(), 1U);
    EXPECT_EQ(s.history[0].id, "A");
    s.apply(AftAcknowledgedRecord{"A"});  // twice: once in the history
    EXPECT_EQ(s.history.size(), 1U);
    s.apply(transfer("C", 0x87));  // refused at once: acknowledged already, not in the history
    EXPECT_TRUE(s.acknowledged);
    EXPECT_EQ(s.current->id, "C");
    s.apply(AftAcknowledgedRecord{"C"});
    EXPECT_EQ(s.history.size(), 1U);
    s.apply(transfer("D", 0x40, 100));
    s.apply(transfer("D", 0x82));  // ended moving nothing: acknowledged, never in the history
    s.apply(AftAcknowledgedRecord{"D"});
    EXPECT_EQ(s.history.size(), 1U);
    for (int i = 0; i < 130; ++i) {
        const std::string id = "H" + std::to_string(i);
        s.apply(transfer(id, 0x40, 1));
        s.apply(transfer(id, 0x00, 1));
        s.apply(AftAcknowledgedRecord{id});
    }
    ASSERT_EQ(s.history.size(), kAftHistoryKept);
    EXPECT_EQ(s.history.front().id, "H3");
    EXPECT_EQ(s.history.back().id, "H129");
}

TEST(AftRecords, BodiesAndTheCarriedStateReadBackAndRefuseWhatDoesNotFit) {
    AftState s;
    AftRegistrationRecord registration;
    registration.status = 0x01;
    registration.asset = 0x1234;
    registration.key[0] = 0xAB;
    registration.key[19] = 0xCD;
    registration.posId = 99;
    s.apply(registration);
    AftTransferRecord t = transfer("T-9", 0x01, 2500);
    t.asked = {9000, 0, 100};
    t.moved = {2500, 0, 100};
    t.type = 0x80;
    t.pool = 7;
    t.expiration = 12312026;
    s.apply(transfer("T-9", 0x40));
    s.apply(t);
    EXPECT_EQ(readBody<AftTransferRecord>(toBody(t)), t);
    EXPECT_EQ(readBody<AftRegistrationRecord>(toBody(registration)), registration);
    EXPECT_EQ(toBody(registration)["key"], "ab" + std::string(36, '0') + "cd");
    EXPECT_EQ(aftStateFromJson(aftStateJson(s)), s);
    CarriedSasState carried;
    carried.aft[3] = s;
    EXPECT_EQ(carriedSasFromJson(carriedSasJson(carried)), carried);
    nlohmann::json bad = toBody(t);
    bad["moved"]["cashable"] = 10'000'000'000;  // more than 5 BCD bytes of cents
    EXPECT_THROW((void)readBody<AftTransferRecord>(bad), nlohmann::json::exception);
    bad = toBody(registration);
    bad["key"] = "abcd";
    EXPECT_THROW((void)readBody<AftRegistrationRecord>(bad), nlohmann::json::exception);
}

TEST(AftRecords, TheHostCashoutModeIsSetByARequestTakenWithFlag01AndReadsBack) {
    AftState s;
    AftTransferRecord r = transfer("M1", 0x40, 100);
    r.flags = 0x02;  // enable without 01 (control): not applied
    s.apply(r);
    EXPECT_EQ(s.hostCashout, 0);
    r = transfer("M2", 0x40, 100);
    r.flags = 0x01 | 0x02 | 0x04 | 0x40;  // control, enabled, hard (and "only if locked": not a mode bit)
    s.apply(r);
    EXPECT_EQ(s.hostCashout, 0x06);
    r = transfer("M2", 0x00, 100);
    r.flags = 0x01;  // the same transfer's end does not set it again
    s.apply(r);
    EXPECT_EQ(s.hostCashout, 0x06);
    r = transfer("M3", 0x87);  // refused at once with 01 and nothing else: the mode stays
    r.flags = 0x01;
    s.apply(r);
    EXPECT_EQ(s.hostCashout, 0x06);
    EXPECT_EQ(aftStateJson(s)["host_cashout"], 6);
    EXPECT_EQ(aftStateFromJson(aftStateJson(s)), s);
    r = transfer("M4", 0x40, 100);
    r.flags = 0x01;  // taken with 01 and no mode bits: off
    s.apply(r);
    EXPECT_EQ(s.hostCashout, 0);
    EXPECT_FALSE(aftStateJson(s).contains("host_cashout"));  // carried states stay as they were
    nlohmann::json bad = aftStateJson(s);
    bad["host_cashout"] = 0x41;
    EXPECT_THROW((void)aftStateFromJson(bad), nlohmann::json::exception);
}

}  // namespace
}  // namespace pitlink::journal
