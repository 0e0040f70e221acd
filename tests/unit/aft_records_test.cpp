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

// The end of a transfer in that moved restricted credits (type 00, status 00/01).
AftTransferRecord restrictedIn(const std::string& id, std::uint16_t pool, std::optional<std::string> expires,
                               std::uint32_t expiration = 0, std::string at = "2026-11-27 21:00:00") {
    AftTransferRecord r;
    r.id = id;
    r.asked = {0, 1000, 0};
    r.moved = {0, 1000, 0};
    r.pool = pool;
    r.expiration = expiration;
    r.status = 0x00;
    r.at = std::move(at);
    r.expires = std::move(expires);
    return r;
}

TEST(AftRecords, TheRestrictedPoolAndExpiryComeFromTheEndsOfTransfersInAndOutliveTheHistory) {
    AftState s;
    AftTransferRecord pending = restrictedIn("R1", 3, std::nullopt, 30);
    pending.status = 0x40;
    pending.moved = {};
    pending.at.reset();
    s.apply(pending);
    EXPECT_EQ(s.restricted, std::nullopt);  // taken, nothing moved yet
    s.apply(restrictedIn("R1", 3, "2026-12-27", 30));
    EXPECT_EQ(s.restricted, (AftRestricted{3, "2026-12-27"}));
    // Refused, to the host, or a bonus: none of them brings restricted credits.
    AftTransferRecord refused = restrictedIn("R2", 5, "2027-01-01");
    refused.status = 0x8F;
    refused.moved = {};
    s.apply(refused);
    AftTransferRecord out = restrictedIn("R3", 0, std::nullopt);
    out.type = 0x80;
    s.apply(out);
    EXPECT_EQ(s.restricted, (AftRestricted{3, "2026-12-27"}));
    // An end says what holds after it: the daemon kept the later date, or found none held.
    s.apply(restrictedIn("R4", 3, "2027-01-05", 11'202'026));
    EXPECT_EQ(s.restricted, (AftRestricted{3, "2027-01-05"}));
    s.apply(restrictedIn("R5", 4, std::nullopt, 0));  // never (0 with no LP 7B days)
    EXPECT_EQ(s.restricted, (AftRestricted{4, std::nullopt}));
    s.apply(restrictedIn("R6", 4, "2026-12-01", 12'012'026));
    s.apply(AftAcknowledgedRecord{"R6"});
    for (int i = 0; i < 130; ++i) {
        const std::string id = "H" + std::to_string(i);
        s.apply(transfer(id, 0x40, 1));
        s.apply(transfer(id, 0x00, 1));
        s.apply(AftAcknowledgedRecord{id});
    }
    EXPECT_EQ(s.history.front().id, "H3");
    EXPECT_EQ(s.restricted, (AftRestricted{4, "2026-12-01"}));
    EXPECT_EQ(aftStateJson(s)["restricted"], (nlohmann::json{{"expires", "2026-12-01"}, {"pool", 4}}));
    EXPECT_EQ(aftStateFromJson(aftStateJson(s)), s);
    s.restricted = AftRestricted{9, std::nullopt};
    EXPECT_EQ(aftStateJson(s)["restricted"], (nlohmann::json{{"pool", 9}}));
    EXPECT_EQ(aftStateFromJson(aftStateJson(s)), s);

    // The record's `expires`: written, read back, and only as a real date.
    const AftTransferRecord r = restrictedIn("R7", 2, "2028-02-29");
    EXPECT_EQ(toBody(r)["expires"], "2028-02-29");
    EXPECT_EQ(readBody<AftTransferRecord>(toBody(r)), r);
    EXPECT_FALSE(toBody(restrictedIn("R8", 2, std::nullopt)).contains("expires"));
    for (const char* bad : {"2027-02-29", "2026-13-01", "2026-1-05", "20261105", "2026-11-05 00:00:00"}) {
        nlohmann::json body = toBody(r);
        body["expires"] = bad;
        EXPECT_THROW((void)readBody<AftTransferRecord>(body), nlohmann::json::exception) << bad;
    }
    nlohmann::json carried = aftStateJson(s);
    carried["restricted"]["pool"] = 70'000;
    EXPECT_THROW((void)aftStateFromJson(carried), nlohmann::json::exception);
    carried = aftStateJson(s);
    carried["restricted"]["expires"] = "2026-02-30";
    EXPECT_THROW((void)aftStateFromJson(carried), nlohmann::json::exception);
}

TEST(AftRecords, EndsWrittenBeforeExpiryWasKeptResolveAsThenFromTheirExpirationAndTime) {
    AftState s;
    // 0000NNNN: N days after the end's local date (November 27th + 30: December 27th).
    s.apply(restrictedIn("O1", 3, std::nullopt, 30));
    EXPECT_EQ(s.restricted, (AftRestricted{3, "2026-12-27"}));
    // MMDDYYYY: that date; the later of it and the held one stays (December 31st).
    s.apply(restrictedIn("O2", 3, std::nullopt, 12'312'026));
    EXPECT_EQ(s.restricted, (AftRestricted{3, "2026-12-31"}));
    s.apply(restrictedIn("O3", 3, std::nullopt, 5));  // December 2nd: earlier, the 31st stays
    EXPECT_EQ(s.restricted, (AftRestricted{3, "2026-12-31"}));
    // 0 (LP 7B's days then, which the record does not hold): never, and never stays.
    s.apply(restrictedIn("O4", 3, std::nullopt, 0));
    EXPECT_EQ(s.restricted, (AftRestricted{3, std::nullopt}));
    s.apply(restrictedIn("O5", 3, std::nullopt, 45));
    EXPECT_EQ(s.restricted, (AftRestricted{3, std::nullopt}));
    // Across a year end and a leap day: February 1st 2028 + 28 days is the 29th.
    AftState leap;
    leap.apply(restrictedIn("O6", 1, std::nullopt, 28, "2028-02-01 09:30:00"));
    EXPECT_EQ(leap.restricted, (AftRestricted{1, "2028-02-29"}));

    // A state carried before it was kept: found again in the history and the current transfer.
    AftState old;
    AftTransferRecord in = restrictedIn("T1", 3, std::nullopt, 30);
    old.apply(in);
    old.apply(AftAcknowledgedRecord{"T1"});
    old.apply(restrictedIn("T2", 3, std::nullopt, 12'312'026));  // ended, not acknowledged
    nlohmann::json carried = aftStateJson(old);
    carried.erase("restricted");
    EXPECT_EQ(aftStateFromJson(carried).restricted, (AftRestricted{3, "2026-12-31"}));
    EXPECT_EQ(aftStateFromJson(carried), old);
    // ...and in an acknowledged current transfer, whose answer was kept in the history too.
    carried["history"].clear();
    carried["acknowledged"] = true;
    EXPECT_EQ(aftStateFromJson(carried).restricted, (AftRestricted{3, "2026-12-31"}));
}

}  // namespace
}  // namespace pitlink::journal
