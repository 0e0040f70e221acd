// Journal bodies whose fields do not fit (a float where an integer belongs, an integer beyond its
// type's range, text for a number) are refused as malformed bodies are, and nothing already
// recorded is lost. fuzz_journal_records found the first one: a round.opened with "shoe":1e107
// (tests/fuzz/corpus/journal_records/regression-shoe-1e107).
#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <string>

#include "daemon/journal/ledger/ledger_replay.h"
#include "daemon/journal/read/audit.h"
#include "daemon/journal/read/recall.h"
#include "daemon/journal/read/round_history.h"
#include "daemon/journal/records/body_fields.h"
#include "daemon/journal/records/cashier_records.h"
#include "daemon/journal/records/fact_views.h"
#include "daemon/journal/records/modbus_records.h"
#include "daemon/journal/records/paytable_codec.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/records/start_records.h"
#include "daemon/journal/recovery.h"
#include "tests/unit/fixtures.h"
#include "tests/unit/journal_fixture.h"

namespace pitlink::journal {
namespace {

using game::BetType;
using nlohmann::json;
using test::JournalFixture;

constexpr std::int64_t kMaxUint32 = std::numeric_limits<std::uint32_t>::max();
constexpr const char* kBankerWins = "2S 9H 4D KC";
constexpr const char* kBadShoe = R"({"paytable":"standard","paytable_sha256":"ab","round_in_shoe":2,"shoe":1e107})";

// What reading `key` as an integer from `min` to `max` is refused with, or "" if it is not.
std::string integerRefusal(const json& body, std::string_view key, std::int64_t min, std::int64_t max) {
    try {
        (void)integerField(body, key, min, max);
    } catch (const BodyError& error) {
        return error.what();
    }
    return "";
}

// The refusal a malformed body gets, so that every reader refuses both alike.
template <typename Read>
std::string refusal(Read read) {
    try {
        read();
    } catch (const json::exception& error) {
        return error.what();
    }
    return "";
}

TEST(BodyFields, AnIntegerIsReadOnlyWhenItIsAnIntegerWithinItsRange) {
    const json body =
        json::parse(R"({"ok":7,"max":9223372036854775807,"min":-9223372036854775808,"shoe":1e107,"two":2.0,"text":"5",)"
                    R"("yes":true,"big":18446744073709551615,"negative":-1,"nothing":null,"list":[1]})");
    EXPECT_EQ(integerField(body, "ok", 0, 10), 7);
    EXPECT_EQ(integerField(body, "max", 0, kMaxInt64), kMaxInt64);
    EXPECT_EQ(integerField(body, "min", std::numeric_limits<std::int64_t>::min(), 0),
              std::numeric_limits<std::int64_t>::min());
    EXPECT_EQ(optionalIntegerField(body, "ok", 0, 10), 7);
    EXPECT_EQ(optionalIntegerField(body, "absent", 0, 10), std::nullopt);

    EXPECT_EQ(integerRefusal(body, "shoe", 0, kMaxUint32),
              R"("shoe" must be an integer from 0 to 4294967295, not 1e+107)");
    EXPECT_EQ(integerRefusal(body, "two", 0, 10), R"("two" must be an integer from 0 to 10, not 2.0)");
    EXPECT_EQ(integerRefusal(body, "text", 0, 10), R"("text" must be an integer from 0 to 10, not text)");
    EXPECT_EQ(integerRefusal(body, "yes", 0, 10), R"("yes" must be an integer from 0 to 10, not true)");
    EXPECT_EQ(integerRefusal(body, "big", 0, kMaxInt64),
              R"("big" must be an integer from 0 to 9223372036854775807, not 18446744073709551615)");
    EXPECT_EQ(integerRefusal(body, "negative", 0, 10), R"("negative" must be an integer from 0 to 10, not -1)");
    EXPECT_EQ(integerRefusal(body, "ok", 8, 10), R"("ok" must be an integer from 8 to 10, not 7)");
    EXPECT_EQ(integerRefusal(body, "nothing", 0, 10), R"("nothing" must be an integer from 0 to 10, not null)");
    EXPECT_EQ(integerRefusal(body, "list", 0, 10), R"("list" must be an integer from 0 to 10, not an array)");
    EXPECT_EQ(integerRefusal(body, "absent", 0, 10), R"("absent" is missing)");
    EXPECT_EQ(integerRefusal(json::array({1}), "ok", 0, 10), "the body is not a JSON object");
    // Values built by the program rather than parsed: unsigned above int64, and below it.
    EXPECT_EQ(integerRefusal(json{{"u", std::numeric_limits<std::uint64_t>::max()}}, "u", 0, kMaxInt64),
              R"("u" must be an integer from 0 to 9223372036854775807, not 18446744073709551615)");
    EXPECT_EQ(integerField(json{{"u", std::uint64_t{42}}}, "u", 0, 100), 42);
}

TEST(BodyFields, TextBooleansArraysAndObjectsAreCheckedAndTheRefusalIsAJsonException) {
    const json body = json::parse(R"({"name":"T","flag":false,"number":5,"cards":["9H"],"outcome":{}})");
    EXPECT_EQ(stringField(body, "name"), "T");
    EXPECT_EQ(optionalStringField(body, "absent"), std::nullopt);
    EXPECT_FALSE(booleanField(body, "flag"));
    EXPECT_EQ(arrayField(body, "cards").size(), 1U);
    EXPECT_TRUE(objectField(body, "outcome").empty());
    EXPECT_EQ(refusal([&] { (void)stringField(body, "number"); }), R"("number" must be text, not 5)");
    EXPECT_EQ(refusal([&] { (void)booleanField(body, "number"); }), R"("number" must be true or false, not 5)");
    EXPECT_EQ(refusal([&] { (void)arrayField(body, "outcome"); }), R"("outcome" must be an array, not an object)");
    EXPECT_EQ(refusal([&] { (void)objectField(body, "cards"); }), R"("cards" must be an object, not an array)");
    EXPECT_EQ(refusal([&] {
                  (void)readRecordBody(12, "credit", "{\"amount\":", [](const json&) { return 0; });
              }).rfind("record 12 (credit): [json.exception.parse_error", 0),
              0U);
    EXPECT_EQ(refusal([&] {
                  (void)readRecordBody(12, "credit", R"({"amount":1.5})",
                                       [](const json& b) { return integerField(b, "amount", 0, 10); });
              }),
              R"(record 12 (credit): "amount" must be an integer from 0 to 10, not 1.5)");
}

TEST(RoundHistory, TheFuzzersRoundOpenedWithShoe1e107IsRefusedNamingTheRecordAndTheField) {
    // The reproducer's first line, as fuzz_journal_records hands it to the reconstruction.
    const std::vector<JournalRecord> records{{1, 0, std::string(kind::kRoundOpened), 1, std::nullopt, kBadShoe, {}}};
    try {
        (void)reconstructRound(records);
        FAIL() << "a shoe of 1e107 was accepted";
    } catch (const std::invalid_argument& error) {
        EXPECT_STREQ(error.what(),
                     R"(record 1 (round.opened): "shoe" must be an integer from 0 to 4294967295, not 1e+107)");
    }
    // Each field of each kind the reconstruction reads, one at a time.
    const auto refused = [](std::string_view k, std::string body) {
        std::vector<JournalRecord> round{
            {1,
             0,
             std::string(kind::kRoundOpened),
             1,
             std::nullopt,
             R"({"paytable":"standard","paytable_sha256":"ab","round_in_shoe":1,"shoe":1})",
             {}},
            {2, 0, std::string(k), 1, 3, std::move(body), {}}};
        try {
            (void)reconstructRound(round);
        } catch (const std::invalid_argument& error) {
            return std::string(error.what());
        }
        return std::string();
    };
    EXPECT_EQ(refused(kind::kBetAccepted, R"({"bet":1,"spot":"banker","stake":1e3})"),
              R"(record 2 (bet.accepted): "stake" must be an integer from 1 to 1000000000000, not 1000.0)");
    EXPECT_EQ(refused(kind::kBetAccepted, R"({"bet":-4,"spot":"banker","stake":100})"),
              R"(record 2 (bet.accepted): "bet" must be an integer from 1 to 9223372036854775807, not -4)");
    EXPECT_EQ(refused(kind::kBetWithdrawn, R"({"bet":"1"})"),
              R"(record 2 (bet.withdrawn): "bet" must be an integer from 1 to 9223372036854775807, not text)");
    EXPECT_EQ(refused(kind::kCardDealt, R"({"card":"9H","position":18446744073709551615})"),
              "record 2 (card.dealt): \"position\" must be an integer from 1 to 9223372036854775807, not "
              "18446744073709551615");
    EXPECT_EQ(refused(kind::kRoundSettled, R"({"player":["9H",9],"banker":["2S","3S"],"outcome":{}})"),
              R"(record 2 (round.settled): a player card must be text, not 9)");
    EXPECT_EQ(refused(kind::kBetSettled,
                      R"({"bet":1,"stake":1,"result":"win","tier":7,"win":1,"returned":2,"breakage":"0"})"),
              R"(record 2 (bet.settled): "tier" must be an integer from 0 to 6, not 7)");
    EXPECT_EQ(refused(kind::kBetSettled,
                      R"({"bet":1,"stake":1,"result":"win","tier":0,"win":-1,"returned":2,"breakage":"0"})"),
              R"(record 2 (bet.settled): "win" must be an integer from 0 to 1000000000000000, not -1)");
    EXPECT_EQ(refused(kind::kRoundVoided, R"({"reason":false})"),
              R"(record 2 (round.voided): "reason" must be text, not false)");
}

TEST(Recovery, ALastRoundWhoseBodyDoesNotFitTiltsTheTableAndNothingRecordedIsLost) {
    JournalFixture f;
    f.table->ticketIn(1, 5000, "T1");
    const std::int64_t settled = f.playRound({{1, BetType::Banker, 1000}}, kBankerWins);
    const Ledger live = f.journal->committed();
    // A forged or damaged record, chained like any other: the next round opened with shoe 1e107.
    const std::int64_t forged = settled + 1;
    f.store->append(
        std::vector<PendingRecord>{{f.clockMs, std::string(kind::kRoundOpened), forged, std::nullopt, kBadShoe}});
    const std::int64_t tip = f.store->tipSeq();

    const RecoveryReport report = recover(*f.store, RecoveryOptions{true, true}, [&] { return f.clockMs; });
    ASSERT_FALSE(report.ok());
    EXPECT_EQ(*report.tilt, "recovery of the last round failed: record " + std::to_string(tip) +
                                " (round.opened): \"shoe\" must be an integer from 0 to 4294967295, not 1e+107");
    // Nothing was written, every record is still there and still reads as before.
    EXPECT_EQ(f.store->tipSeq(), tip);
    EXPECT_EQ(report.ledger.differenceFrom(live), "");
    EXPECT_EQ(report.ledger.credits(1), 5000 - 1000 + 1950);
    const RecalledRound before = recallRound(*test::whole(f), settled);
    EXPECT_EQ(before.round.state, RoundState::Settled);
    EXPECT_EQ(before.round.outcomes.at(1).returned, 1950);
    const AuditReport audit = auditJournal(*test::whole(f));
    EXPECT_TRUE(audit.ok()) << audit.chain.problem;
    EXPECT_EQ(audit.chain.checked, tip);
    // Recall of the forged round refuses it with the same words.
    try {
        (void)recallRound(*test::whole(f), forged);
        FAIL() << "the forged round was recalled";
    } catch (const std::invalid_argument& error) {
        EXPECT_NE(std::string(error.what()).find(R"("shoe" must be an integer)"), std::string::npos) << error.what();
    }
}

TEST(Ledger, CreditsWhoseNumbersDoNotFitAreRefusedAndChangeNothing) {
    LedgerReplay replay;
    const auto visit = [&](std::int64_t seq, std::string body) {
        return replay.visit(JournalRecord{seq, 0, std::string(kind::kCredit), std::nullopt, 1, std::move(body), {}});
    };
    ASSERT_EQ(visit(1, R"({"amount":500,"balance":500,"reason":"ticket_in"})"), "");
    EXPECT_EQ(visit(2, R"({"amount":1e107,"balance":500,"reason":"ticket_in"})"),
              "record 2: credit record: \"amount\" must be an integer from -1000000000000000 to 1000000000000000, "
              "not 1e+107");
    EXPECT_EQ(visit(3, R"({"amount":-18446744073709551615,"balance":500,"reason":"bet"})").rfind("record 3: ", 0), 0U);
    EXPECT_EQ(visit(4, R"({"amount":18446744073709551615,"balance":0,"reason":"ticket_in"})"),
              "record 4: credit record: \"amount\" must be an integer from -1000000000000000 to 1000000000000000, "
              "not 18446744073709551615");
    EXPECT_EQ(visit(5, R"({"amount":"100","balance":600,"reason":"ticket_in"})"),
              "record 5: credit record: \"amount\" must be an integer from -1000000000000000 to 1000000000000000, "
              "not text");
    EXPECT_EQ(visit(6, R"({"amount":0,"balance":500,"reason":"settlement","wagered":2.5})"),
              "record 6: credit record: \"wagered\" must be an integer from -1000000000000000 to 1000000000000000, "
              "not 2.5");
    EXPECT_EQ(visit(7, R"({"amount":100,"balance":600,"reason":7})"),
              R"(record 7: credit record: "reason" must be text, not 7)");
    EXPECT_EQ(replay.ledger().credits(1), 500);
    EXPECT_EQ(replay.ledger().stations().at(1).meters[Meter::TicketInCashable], 500);
}

TEST(Ledger, ASnapshotThatDoesNotFitIsRefusedAndAMeterNeverOverflows) {
    const auto snapshotRefusal = [](const std::string& text) {
        try {
            (void)Ledger::fromJson(json::parse(text));
        } catch (const LedgerError& error) {
            return std::string(error.what());
        }
        return std::string();
    };
    EXPECT_EQ(
        snapshotRefusal(R"({"stations":{"1":{"breakage":"0","credits":5,"meters":{"coin_in":1e107}}},"table":{}})"),
        "malformed meters snapshot: station 1 meter coin_in must be an integer from 0 to 9223372036854775807, "
        "not 1e+107");
    EXPECT_EQ(snapshotRefusal(R"({"stations":{"1":{"breakage":"0","credits":-5,"meters":{}}},"table":{}})"),
              "malformed meters snapshot: \"credits\" must be an integer from 0 to 1000000000000000, not -5");
    EXPECT_EQ(snapshotRefusal(R"({"stations":{"01":{"breakage":"0","credits":5,"meters":{}}},"table":{}})"),
              R"(snapshot with malformed station number "01")");
    EXPECT_EQ(snapshotRefusal(R"({"stations":[],"table":{}})"),
              R"(malformed meters snapshot: "stations" must be an object, not an array)");
    EXPECT_EQ(snapshotRefusal(R"({"stations":{},"table":{"power_ups":true}})"),
              "malformed meters snapshot: table meter power_ups must be an integer from 0 to 9223372036854775807, "
              "not true");

    // A meter at the top of its range: the credit that would take it past refuses, changing nothing.
    Ledger ledger = Ledger::fromJson(json::parse(
        R"({"stations":{"1":{"breakage":"0","credits":100,"meters":{"coin_in":9223372036854775000}}},"table":{}})"));
    EXPECT_THROW(ledger.apply(kind::kCredit, 1,
                              json{{"amount", 0}, {"balance", 100}, {"reason", "settlement"}, {"wagered", 1000}}),
                 LedgerError);
    EXPECT_EQ(ledger.credits(1), 100);
    EXPECT_EQ(ledger.stations().at(1).meters[Meter::GamesPlayed], 0);
    EXPECT_EQ(ledger.stations().at(1).meters[Meter::CoinIn], 9223372036854775000);
}

// The typed views read what the table wrote, and refuse what does not fit like any body reader.
TEST(FactViews, ReadTheFieldsTheTableWritesAndRefuseWhatDoesNotFit) {
    const CreditRecord settled =
        readBody<CreditRecord>(json{{"amount", 390}, {"balance", 1390}, {"reason", "settlement"}, {"wagered", 300}});
    EXPECT_EQ(settled.amount, 390);
    EXPECT_EQ(settled.balance, 1390);
    EXPECT_EQ(settled.wagered, 300);
    const CreditRecord tip =
        readBody<CreditRecord>(json{{"amount", -500}, {"balance", 0}, {"reason", "tip"}, {"wagered", 7}});
    EXPECT_EQ(tip.reason, "tip");
    EXPECT_FALSE(tip.wagered);  // only a settlement wagers
    EXPECT_THROW((void)readBody<CreditRecord>(json{{"amount", 1e107}, {"balance", 0}, {"reason", "tip"}}), BodyError);
    EXPECT_THROW((void)readBody<CreditRecord>(json{{"amount", 5}, {"balance", 5}, {"reason", "settlement"}}),
                 BodyError);

    EXPECT_EQ(readBody<HandpayPendingRecord>(json{{"amount", 120000}, {"kind", "jackpot"}}).amount, 120000);
    EXPECT_THROW((void)readBody<HandpayPendingRecord>(json{{"amount", -1}, {"kind", "jackpot"}}), BodyError);

    const TicketRedeemedRecord local = readBody<TicketRedeemedRecord>(json{{"validation", "001234"}, {"amount", 2500}});
    EXPECT_FALSE(local.host);
    EXPECT_EQ(local.amount, 2500);
    EXPECT_TRUE(readBody<TicketRedeemedRecord>(json{{"validation", "001234"}, {"amount", 2500}, {"host", true}}).host);
    EXPECT_THROW((void)readBody<TicketRedeemedRecord>(json{{"validation", "001234"}, {"amount", 2500}, {"host", 1}}),
                 BodyError);
}

// The Modbus records' bodies as schema/README.md writes them (the canonical bytes of a journal
// from before the typed records).
TEST(ModbusRecords, BodiesKeepTheirFieldsAndLeaveOutWhatDoesNotApply) {
    ModbusLinkRecord down{false, "lamps", "tcp 10.0.0.5:502", "timed out", std::nullopt};
    EXPECT_EQ(toBody(down).dump(), R"({"device":"tcp 10.0.0.5:502","error":"timed out","module":"lamps","up":false})");
    ModbusLinkRecord back{true, "lamps", "tcp 10.0.0.5:502", std::nullopt,
                          ModbusLinkRecord::Outage{4200, 7, {"timed out", "connection refused"}}};
    EXPECT_EQ(toBody(back).dump(),
              R"({"device":"tcp 10.0.0.5:502","down_ms":4200,"errors":["connection refused","timed out"],)"
              R"("failed_cycles":7,"module":"lamps","up":true})");
    ModbusLampTestRecord refused{"op", 500, {"red", "green"}, true, false, "round_in_progress"};
    EXPECT_EQ(toBody(refused).dump(),
              R"({"by":"op","error":"round_in_progress","lamps":["red","green"],"modules_up":true,)"
              R"("outcome":"refused","step_ms":500})");
    ModbusLampTestRecord started{"op", 500, {"red"}, false, true, std::nullopt};
    EXPECT_EQ(toBody(started)["outcome"], "started");
    EXPECT_FALSE(toBody(started).contains("error"));
}

TEST(ModbusRecords, ButtonPressesAndFaultsKeepTheirBodies) {
    const ButtonPressedRecord armed{"void",       "void_round", "armed",     std::nullopt,
                                    std::nullopt, std::nullopt, std::nullopt};
    EXPECT_EQ(toBody(armed).dump(), R"({"action":"void_round","button":"void","outcome":"armed"})");
    const ButtonPressedRecord refused{"confirm",          "confirm",    "refused", "past_betting",
                                      "nothing to close", "close_bets", "close"};
    EXPECT_EQ(toBody(refused).dump(),
              R"({"action":"confirm","armed_by":"close","button":"confirm","confirms":"close_bets",)"
              R"("error":"past_betting","message":"nothing to close","outcome":"refused"})");

    const ModbusFaultRecord stuck{
        "bets",  "stuck_output",     true,
        "lamps", "tcp 10.0.0.5:502", {ModbusFaultRecord::Stuck{false, 3, "coil"}, std::nullopt, std::nullopt}};
    EXPECT_EQ(toBody(stuck).dump(),
              R"({"active":true,"address":3,"device":"tcp 10.0.0.5:502","fault":"stuck_output","holds":"off",)"
              R"("kind":"coil","module":"lamps","point":"bets","written":"on"})");
    const ModbusFaultRecord cleared{"bets", "stuck_output", false, "lamps", "tcp 10.0.0.5:502", {}};
    EXPECT_EQ(toBody(cleared).dump(),
              R"({"active":false,"device":"tcp 10.0.0.5:502","fault":"stuck_output","module":"lamps","point":"bets"})");
    const ModbusFaultRecord held{"close", "button_held", true, "buttons", "rtu /dev/ttyS1", {std::nullopt, 700, 600}};
    EXPECT_EQ(toBody(held).dump(),
              R"({"active":true,"device":"rtu /dev/ttyS1","fault":"button_held","held_ms":700,"max_hold_ms":600,)"
              R"("module":"buttons","point":"close"})");
}

// The start-up's records, and config.loaded read back as SAS reads it (journals before typed
// records, and unit tests' facts, may hold only the re-read's fields).
TEST(StartRecords, BodiesKeepTheirFieldsAndConfigLoadedReadsBack) {
    EXPECT_EQ(toBody(DaemonStartedRecord{"0.1.0", "table-1", {}}).dump(), R"({"table":"table-1","version":"0.1.0"})");
    EXPECT_EQ(toBody(DaemonStartedRecord{"0.1.0", "table-1", {"live-1", "rng-2"}}).dump(),
              R"({"games":["live-1","rng-2"],"table":"table-1","version":"0.1.0"})");
    const ConfigLoadedRecord start{"/etc/pitlink/pitlink.yaml", "ab", std::nullopt, std::nullopt, std::nullopt};
    EXPECT_EQ(toBody(start).dump(), R"({"file":"/etc/pitlink/pitlink.yaml","sha256":"ab"})");
    const ConfigLoadedRecord reread{"pitlink.yaml", "cd", "SIGHUP", std::vector<std::string>{"bets"},
                                    std::vector<std::string>{}};
    EXPECT_EQ(toBody(reread).dump(),
              R"({"applied":["bets"],"file":"pitlink.yaml","restart_needed":[],"sha256":"cd","trigger":"SIGHUP"})");
    EXPECT_EQ(readBody<ConfigLoadedRecord>(toBody(start)), start);
    EXPECT_EQ(readBody<ConfigLoadedRecord>(toBody(reread)), reread);
    EXPECT_TRUE(
        readBody<ConfigLoadedRecord>(json{{"applied", json::array()}, {"trigger", "SIGHUP"}}).applied.has_value());
    EXPECT_THROW((void)readBody<ConfigLoadedRecord>(json{{"applied", "bets"}}), BodyError);
    EXPECT_THROW((void)readBody<ConfigLoadedRecord>(json{{"applied", {1}}}), BodyError);

    const game::Paytable paytable = test::shippedPaytable("standard");
    EXPECT_EQ(toBody(PaytableLoadedRecord{paytable, "etc/paytables/standard.yaml"}),
              (json{{"id", "standard"},
                    {"file", "etc/paytables/standard.yaml"},
                    {"sha256", paytableSha256(paytable)},
                    {"content", paytableToJson(paytable)}}));
}

}  // namespace
}  // namespace pitlink::journal
