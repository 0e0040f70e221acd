// A station's AFT (daemon/sas/station_aft.cpp) on a real table and journal whose AFT records
// the test commits when it says so.
// LP 73: a change of the registration is answered, and 6D/6E raised, only once its
// aft.registration record is durable; until then the station keeps quiet on the wire, a read
// answers the registration that is durable, and no other change is taken. The repeat of the
// change gets the state it made (taken afresh a repeated 01 would be out of turn and cancel it).
// A restart keeps every registration the host was answered, and one whose record never became
// durable is as if never asked.
// Host cash-out: a hard offer waits for the host, but not once a re-settlement has taken back
// every credit it offered (soak seed 47554: LP 74 then shows nothing to take, and the cash-out
// was never answered).
// Lock: a transfer taken under the lock holds it until it ends, past the lock's time-out.
// Frames are written by hand, their CRCs by the test's own CRC; figures worked out by hand.
#include "daemon/sas/station_aft.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <utility>
#include <variant>
#include <vector>

#include "daemon/journal/records/record_kinds.h"
#include "daemon/sas/sas_resume.h"
#include "tests/support/polled_station.h"
#include "tests/support/test_crc.h"
#include "tests/unit/table_fixture.h"

namespace pitlink::sas {
namespace {

using game::BetType;
using nlohmann::json;
using table::Respond;

aft::RegistrationKey key(std::uint8_t b) {
    aft::RegistrationKey k{};
    k.fill(b);
    return k;
}

aft::RegistrationRequest request(std::uint8_t code, std::uint32_t asset = 1, std::uint8_t keyByte = 0xA5,
                                 std::uint32_t posId = 7) {
    return aft::RegistrationRequest{code, asset, key(keyByte), posId};
}

aft::RegistrationRequest read() {
    return aft::RegistrationRequest{aft::registration::kRead, std::nullopt, {}, 0};
}

// Station 1 with AFT, asset number 1; its journal records wait for commit().
struct Station {
    Station() : f(table::CardSource::Reader), clock(f.timers) { make(); }
    // A new StationAft, as a start-up makes it from the journal.
    void make() {
        held.clear();
        aft.reset();
        aft = std::make_unique<StationAft>(
            1, aftSettings, *f.table, *f.journal, f.timers, clock,
            [this](std::uint8_t code) { raised.push_back(code); },
            [this](const AftStationRecord& record, std::function<void(bool)> done) {
                held.emplace_back(record, std::move(done));
            },
            [] { return 1U; }, [] { return std::uint16_t{0}; });
        const SasResume resume = resumeSas(*f.store);
        const auto it = resume.aft.find(1);
        aft->restore(it == resume.aft.end() ? journal::AftState{} : it->second);
        aft->start();
        wire.stack.station().setAftHost(aft.get());
    }
    // The journal commits every held record, in order.
    void commit() {
        auto records = std::move(held);
        held.clear();
        for (auto& [record, done] : records) {
            journal::JournalTransaction tx = f.journal->begin();
            std::visit([&](const auto& r) { tx.add(r, std::nullopt, 1); }, record);
            f.journal->submit(std::move(tx), [done = std::move(done)](const journal::CommitResult& result) {
                if (done) {
                    done(result.ok);
                }
            });
        }
    }
    // The status of the answer, or -1 when not answered.
    int status(const aft::RegistrationRequest& r) {
        const auto a = aft->registration(r);
        return a ? a->status : -1;
    }
    std::vector<json> registrations() {
        auto q = f.store->connection().prepare("SELECT body FROM record WHERE kind = ? ORDER BY seq");
        q.bind(1, journal::kind::kAftRegistration);
        std::vector<json> out;
        while (q.step()) {
            out.push_back(json::parse(q.text(0)));
        }
        return out;
    }

    table::TableFixture f;
    TableClock clock;
    AftSettings aftSettings{.enabled = true};
    test::PolledStation wire;
    std::vector<std::uint8_t> raised;
    std::vector<std::pair<AftStationRecord, std::function<void(bool)>>> held;
    std::unique_ptr<StationAft> aft;
};

TEST(StationAftRegistration, AChangeIsAnsweredOnceDurableAndItsRepeatGetsTheStateItMade) {
    Station s;
    // 00 initialise, on the wire: `01 73 1D 00 asset(4) key(20) pos(4) CRC`. Nothing yet.
    std::string keyHex;
    for (int i = 0; i < 20; ++i) {
        keyHex += " A5";
    }
    const std::string initialise = test::withCrc("01 73 1D 00 01 00 00 00" + keyHex + " 07 00 00 00");
    EXPECT_EQ(s.wire.poll(initialise), "(nothing)");
    ASSERT_EQ(s.held.size(), 1U);
    // Meanwhile: a read says what is durable (not registered), another change is not taken.
    EXPECT_EQ(s.status(read()), aft::registration::kNotRegistered);
    EXPECT_EQ(s.status(request(aft::registration::kUnregister)), -1);
    EXPECT_EQ(s.wire.poll(initialise), "(nothing)");
    EXPECT_EQ(s.held.size(), 1U);  // nothing more journaled
    s.commit();
    // The repeat: status 00 (ready), asset 1, the key, POS ID 7.
    EXPECT_EQ(s.wire.poll(initialise), test::withCrc("01 73 1D 00 01 00 00 00" + keyHex + " 07 00 00 00"));

    // 01 register: not answered, then durable; repeated twice (an answer lost), registered both
    // times, where a fresh 01 from registered would cancel.
    EXPECT_EQ(s.status(request(aft::registration::kRegister)), -1);
    EXPECT_EQ(s.status(read()), aft::registration::kReady);
    s.commit();
    EXPECT_EQ(s.status(request(aft::registration::kRegister)), aft::registration::kRegistered);
    EXPECT_EQ(s.status(read()), aft::registration::kRegistered);
    EXPECT_EQ(s.status(request(aft::registration::kRegister)), aft::registration::kRegistered);
    EXPECT_TRUE(s.held.empty());
    EXPECT_TRUE(s.raised.empty());

    // 80 unregister: 6E is raised when it is durable, not before.
    EXPECT_EQ(s.status(request(aft::registration::kUnregister)), -1);
    EXPECT_TRUE(s.raised.empty());
    s.commit();
    EXPECT_EQ(s.raised, std::vector<std::uint8_t>{0x6E});
    EXPECT_EQ(s.status(request(aft::registration::kUnregister)), aft::registration::kNotRegistered);

    const std::vector<json> records = s.registrations();
    ASSERT_EQ(records.size(), 3U);
    EXPECT_EQ(records[0]["status"], 0x00);
    EXPECT_EQ(records[1]["status"], 0x01);
    EXPECT_EQ(records[2]["status"], 0x80);
}

TEST(StationAftRegistration, ARestartKeepsWhatWasAnsweredAndForgetsAChangeNeverDurable) {
    Station s;
    ASSERT_EQ(s.status(request(aft::registration::kInitialize)), -1);
    s.commit();
    ASSERT_EQ(s.status(request(aft::registration::kInitialize)), aft::registration::kReady);
    ASSERT_EQ(s.status(request(aft::registration::kRegister)), -1);
    s.commit();
    ASSERT_EQ(s.status(request(aft::registration::kRegister)), aft::registration::kRegistered);

    // The power goes right after the answer: registered after the restart, its key needed; the
    // host's repeat of its 01 (its answer lost with the power) changes nothing.
    s.make();
    EXPECT_EQ(s.status(read()), aft::registration::kRegistered);
    EXPECT_EQ(s.status(request(aft::registration::kRegister)), aft::registration::kRegistered);
    EXPECT_TRUE(s.held.empty());  // nothing journaled
    EXPECT_TRUE(s.raised.empty());
    EXPECT_TRUE(s.aft->registrationState().registered());
    EXPECT_EQ(s.aft->registrationState().key, key(0xA5));
    EXPECT_EQ(s.aft->registrationState().posId, 7U);

    // A change to another key, cut by the power before its record was durable: never answered,
    // so never made. The host's repeat after the restart is taken afresh: 00 from registered is
    // allowed (ready with the new key) and is answered once durable.
    ASSERT_EQ(s.status(request(aft::registration::kInitialize, 1, 0x3C)), -1);
    s.make();  // the held record is lost with the power
    EXPECT_EQ(s.status(read()), aft::registration::kRegistered);
    EXPECT_EQ(s.aft->registrationState().key, key(0xA5));
    EXPECT_EQ(s.status(request(aft::registration::kInitialize, 1, 0x3C)), -1);
    s.commit();
    EXPECT_EQ(s.status(request(aft::registration::kInitialize, 1, 0x3C)), aft::registration::kReady);
    EXPECT_EQ(s.aft->registrationState().key, key(0x3C));
    EXPECT_EQ(s.registrations().size(), 3U);
}

TEST(StationAftHostCashout, AHardOfferEndsOnceAReSettlementLeavesNothingToTake) {
    Station s;
    s.f.fund(1, 1'000);
    // A transfer in of 1.00 whose flags ask for the station's cash-outs, hard (01 + 02 + 04).
    aft::TransferRequest in;
    in.transactionId = "H1";
    in.amounts = {100, 0, 0};
    in.asset = 1;
    in.flags = 0x07;
    (void)s.aft->transfer(in);
    s.commit();  // its pending record durable: it moves
    const aft::TransferReply reply = s.aft->interrogate(aft::TransferQuery{aft::kInterrogate, 0});
    const auto* done = std::get_if<aft::TransferAnswer>(&reply);
    ASSERT_NE(done, nullptr);
    ASSERT_EQ(done->status, aft::status::kFullTransfer);
    s.aft->interrogationAcknowledged();
    ASSERT_EQ(s.aft->lock(aft::LockRequest{}).hostCashout, 0x07);

    // 11.00 on the Player, who wins with a natural 9 against 6: 22.00 on the credit meter.
    s.f.openReaderRound();
    ASSERT_TRUE(s.f.call([&](Respond r) { s.f.table->placeBet(1, BetType::Player, 1'100, r); }).ok);
    ASSERT_TRUE(s.f.call([&](Respond r) { s.f.table->closeBets(r); }).ok);
    const std::int64_t round = s.f.table->roundId();
    s.f.deal("9S 2H KD 4C");
    ASSERT_EQ(s.f.credits(1), 2'200);

    // The player cashes out: offered to the host, which may take its time (hard mode).
    std::optional<std::optional<game::Money>> ended;
    ASSERT_TRUE(s.aft->offerHostCashout(2'200, [&](std::optional<game::Money> taken) { ended = taken; }));
    s.f.timers.advance(std::chrono::seconds(30));
    s.aft->tick();
    EXPECT_FALSE(ended.has_value());
    EXPECT_EQ(s.aft->lock(aft::LockRequest{}).current.cashable, 2'200U);  // what the host may take

    // The video shows the Banker's 9: the 22.00 paid back is taken back, none left to take.
    ASSERT_TRUE(s.f.call([&](Respond r) {
                       s.f.table->resettle(s.f.round(round), s.f.paytable, test::cards("2S 9H 4D KC"), "video", "alice",
                                           r);
                   })
                    .ok);
    ASSERT_EQ(s.f.credits(1), 0);
    EXPECT_EQ(s.aft->lock(aft::LockRequest{}).current.cashable, 0U);
    s.aft->tick();
    ASSERT_TRUE(ended.has_value());
    EXPECT_FALSE(ended->has_value());  // not taken by the host: the cash-out goes on (and finds nothing)
    EXPECT_EQ(s.aft->statusJson()["host_cashout"]["pending"], false);
}

// Soak seed 71157: a cash-out to the host sent under the lock with flag 40 (accept only if
// locked), 34 ms before the lock's time-out. The time-out ran out while the transfer's pending
// record was being committed, and the transfer then ended 94 (not locked), moving nothing.
TEST(StationAftLock, ATransferTakenUnderTheLockHoldsItUntilItEnds) {
    Station s;
    s.f.fund(1, 1'000);
    const aft::LockRequest lockFor500Ms{aft::lock::kRequest, aft::lock::kConditionFromMachine, 50};
    ASSERT_EQ(s.aft->lock(lockFor500Ms).lockStatus, aft::lock::kLocked);  // idle: locked at once

    aft::TransferRequest out;
    out.transactionId = "L1";
    out.type = aft::type::kInHouseToHost;
    out.amounts = {1'000, 0, 0};
    out.asset = 1;
    out.flags = 0x40;  // accept only if locked
    (void)s.aft->transfer(out);
    s.f.timers.advance(std::chrono::milliseconds(600));  // past the time-out; its record not durable yet
    EXPECT_EQ(s.aft->lock(aft::LockRequest{}).lockStatus, aft::lock::kLocked);
    EXPECT_TRUE(s.f.table->status().stations.at(0).aftLocked);  // no bet moves the balances meanwhile
    // A bet in that moment races the transfer for the same credits: refused, and the transfer
    // moves them all (without the hold the bet was taken and the transfer ended 94, moving none).
    s.f.openReaderRound();
    const auto bet = s.f.call([&](Respond r) { s.f.table->placeBet(1, BetType::Player, 100, r); });
    EXPECT_FALSE(bet.ok);
    EXPECT_EQ(bet.error, "aft_locked");

    s.commit();
    const aft::TransferReply reply = s.aft->interrogate(aft::TransferQuery{aft::kInterrogate, 0});
    const auto* done = std::get_if<aft::TransferAnswer>(&reply);
    ASSERT_NE(done, nullptr);
    EXPECT_EQ(done->status, aft::status::kFullTransfer);
    EXPECT_EQ(done->amounts, (aft::Amounts{1'000, 0, 0}));
    s.aft->interrogationAcknowledged();
    EXPECT_EQ(s.f.credits(1), 0);
    EXPECT_EQ(s.aft->lock(aft::LockRequest{}).lockStatus, aft::lock::kNotLocked);  // its end released it

    // A lock whose time-out runs out with no transfer taken still ends then.
    s.f.fund(1, 500);
    ASSERT_EQ(s.aft->lock(lockFor500Ms).lockStatus, aft::lock::kLocked);
    s.f.timers.advance(std::chrono::milliseconds(600));
    EXPECT_EQ(s.aft->lock(aft::LockRequest{}).lockStatus, aft::lock::kNotLocked);
}

// A transfer taken under the lock whose record cannot be written is never answered; the lock
// it held (its time-out no longer running) is released, not kept for ever.
TEST(StationAftLock, ALockHeldByATransferWhoseRecordFailsIsReleased) {
    Station s;
    s.f.fund(1, 1'000);
    ASSERT_EQ(s.aft->lock({aft::lock::kRequest, aft::lock::kConditionFromMachine, 50}).lockStatus, aft::lock::kLocked);
    aft::TransferRequest out;
    out.transactionId = "F1";
    out.type = aft::type::kInHouseToHost;
    out.amounts = {1'000, 0, 0};
    out.asset = 1;
    out.flags = 0x40;
    (void)s.aft->transfer(out);
    ASSERT_EQ(s.held.size(), 1U);
    auto failed = std::move(s.held);
    s.held.clear();
    failed.front().second(false);  // the journal could not write it
    EXPECT_EQ(s.aft->lock(aft::LockRequest{}).lockStatus, aft::lock::kNotLocked);
    EXPECT_FALSE(s.f.table->status().stations.at(0).aftLocked);
    EXPECT_EQ(s.f.credits(1), 1'000);  // nothing moved
}

}  // namespace
}  // namespace pitlink::sas
