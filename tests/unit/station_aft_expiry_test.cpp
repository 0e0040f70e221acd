// Restricted credits' expiry in a station (daemon/sas/station_aft.cpp), on a real table and
// journal with a manual clock whose local time the test sets through the table clock's offset
// (as LP 7F does): a transfer in resolves its expiration to a date, journaled with its end
// (`expires`); past it the restricted credits not staked are journaled gone (restricted_expired),
// once, a stake in play only when it comes back; the later date stays; 0 with LP 7B's days, 0
// and 0 never; an expiration that is no date or already past is refused 83; and a restart
// resumes the expiry from the journal after 127 later transfers pushed it out of the history.
// LP 74 is read in hex through a whole station. Figures and dates are worked out by hand.
#include <gtest/gtest.h>

#include <memory>
#include <variant>

#include "daemon/journal/records/record_kinds.h"
#include "daemon/sas/sas_resume.h"
#include "daemon/sas/station_aft.h"
#include "tests/support/polled_station.h"
#include "tests/support/test_crc.h"
#include "tests/unit/table_fixture.h"

namespace pitlink::sas {
namespace {

using game::BetType;
using journal::Meter;
using nlohmann::json;
using table::Respond;

table::TableSettings settings() {
    table::TableSettings s;
    s.readerTimeout = std::chrono::milliseconds(0);  // a round may wait for its cards across midnight
    return s;
}

// Station 1 with AFT on a reader table; its local time set to `local` (SAS date and time).
struct Station {
    explicit Station(const SasDateTime& local, const table::TableSettings& base = settings())
        : f(table::CardSource::Reader, base), clock(f.timers) {
        setLocal(local);
        f.fund(1, 1'000);  // cashable
        make();
    }
    // The station's clock moved to `local`, as LP 7F moves it (and the floor's tick that follows).
    void setLocal(const SasDateTime& local) {
        clock.setOffsetMs(*clock.offsetFor(local, std::chrono::hours(24 * 3650)));
        if (aft) {
            aft->tick();
        }
    }
    // A new StationAft, as a start-up makes it: restored from `resume`, then started.
    void make(const journal::AftState& resume = {}) {
        aft.reset();
        aft = std::make_unique<StationAft>(
            1, aftSettings, *f.table, *f.journal, f.timers, clock,
            [this](std::uint8_t code) { raised.push_back(code); },
            [this](const AftStationRecord& record, std::function<void(bool)> done) {
                journal::JournalTransaction tx = f.journal->begin();
                std::visit([&](const auto& r) { tx.add(r, std::nullopt, 1); }, record);
                f.journal->submit(std::move(tx), [done = std::move(done)](const journal::CommitResult& result) {
                    if (done) {
                        done(result.ok);
                    }
                });
            },
            [] { return 1U; }, [this] { return wire.table.setup.restrictedExpirationDays; });
        aft->restore(resume);
        aft->start();
        wire.stack.station().setAftHost(aft.get());
    }
    // An LP 72 in house to the station, taken, interrogated and acknowledged: its final status.
    std::uint8_t transferIn(const std::string& id, std::uint64_t cashable, std::uint64_t restricted,
                            std::uint32_t expiration, std::uint16_t pool) {
        aft::TransferRequest r;
        r.transactionId = id;
        r.amounts = {cashable, restricted, 0};
        r.asset = 1;
        r.expiration = expiration;
        r.poolId = pool;
        (void)aft->transfer(r);
        const aft::TransferReply reply = aft->interrogate(aft::TransferQuery{aft::kInterrogate, 0});
        aft->interrogationAcknowledged();
        const auto* answer = std::get_if<aft::TransferAnswer>(&reply);
        return answer == nullptr ? 0xFF : answer->status;
    }
    // LP 74 interrogated over the line: restricted (5 BCD cents), expiration (4 BCD), pool (2, LSB
    // first), from its answer `01 74 23 asset(4) lock available host-cash-out aft-status 7F
    // cashable restricted non-restricted limit expiration pool CRC`.
    std::string lp74RestrictedExpirationPool() {
        const std::string answer = wire.poll(test::withCrc("01 74 FF 00 00 00"));
        if (answer == "(nothing)") {
            return answer;
        }
        const std::vector<std::uint8_t> b = test::bytes(answer);
        if (b.size() != 40) {
            return "answer " + answer;
        }
        return test::hex(std::span(b).subspan(17, 5)) + " | " + test::hex(std::span(b).subspan(32, 4)) + " | " +
               test::hex(std::span(b).subspan(36, 2));
    }
    std::vector<json> bodies(std::string_view kind, const char* where = "1") {
        auto q = f.store->connection().prepare(std::string("SELECT body FROM record WHERE kind = ? AND ") + where +
                                               " ORDER BY seq");
        q.bind(1, kind);
        std::vector<json> out;
        while (q.step()) {
            out.push_back(json::parse(q.text(0)));
        }
        return out;
    }
    std::vector<json> expiries() {
        return bodies(journal::kind::kCredit, "json_extract(body, '$.reason') = 'restricted_expired'");
    }
    journal::StationAccount account() const { return f.journal->committed().station(1); }

    table::TableFixture f;
    TableClock clock;
    AftSettings aftSettings{.enabled = true};
    test::PolledStation wire;
    std::vector<std::uint8_t> raised;
    std::unique_ptr<StationAft> aft;
};

TEST(StationAftExpiry, PastMidnightTheUnstakedRestrictedCreditsGoOnceAndAStakeWhenItComesBack) {
    Station s(SasDateTime{2026, 11, 18, 23, 58, 30});
    // 5.00 restricted of pool 7 expiring today (11182026): they may be played until midnight.
    EXPECT_EQ(s.transferIn("R1", 0, 500, 11'182'026, 7), aft::status::kFullTransfer);
    const std::vector<json> ends = s.bodies(journal::kind::kAftTransfer, "json_extract(body, '$.status') = 0");
    ASSERT_EQ(ends.size(), 1U);
    EXPECT_EQ(ends[0]["expires"], "2026-11-18");
    EXPECT_EQ(s.bodies(journal::kind::kAftTransfer, "json_extract(body, '$.status') = 64")[0].contains("expires"),
              false);  // the pending record: its end says it
    EXPECT_EQ(s.lp74RestrictedExpirationPool(), "00 00 00 05 00 | 11 18 20 26 | 07 00");

    // 2.00 of them staked on the banker of a round dealt after midnight.
    s.f.openReaderRound();
    ASSERT_TRUE(s.f.call([&](Respond r) { s.f.table->placeBet(1, BetType::Banker, 200, r); }).ok);
    ASSERT_TRUE(s.f.call([&](Respond r) { s.f.table->closeBets(r); }).ok);
    EXPECT_EQ(s.account().promo.held.restricted, 300);

    s.f.timers.advance(std::chrono::seconds(60));  // 23:59:30: still the 18th
    EXPECT_TRUE(s.expiries().empty());
    s.f.timers.advance(std::chrono::seconds(60));  // 00:00:30 on the 19th: the 3.00 not staked go
    std::vector<json> gone = s.expiries();
    ASSERT_EQ(gone.size(), 1U);
    EXPECT_EQ(gone[0], (json{{"amount", -300},
                             {"balance", 1'000},
                             {"reason", "restricted_expired"},
                             {"ref", "pool 7 expired 2026-11-18"},
                             {"restricted", -300}}));
    EXPECT_EQ(s.f.events.back()["event"], "credits");
    EXPECT_EQ(s.f.events.back()["credits"], 1'000);
    EXPECT_FALSE(s.f.events.back().contains("restricted"));
    EXPECT_EQ(s.account().promo.held.restricted, 0);
    EXPECT_EQ(s.account().promo.staked().restricted, 200);  // in play: still restricted (001B)
    EXPECT_EQ(s.account().meters[Meter::RestrictedExpired], 300);
    // LP 74: no restricted credits can move, so no expiration and no pool.
    EXPECT_EQ(s.lp74RestrictedExpirationPool(), "00 00 00 00 00 | 00 00 00 00 | 00 00");
    s.f.timers.advance(std::chrono::minutes(5));  // more checks: nothing more to expire
    EXPECT_EQ(s.expiries().size(), 1U);

    // A natural tie: the banker's stake comes back, restricted; the next check takes it too.
    s.f.deal("9S 9H TC TD");
    EXPECT_EQ(s.account().promo.held.restricted, 200);
    EXPECT_EQ(s.account().credits, 1'200);
    s.f.timers.advance(std::chrono::seconds(60));
    gone = s.expiries();
    ASSERT_EQ(gone.size(), 2U);
    EXPECT_EQ(gone[1]["amount"], -200);
    EXPECT_EQ(gone[1]["restricted"], -200);
    EXPECT_EQ(s.account().credits, 1'000);
    EXPECT_EQ(s.account().cashable(), 1'000);  // the cashable credits untouched
    EXPECT_EQ(s.account().meters[Meter::RestrictedExpired], 500);
    // None left: the pool is free again, and another pool's credits are taken (no 8F).
    EXPECT_EQ(s.transferIn("R2", 0, 100, 30, 9), aft::status::kFullTransfer);
    EXPECT_EQ(s.lp74RestrictedExpirationPool(), "00 00 00 01 00 | 12 19 20 26 | 09 00");  // 19th + 30 days
}

TEST(StationAftExpiry, TheLaterDateStaysLP7BDaysStandInForZeroAndZeroDaysNeverExpire) {
    Station s(SasDateTime{2026, 11, 18, 12, 0, 0});
    // 0 with LP 7B's 3 days: the 21st.
    s.wire.table.setup.restrictedExpirationDays = 3;
    EXPECT_EQ(s.transferIn("D1", 0, 100, 0, 2), aft::status::kFullTransfer);
    EXPECT_EQ(s.lp74RestrictedExpirationPool(), "00 00 00 01 00 | 11 21 20 26 | 02 00");
    // More of them with an earlier date (the 20th): the 21st stays.
    EXPECT_EQ(s.transferIn("D2", 0, 100, 11'202'026, 2), aft::status::kFullTransfer);
    EXPECT_EQ(s.lp74RestrictedExpirationPool(), "00 00 00 02 00 | 11 21 20 26 | 02 00");
    EXPECT_EQ(s.bodies(journal::kind::kAftTransfer, "json_extract(body, '$.id') = 'D2'").back()["expires"],
              "2026-11-21");
    // A later one (10 days: the 28th) moves it on.
    EXPECT_EQ(s.transferIn("D3", 0, 100, 10, 2), aft::status::kFullTransfer);
    EXPECT_EQ(s.lp74RestrictedExpirationPool(), "00 00 00 03 00 | 11 28 20 26 | 02 00");
    // The clock moved (LP 7F) to the 28th late, then to the 29th: gone at once, not a minute later.
    s.setLocal(SasDateTime{2026, 11, 28, 23, 59, 59});
    EXPECT_TRUE(s.expiries().empty());
    s.setLocal(SasDateTime{2026, 11, 29, 0, 0, 1});
    ASSERT_EQ(s.expiries().size(), 1U);
    EXPECT_EQ(s.expiries()[0]["amount"], -300);

    // 0 with no LP 7B days: never; more with a date then: still never (the later of the two).
    s.wire.table.setup.restrictedExpirationDays = 0;
    EXPECT_EQ(s.transferIn("N1", 0, 100, 0, 4), aft::status::kFullTransfer);
    EXPECT_EQ(s.lp74RestrictedExpirationPool(), "00 00 00 01 00 | 00 00 00 00 | 04 00");
    EXPECT_FALSE(s.bodies(journal::kind::kAftTransfer, "json_extract(body, '$.id') = 'N1'").back().contains("expires"));
    EXPECT_EQ(s.transferIn("N2", 0, 100, 12'012'026, 4), aft::status::kFullTransfer);
    EXPECT_EQ(s.lp74RestrictedExpirationPool(), "00 00 00 02 00 | 00 00 00 00 | 04 00");
    s.setLocal(SasDateTime{2027, 6, 1, 9, 0, 0});
    s.f.timers.advance(std::chrono::minutes(2));
    EXPECT_EQ(s.expiries().size(), 1U);  // nothing more
    EXPECT_EQ(s.account().promo.held.restricted, 200);
}

TEST(StationAftExpiry, AnExpirationThatIsNoDateOrAlreadyPastIsRefused83MovingNothing) {
    Station s(SasDateTime{2028, 2, 28, 10, 0, 0});
    EXPECT_EQ(s.transferIn("P1", 0, 100, 2'272'028, 1), aft::status::kNotValidAmount);  // yesterday
    EXPECT_EQ(s.transferIn("P2", 0, 100, 2'302'028, 1), aft::status::kNotValidAmount);  // 02302028
    EXPECT_EQ(s.transferIn("P3", 500, 0, 2'302'028, 1), aft::status::kFullTransfer);    // nothing restricted
    EXPECT_EQ(s.transferIn("P4", 0, 100, 2'292'028, 1), aft::status::kFullTransfer);    // a leap day: tomorrow
    EXPECT_EQ(s.lp74RestrictedExpirationPool(), "00 00 00 01 00 | 02 29 20 28 | 01 00");
    const std::vector<json> refused = s.bodies(journal::kind::kAftTransfer, "json_extract(body, '$.status') = 131");
    ASSERT_EQ(refused.size(), 2U);  // refused at once: one record each, nothing moved
    EXPECT_EQ(refused[0]["moved"], (json{{"cashable", 0}, {"nonrestricted", 0}, {"restricted", 0}}));
    EXPECT_EQ(s.account().credits, 1'000 + 500 + 100);
}

TEST(StationAftExpiry, ARestartResumesTheExpiryAfter127LaterTransfersLeftTheHistory) {
    Station s(SasDateTime{2026, 11, 18, 23, 50, 0});
    EXPECT_EQ(s.transferIn("R1", 0, 500, 11'182'026, 7), aft::status::kFullTransfer);
    for (int i = 0; i < 130; ++i) {
        ASSERT_EQ(s.transferIn("C" + std::to_string(i), 100, 0, 0, 0), aft::status::kFullTransfer);
    }
    // The journal as a start-up reads it (and as a new segment carries it).
    const SasResume resume = resumeSas(*s.f.store);
    const journal::AftState& state = resume.aft.at(1);
    ASSERT_EQ(state.history.size(), journal::kAftHistoryKept);
    EXPECT_EQ(state.history.front().id, "C3");  // R1 is long gone from it
    EXPECT_EQ(state.restricted, (journal::AftRestricted{7, "2026-11-18"}));
    EXPECT_EQ(sasResumeFromJson(sasResumeJson(resume)).aft.at(1).restricted, state.restricted);

    s.make(state);  // restarted
    EXPECT_EQ(s.lp74RestrictedExpirationPool(), "00 00 00 05 00 | 11 18 20 26 | 07 00");
    EXPECT_EQ(s.transferIn("R2", 0, 100, 30, 8), aft::status::kOtherPool);  // pool 7's are held
    s.f.timers.advance(std::chrono::minutes(11));                           // past midnight
    ASSERT_EQ(s.expiries().size(), 1U);
    EXPECT_EQ(s.expiries()[0]["amount"], -500);
    EXPECT_EQ(s.account().credits, 1'000 + 130 * 100);

    // A restart after they expired: none held, so nothing to resume; and nothing expires twice.
    s.make(resumeSas(*s.f.store).aft.at(1));
    EXPECT_EQ(s.lp74RestrictedExpirationPool(), "00 00 00 00 00 | 00 00 00 00 | 00 00");
    s.f.timers.advance(std::chrono::minutes(2));
    EXPECT_EQ(s.expiries().size(), 1U);
}

TEST(StationAftExpiry, CreditsThatExpiredWhilePitlinkdWasDownGoAtStartButNotWhileAHandpayIsPending) {
    table::TableSettings limits = settings();
    limits.jackpotLimit = 900;  // a win of 950 is hand-paid
    Station s(SasDateTime{2026, 11, 18, 22, 0, 0}, limits);
    EXPECT_EQ(s.transferIn("R1", 0, 400, 11'182'026, 3), aft::status::kFullTransfer);
    s.setLocal(SasDateTime{2026, 11, 20, 8, 0, 0});  // a moved clock is checked at the next tick...
    ASSERT_EQ(s.expiries().size(), 1U);
    EXPECT_EQ(s.transferIn("R2", 0, 400, 11'202'026, 3), aft::status::kFullTransfer);  // today: the 20th
    // ...and a start-up checks at once (the 21st, while it was down).
    s.clock.setOffsetMs(*s.clock.offsetFor(SasDateTime{2026, 11, 21, 8, 0, 0}, std::chrono::hours(24 * 3650)));
    s.make(resumeSas(*s.f.store).aft.at(1));
    ASSERT_EQ(s.expiries().size(), 2U);
    EXPECT_EQ(s.expiries()[1]["ref"], "pool 3 expired 2026-11-20");

    // A cashable stake in play, restricted credits in meanwhile; the win is a jackpot hand-pay.
    s.f.openReaderRound();
    ASSERT_TRUE(s.f.call([&](Respond r) { s.f.table->placeBet(1, BetType::Banker, 1'000, r); }).ok);
    ASSERT_TRUE(s.f.call([&](Respond r) { s.f.table->closeBets(r); }).ok);
    EXPECT_EQ(s.transferIn("R3", 0, 400, 11'212'026, 3), aft::status::kFullTransfer);
    s.f.deal("2S 9H 4D KC");  // the banker wins 950
    ASSERT_TRUE(s.f.table->wallet(1).handpay.has_value());
    s.setLocal(SasDateTime{2026, 11, 22, 8, 0, 0});
    s.f.timers.advance(std::chrono::minutes(3));
    EXPECT_EQ(s.expiries().size(), 2U);  // held while the hand-pay is pending
    ASSERT_TRUE(s.f.call([&](Respond r) { s.f.table->resetHandpay(1, "alice", r); }).ok);
    s.f.timers.advance(std::chrono::seconds(60));
    ASSERT_EQ(s.expiries().size(), 3U);
    EXPECT_EQ(s.expiries()[2]["amount"], -400);
}

}  // namespace
}  // namespace pitlink::sas
