// pitlinkd's SAS side without a port: which exceptions a transaction's facts raise (with the
// 7E/7F event data), how a station's queue is replayed from the journal at start, and the gap
// mode's idea of a wakeup byte.
#include <gtest/gtest.h>

#include "daemon/journal/records/body_fields.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/resume_facts.h"
#include "daemon/journal/store_sink.h"
#include "daemon/sas/exception_events.h"
#include "daemon/sas/sas_resume.h"
#include "protocols/sas/wire_decoder.h"
#include "tests/unit/journal_fixture.h"

namespace pitlink::sas {
namespace {

using nlohmann::json;
namespace kind = journal::kind;

journal::Fact fact(std::string_view k, std::optional<std::int64_t> station, json body) {
    return journal::Fact{std::string(k), std::nullopt, station, std::move(body)};
}

TEST(SasExceptionEvents, BetsClosedStartEachStationsGameAndItsSettlementEndsIt) {
    journal::Ledger before;  // station 2 has wagered 1,000 minor units before
    before.apply(kind::kCredit, 2, json{{"amount", 5'000}, {"balance", 5'000}, {"reason", "ticket_in"}});
    before.apply(kind::kCredit, 2,
                 json{{"amount", 0}, {"balance", 5'000}, {"reason", "settlement"}, {"wagered", 1'000}});
    // Denomination 10: credits are tenths of the minor units; station 3 has no SAS link.
    const std::vector<journal::Fact> closed{
        fact(kind::kRoundClosed, std::nullopt, json{{"wagered", {{"2", 1'000}, {"3", 200}}}})};
    auto raised = exceptionsOf(closed, before, 10, {1, 2});
    ASSERT_EQ(raised.size(), 1U);
    // 7E: 100 credits wagered (2 BCD), coin in 200 credits with it (4 BCD), wager type, group.
    EXPECT_EQ(raised[0], (RaisedException{2, code::kGameStarted, {0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00}}));
    const std::vector<journal::Fact> settled{
        fact(kind::kCredit, 2,
             json{{"amount", 1'950}, {"balance", 6'950}, {"reason", "settlement"}, {"wagered", 1'000}}),
        fact(kind::kCredit, 3, json{{"amount", 0}, {"balance", 0}, {"reason", "settlement"}, {"wagered", 200}}),
    };
    raised = exceptionsOf(settled, before, 10, {1, 2});
    ASSERT_EQ(raised.size(), 1U);
    EXPECT_EQ(raised[0], (RaisedException{2, code::kGameEnded, {0x00, 0x00, 0x01, 0x95}}));  // 195 credits back
}

// Two games: 7E and 7F carry no game number, so each follows the 8C naming its game whenever the
// host was last told of another; 7E's coin in is that game's.
TEST(SasExceptionEvents, AGameOtherThanTheSelectedOneRaises8CBeforeIts7EAnd7F) {
    journal::Ledger before;  // station 1 has played 700 in game "b" (and 300 in "a") before
    before.apply(kind::kCredit, 1, json{{"amount", 5'000}, {"balance", 5'000}, {"reason", "ticket_in"}});
    before.apply(kind::kCredit, 1,
                 json{{"amount", 0}, {"balance", 5'000}, {"reason", "settlement"}, {"wagered", 300}, {"game", "a"}});
    before.apply(kind::kCredit, 1,
                 json{{"amount", 0}, {"balance", 5'000}, {"reason", "settlement"}, {"wagered", 700}, {"game", "b"}});
    GameSelection games{{"a", "b"}, {}};
    const auto closedIn = [](const std::string& game, std::int64_t wagered) {
        return std::vector<journal::Fact>{
            fact(kind::kRoundClosed, std::nullopt, json{{"wagered", {{"1", wagered}}}, {"game", game}})};
    };
    // Game 2 ("b"): 8C 0002, then 7E with 100 wagered and b's coin in 800.
    EXPECT_EQ(
        exceptionsOf(closedIn("b", 100), before, 1, {1}, games),
        (std::vector<RaisedException>{{1, code::kGameSelected, {0x00, 0x02}},
                                      {1, code::kGameStarted, {0x01, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00}}}));
    EXPECT_EQ(games.selectedAt(1), 2);
    // Game 1 ("a") closes while b's round is still dealt: 8C 0001, 7E with a's coin in 300 + 50.
    EXPECT_EQ(
        exceptionsOf(closedIn("a", 50), before, 1, {1}, games),
        (std::vector<RaisedException>{{1, code::kGameSelected, {0x00, 0x01}},
                                      {1, code::kGameStarted, {0x00, 0x50, 0x00, 0x00, 0x03, 0x50, 0x00, 0x00}}}));
    // b's round settles: 8C 0002 again before its 7F; a's then 8C 0001 before its own.
    const auto settledIn = [](const std::string& game, std::int64_t paid, std::int64_t wagered) {
        return std::vector<journal::Fact>{fact(kind::kCredit, 1,
                                               json{{"amount", paid},
                                                    {"balance", 5'000 + paid},
                                                    {"reason", "settlement"},
                                                    {"wagered", wagered},
                                                    {"game", game}})};
    };
    EXPECT_EQ(exceptionsOf(settledIn("b", 200, 100), before, 1, {1}, games),
              (std::vector<RaisedException>{{1, code::kGameSelected, {0x00, 0x02}},
                                            {1, code::kGameEnded, {0x00, 0x00, 0x02, 0x00}}}));
    EXPECT_EQ(exceptionsOf(settledIn("a", 0, 50), before, 1, {1}, games),
              (std::vector<RaisedException>{{1, code::kGameSelected, {0x00, 0x01}},
                                            {1, code::kGameEnded, {0x00, 0x00, 0x00, 0x00}}}));
    // The same game again: no 8C. A station without a SAS link: nothing at all.
    EXPECT_EQ(exceptionsOf(closedIn("a", 50), before, 1, {1}, games).size(), 1U);
    EXPECT_TRUE(exceptionsOf(closedIn("b", 50), before, 1, {2}, games).empty());
}

TEST(SasExceptionEvents, TiltsOptionChangesAndTipsAreReported) {
    const std::vector<journal::Fact> facts{
        fact(kind::kTiltRaised, std::nullopt, json{{"cause", "modbus"}, {"message", "module silent"}}),
        fact(kind::kTiltCleared, std::nullopt, json{{"cause", "modbus"}, {"by", "modbus"}}),  // no SAS code
        fact(kind::kConfigLoaded, std::nullopt, json{{"applied", json::array()}, {"trigger", "SIGHUP"}}),
        fact(kind::kConfigLoaded, std::nullopt, json{{"applied", {"bets"}}, {"trigger", "SIGHUP"}}),
        fact(kind::kTip, 2, json{{"amount", 100}}),
    };
    std::vector<std::pair<std::int64_t, std::uint8_t>> got;
    for (const RaisedException& r : exceptionsOf(facts, journal::Ledger{}, 1, {1, 2})) {
        got.emplace_back(r.station, r.code);
    }
    const std::vector<std::pair<std::int64_t, std::uint8_t>> expected{
        {1, 0x20}, {2, 0x20}, {1, 0x3C}, {2, 0x3C}, {2, 0x5F}};
    EXPECT_EQ(got, expected);
}

TEST(SasExceptionEvents, AVoidAfterBetsClosedEndsTheGamesItStartedAndOneBeforeDoesNot) {
    const auto voidOf = [](bool afterClose) {
        return std::vector<journal::Fact>{
            fact(kind::kRoundVoided, std::nullopt, json{{"reason", "misdeal"}, {"after_close", afterClose}}),
            fact(kind::kCredit, 1, json{{"amount", 300}, {"balance", 300}, {"reason", "bet_return"}})};
    };
    EXPECT_EQ(exceptionsOf(voidOf(true), journal::Ledger{}, 1, {1}),
              (std::vector<RaisedException>{{1, code::kGameEnded, {0x00, 0x00, 0x00, 0x00}}}));
    EXPECT_TRUE(exceptionsOf(voidOf(false), journal::Ledger{}, 1, {1}).empty());
}

TEST(SasExceptionEvents, TableFactsReachEveryLinkedStationAndStationFactsTheirOwn) {
    const std::vector<journal::Fact> facts{
        fact(kind::kDoorOpened, std::nullopt, json{{"door", "main"}}),
        fact(kind::kHandpayPending, 1, json{{"amount", 900}, {"kind", "cancelled_credit"}}),
        fact(kind::kTicketIssued, 2, json{{"validation", "1"}, {"amount", 5}}),
        fact(kind::kTicketRedeemed, 2, json{{"validation", "2"}, {"amount", 5}}),  // local: no 68
        fact(kind::kTicketRedeemed, 1, json{{"validation", "3"}, {"amount", 5}, {"host", true}}),
        fact(kind::kAttendantCalled, 2, json::object()),
    };
    std::vector<std::pair<std::int64_t, std::uint8_t>> got;
    for (const RaisedException& r : exceptionsOf(facts, journal::Ledger{}, 1, {1, 2})) {
        got.emplace_back(r.station, r.code);
    }
    const std::vector<std::pair<std::int64_t, std::uint8_t>> expected{{1, 0x11}, {2, 0x11}, {1, 0x66}, {1, 0x51},
                                                                      {2, 0x66}, {2, 0x3D}, {1, 0x68}, {2, 0x71}};
    EXPECT_EQ(got, expected);
}

TEST(SasResume, QueuesAreReplayedFromTheLastSnapshotWithRaisesAndAcknowledgements) {
    test::JournalFixture f;
    const auto add = [&](std::string_view k, std::int64_t station, json body) {
        journal::JournalTransaction tx = f.journal->begin();  // committed at once (StoreSink)
        tx.add(k, std::nullopt, station, std::move(body));
        f.journal->submit(std::move(tx));
    };
    const auto e = [](std::uint8_t c, std::uint64_t serial) { return exceptionJson(SasException{c, {}, serial}); };
    add(kind::kSasException, 1, e(0x11, 1));  // before the snapshot: superseded
    add(kind::kSasQueue, 1, json{{"pending", json::array({e(0x12, 2), e(0x71, 3)})}});
    add(kind::kSasException, 1, exceptionJson(SasException{0x7F, {0x00, 0x00, 0x01, 0x95}, 4}));
    add(kind::kSasAcked, 1, json{{"acked", json::array({e(0x12, 2)})}});
    add(kind::kSasException, 2, e(0x17, 1));
    add(kind::kSasValidationId, 2, json{{"machine_id", 0x654321}, {"sequence", 0}});
    add(kind::kTicketIssued, 2, json{{"validation", "x"}, {"amount", 5}, {"machine_id", 0x654321}, {"sequence", 7}});
    add(kind::kClockSet, 1, json{{"from_ms", 1}, {"to_ms", 2}, {"offset_ms", -4'000}});
    add(kind::kSasTicketSetup, 1, json{{"location", "PIT 9"}, {"status_bits", 3}});
    add(kind::kTicketIssued, 1, json{{"validation", "a"}, {"amount", 5}});
    add(kind::kTicketIssued, 1, json{{"validation", "b"}, {"amount", 6}});
    add(kind::kSasRecordRead, 1, json{{"validation", "a"}});
    add(kind::kTicketIssued, 1, json{{"validation", "c"}, {"amount", 7}});
    add(kind::kSasHostEnabled, 1, json{{"enabled", false}});
    add(kind::kSasHostEnabled, 2, json{{"enabled", false}});
    add(kind::kSasHostEnabled, 2, json{{"enabled", true}});

    const SasResume resume = resumeSas(*f.store);
    ASSERT_EQ(resume.exceptions.at(1).size(), 2U);
    EXPECT_EQ(resume.exceptions.at(1)[0].code, 0x71);
    EXPECT_EQ(resume.exceptions.at(1)[1], (SasException{0x7F, {0x00, 0x00, 0x01, 0x95}, 4}));
    ASSERT_EQ(resume.exceptions.at(2).size(), 1U);
    EXPECT_EQ(resume.exceptions.at(2)[0].code, 0x17);
    EXPECT_EQ(resume.validation.at(2).machineId, 0x654321U);
    EXPECT_EQ(resume.validation.at(2).sequence, 7U);  // the last ticket's, after the LP 4C
    EXPECT_EQ(journal::resumeFacts(*f.store).clockOffsetMs, -4'000);
    EXPECT_EQ(resume.hostEnabled, (std::map<std::int64_t, bool>{{1, false}, {2, true}}));  // the last word
    ASSERT_EQ(resume.issued.at(1).size(), 3U);
    EXPECT_EQ(resume.issued.at(1).back().first.validation, "c");
    EXPECT_EQ(resume.issued.at(1).back().second, f.clockMs);  // when it was journaled
    EXPECT_EQ(resume.unreadRecords.at(1), 2U);                // b and c: a was read
    const TicketSetup setup = ticketSetupOf(resume.ticketSetup.at(1), TicketSetup{});
    EXPECT_EQ(setup.location, "PIT 9");
    EXPECT_EQ(setup.statusBits, 3U);
}

TEST(SasResume, AnAcknowledgedOverflowLeavesEvenWithTheReplaysOwnSerial) {
    test::JournalFixture f;
    journal::JournalTransaction tx = f.journal->begin();
    for (int i = 1; i <= 21; ++i) {  // one more than the FIFO holds: 70
        tx.add(kind::kSasException, std::nullopt, 1,
               exceptionJson(SasException{0x11, {}, static_cast<std::uint64_t>(i)}));
    }
    // The host took the 70, which the live queue had numbered differently from the replay (22).
    tx.add(kind::kSasAcked, std::nullopt, 1, json{{"acked", json::array({exceptionJson(SasException{0x70, {}, 99})})}});
    f.journal->submit(std::move(tx));
    const SasResume resume = resumeSas(*f.store);
    ASSERT_EQ(resume.exceptions.at(1).size(), 20U);
    EXPECT_EQ(resume.exceptions.at(1).front().serial, 2U);  // the oldest was dropped, no 70 left
}

TEST(SasResume, ABodyWhoseFieldsDoNotFitLosesItsEntryOnly) {
    test::JournalFixture f;
    std::vector<journal::PendingRecord> records;
    const auto add = [&](std::string_view k, std::int64_t station, std::string body) {
        records.push_back(journal::PendingRecord{f.clockMs, std::string(k), std::nullopt, station, std::move(body)});
    };
    add(kind::kSasException, 1, R"({"code":17,"serial":1})");
    add(kind::kSasException, 1, R"({"code":18,"serial":2,"data":"zz"})");  // std::stoul threw past the catch
    add(kind::kSasException, 1, R"({"code":300,"serial":3})");
    add(kind::kSasException, 1, R"({"code":19,"serial":1e107})");
    add(kind::kSasValidationId, 1, R"({"machine_id":1193046,"sequence":5})");
    add(kind::kSasValidationId, 2, R"({"machine_id":1e107,"sequence":5})");
    add(kind::kSasValidationId, 3, R"({"machine_id":4294967296,"sequence":5})");
    add(kind::kTicketIssued, 1, R"({"validation":"a","amount":5})");
    add(kind::kTicketIssued, 1, R"({"validation":"b","amount":1e107})");
    add(kind::kTicketIssued, 1, R"({"validation":"c","amount":6,"system_id":256})");
    add(kind::kSasTicketSetup, 1, R"({"location":"PIT 9","status_bits":3})");
    add(kind::kSasTicketSetup, 1, R"({"location":"PIT 8","status_bits":70000})");
    add(kind::kSasHostEnabled, 1, R"({"enabled":false})");
    add(kind::kSasHostEnabled, 1, R"({"enabled":1})");
    f.store->append(records);

    const SasResume resume = resumeSas(*f.store);
    ASSERT_EQ(resume.exceptions.at(1).size(), 1U);
    EXPECT_EQ(resume.exceptions.at(1)[0].code, 17);
    ASSERT_EQ(resume.validation.size(), 1U);
    EXPECT_EQ(resume.validation.at(1).machineId, 1193046U);
    ASSERT_EQ(resume.issued.at(1).size(), 1U);
    EXPECT_EQ(resume.issued.at(1)[0].first.validation, "a");
    EXPECT_EQ(ticketSetupOf(resume.ticketSetup.at(1), TicketSetup{}).location, "PIT 9");
    EXPECT_FALSE(resume.hostEnabled.at(1));
}

TEST(SasResume, AClockOffsetThatDoesNotFitStopsTheStartLikeAMalformedBody) {
    test::JournalFixture f;
    f.store->append(std::vector<journal::PendingRecord>{
        {f.clockMs, std::string(kind::kClockSet), std::nullopt, 1, R"({"offset_ms":-9.3e18})"}});
    try {
        (void)journal::resumeFacts(*f.store);
        FAIL() << "an offset of -9.3e18 ms was resumed";
    } catch (const journal::BodyError& error) {
        EXPECT_EQ(std::string(error.what())
                      .find("record " + std::to_string(f.store->tipSeq()) +
                            " (clock.set): \"offset_ms\" must be an integer from"),
                  0U)
            << error.what();
    }
}

TEST(WireDecoder, GapModeTakesTheFirstByteAfterSilenceAsTheWakeupByte) {
    WireDecoder gap(TransportMode::Gap);
    EXPECT_EQ(gap.push(0x01, true), (WireByte{0x01, true}));
    EXPECT_EQ(gap.push(0xFF, false), (WireByte{0xFF, false}));  // no escapes in gap mode
    WireDecoder pty(TransportMode::Pty);
    EXPECT_EQ(pty.push(0xFF, true), std::nullopt);  // the escape decides, not the silence
    EXPECT_EQ(pty.push(0x00, false), std::nullopt);
    EXPECT_EQ(pty.push(0x01, false), (WireByte{0x01, true}));
    EXPECT_EQ(parseTransportMode("gap"), TransportMode::Gap);
    EXPECT_EQ(parseTransportMode("rs485"), std::nullopt);
}

}  // namespace
}  // namespace pitlink::sas
