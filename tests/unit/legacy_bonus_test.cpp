// SAS legacy bonusing on pitlinkd's side: the ledger's legacy bonus credits and their meters by tax
// status, the table's award (a cashable credit with its tax status, or a refusal journaled), the
// 7C its transaction raises (LP 90's data), the station's LP 90 and LP 9A (StationLegacyBonus) and
// what a start-up resumes of LP 90 from the journal. Figures are worked out by hand.
#include <gtest/gtest.h>

#include "daemon/journal/ledger/ledger.h"
#include "daemon/journal/records/cashier_records.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/records/sas_records.h"
#include "daemon/sas/exception_events.h"
#include "daemon/sas/sas_resume.h"
#include "daemon/sas/station_legacy_bonus.h"
#include "tests/unit/journal_fixture.h"
#include "tests/unit/table_fixture.h"

namespace pitlink {
namespace {

using journal::Meter;
using journal::TaxStatus;
using nlohmann::json;
namespace kind = journal::kind;

json bonusBody(game::Money amount, game::Money balance, const char* taxStatus) {
    return json{{"amount", amount}, {"balance", balance}, {"reason", "legacy_bonus"}, {"tax_status", taxStatus}};
}

journal::CreditRecord creditOf(game::Money amount, const char* reason) {
    journal::CreditRecord credit;
    credit.amount = amount;
    credit.balance = amount;
    credit.reason = reason;
    return credit;
}

TEST(LegacyBonusLedger, EachTaxStatusCountsInItsOwnMeterAndTheCreditsAreCashable) {
    journal::Ledger ledger;
    ledger.apply(kind::kCredit, 1, bonusBody(500, 500, "deductible"));
    ledger.apply(kind::kCredit, 1, bonusBody(70, 570, "non_deductible"));
    ledger.apply(kind::kCredit, 1, bonusBody(3, 573, "wager_match"));
    ledger.apply(kind::kCredit, 1, bonusBody(100, 673, "deductible"));
    const journal::StationAccount acc = ledger.station(1);
    EXPECT_EQ(acc.meters[Meter::LegacyBonusDeductible], 600);
    EXPECT_EQ(acc.meters[Meter::LegacyBonusNonDeductible], 70);
    EXPECT_EQ(acc.meters[Meter::LegacyBonusWagerMatch], 3);
    EXPECT_EQ(acc.credits, 673);
    EXPECT_EQ(acc.cashable(), 673);
    EXPECT_EQ(acc.meters[Meter::CoinOut], 0);  // a bonus is not won in a game

    // The snapshot names them, and reads them back; a station without any does not list them.
    ledger.apply(kind::kCredit, 2, json{{"amount", 10}, {"balance", 10}, {"reason", "ticket_in"}});
    const json snapshot = ledger.toJson();
    EXPECT_EQ(snapshot["stations"]["1"]["meters"]["legacy_bonus_deductible"], 600);
    EXPECT_EQ(snapshot["stations"]["1"]["meters"]["legacy_bonus_non_deductible"], 70);
    EXPECT_EQ(snapshot["stations"]["1"]["meters"]["legacy_bonus_wager_match"], 3);
    EXPECT_FALSE(snapshot["stations"]["2"]["meters"].contains("legacy_bonus_deductible"));
    EXPECT_EQ(journal::Ledger::fromJson(snapshot).differenceFrom(ledger), "");
    EXPECT_EQ(journal::parseMeter("legacy_bonus_wager_match"), Meter::LegacyBonusWagerMatch);
}

TEST(LegacyBonusLedger, RefusesOneWithoutItsTaxStatusWithPromotionalPartsOrTakingCredits) {
    const auto refused = [](json body) {
        journal::Ledger ledger;
        EXPECT_THROW(ledger.apply(kind::kCredit, 1, body), journal::LedgerError) << body.dump();
        EXPECT_EQ(ledger.credits(1), 0);
    };
    refused(json{{"amount", 500}, {"balance", 500}, {"reason", "legacy_bonus"}});
    refused(bonusBody(500, 500, "taxable"));
    refused(bonusBody(-500, -500, "deductible"));
    json promotional = bonusBody(500, 500, "deductible");
    promotional["nonrestricted"] = 100;
    refused(promotional);
    // A tax status belongs to legacy bonuses only.
    journal::Ledger ledger;
    journal::CreditRecord ticket = creditOf(200, "ticket_in");
    ticket.taxStatus = TaxStatus::Deductible;
    EXPECT_THROW(ledger.applyCredit(1, ticket), journal::LedgerError);
    // Its body: written and read back with the tax status by name.
    journal::CreditRecord bonus = creditOf(300, "legacy_bonus");
    bonus.ref = "sas legacy bonus";
    bonus.taxStatus = TaxStatus::WagerMatch;
    const json body = journal::toBody(bonus);
    EXPECT_EQ(body["tax_status"], "wager_match");
    EXPECT_EQ(journal::readBody<journal::CreditRecord>(body), bonus);
    EXPECT_FALSE(journal::toBody(creditOf(200, "ticket_in")).contains("tax_status"));
}

TEST(LegacyBonusTable, AnAwardIsACashableCreditWithItsTaxStatusAndARefusalIsJournaledLikeIt) {
    table::TableFixture f(table::CardSource::Reader);
    f.fund(1, 1'000);
    std::optional<bool> committed;
    EXPECT_TRUE(f.table->legacyBonus(1, 2'500, TaxStatus::NonDeductible, [&](bool ok) { committed = ok; }));
    EXPECT_EQ(committed, true);  // the fixture's journal commits inline
    EXPECT_EQ(f.credits(1), 3'500);
    EXPECT_EQ(f.meter(1, Meter::LegacyBonusNonDeductible), 2'500);
    EXPECT_EQ(f.events.back()["event"], "credits");
    auto credit = f.store->connection().prepare(
        "SELECT body FROM record WHERE kind = 'credit' AND json_extract(body, '$.reason') = 'legacy_bonus'");
    ASSERT_TRUE(credit.step());
    EXPECT_EQ(json::parse(credit.text(0)), (json{{"amount", 2'500},
                                                 {"balance", 3'500},
                                                 {"reason", "legacy_bonus"},
                                                 {"ref", "sas legacy bonus"},
                                                 {"tax_status", "non_deductible"}}));

    // Shut down by the host, in tilt: busy, nothing credited, the refusal journaled with the award.
    f.table->setHostEnabled(1, false);
    EXPECT_FALSE(f.table->legacyBonus(1, 100, TaxStatus::Deductible, [](bool) { FAIL() << "refused"; }));
    f.table->setHostEnabled(1, true);
    f.table->raiseTilt("reader", "no card");
    EXPECT_FALSE(f.table->legacyBonus(1, 200, TaxStatus::WagerMatch, [](bool) { FAIL() << "refused"; }));
    EXPECT_EQ(f.credits(1), 3'500);
    auto refusals = f.store->connection().prepare(
        "SELECT body FROM record WHERE kind = 'request.refused' AND station = 1 ORDER BY seq");
    std::vector<json> bodies;
    while (refusals.step()) {
        bodies.push_back(json::parse(refusals.text(0)));
    }
    ASSERT_EQ(bodies.size(), 2U);
    EXPECT_EQ(bodies[0]["op"], "legacy_bonus");
    EXPECT_EQ(bodies[0]["error"], "host_disabled");
    EXPECT_EQ(bodies[0]["amount"], 100);
    EXPECT_EQ(bodies[0]["tax_status"], "deductible");
    EXPECT_EQ(bodies[1]["error"], "tilted");
    EXPECT_EQ(bodies[1]["tax_status"], "wager_match");
}

TEST(LegacyBonusExceptions, ALegacyBonusCreditRaises7CWithLP90sData) {
    const auto bonus = [](std::int64_t station, game::Money amount, const char* taxStatus) {
        return journal::Fact{std::string(kind::kCredit), std::nullopt, station, bonusBody(amount, amount, taxStatus)};
    };
    // Denomination 5: 2,500 minor units are 500 credits (0x0500 in BCD).
    EXPECT_EQ(sas::exceptionsOf({bonus(1, 2'500, "wager_match")}, journal::Ledger{}, 5, {1}),
              (std::vector<sas::RaisedException>{
                  {1, sas::code::kLegacyBonusAwarded, {0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x05, 0x00}}}));
    EXPECT_EQ(sas::exceptionsOf({bonus(2, 12'345'678, "deductible")}, journal::Ledger{}, 1, {1, 2}),
              (std::vector<sas::RaisedException>{
                  {2, sas::code::kLegacyBonusAwarded, {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x12, 0x34, 0x56, 0x78}}}));
    EXPECT_TRUE(sas::exceptionsOf({bonus(3, 100, "deductible")}, journal::Ledger{}, 1, {1, 2}).empty());  // no link
}

TEST(StationLegacyBonus, AnAwardIsTakenOrBusyAndLP9AReadsTheCommittedMeters) {
    table::TableSettings settings;
    settings.denomination = 5;
    table::TableFixture f(table::CardSource::Reader, settings);
    std::vector<journal::SasLegacyBonusReadRecord> reads;
    sas::StationLegacyBonus bonus(1, *f.table, *f.journal, [&](const auto& r) { reads.push_back(r); });
    // 100 credits of 5 minor units each.
    EXPECT_EQ(bonus.award(sas::legacy::Award{100, sas::legacy::TaxStatus::Deductible}),
              sas::legacy::AwardAnswer::Taken);
    EXPECT_EQ(bonus.award(sas::legacy::Award{7, sas::legacy::TaxStatus::WagerMatch}), sas::legacy::AwardAnswer::Taken);
    EXPECT_EQ(f.credits(1), 535);
    EXPECT_EQ(bonus.meters(0), (sas::legacy::BonusMeters{100, 0, 7}));
    EXPECT_EQ(bonus.meters(1), sas::legacy::BonusMeters{});  // paid to the station, not won in a game
    f.table->setHostEnabled(1, false);
    EXPECT_EQ(bonus.award(sas::legacy::Award{1, sas::legacy::TaxStatus::Deductible}), sas::legacy::AwardAnswer::Busy);
    EXPECT_EQ(f.credits(1), 535);
}

TEST(StationLegacyBonus, LP90ReportsTheLast7CUntilTheHostAcknowledgesTheAnswerThatReportedIt) {
    table::TableFixture f(table::CardSource::Reader);
    std::vector<journal::SasLegacyBonusReadRecord> reads;
    sas::StationLegacyBonus bonus(1, *f.table, *f.journal, [&](const auto& r) { reads.push_back(r); });
    using sas::legacy::BonusWin;
    using sas::legacy::TaxStatus;
    EXPECT_EQ(bonus.lastBonus(), BonusWin{});  // none yet
    bonus.lastBonusAcknowledged();
    EXPECT_TRUE(reads.empty());

    bonus.awarded(sas::legacy::bonusWinData(BonusWin{TaxStatus::NonDeductible, 40}), 7);
    EXPECT_EQ(bonus.lastBonus(), (BonusWin{TaxStatus::NonDeductible, 40}));
    EXPECT_EQ(bonus.lastBonus(), (BonusWin{TaxStatus::NonDeductible, 40}));  // until acknowledged
    bonus.lastBonusAcknowledged();
    ASSERT_EQ(reads.size(), 1U);
    EXPECT_EQ(reads[0].serial, 7U);
    EXPECT_EQ(bonus.lastBonus(), BonusWin{});

    // A bonus paid between an answer and its ACK is still to be read: the host heard of the one before.
    bonus.awarded(sas::legacy::bonusWinData(BonusWin{TaxStatus::Deductible, 1}), 9);
    EXPECT_EQ(bonus.lastBonus(), (BonusWin{TaxStatus::Deductible, 1}));
    bonus.awarded(sas::legacy::bonusWinData(BonusWin{TaxStatus::WagerMatch, 2}), 9);  // a serial again (a restart)
    bonus.lastBonusAcknowledged();
    EXPECT_EQ(reads.size(), 1U);
    EXPECT_EQ(bonus.lastBonus(), (BonusWin{TaxStatus::WagerMatch, 2}));

    // Restored at start from the journal's 7C.
    sas::StationLegacyBonus restarted(1, *f.table, *f.journal, [&](const auto& r) { reads.push_back(r); });
    restarted.restore(
        journal::SasExceptionRecord{0x7C, 12, sas::legacy::bonusWinData(BonusWin{TaxStatus::Deductible, 3})});
    EXPECT_EQ(restarted.lastBonus(), (BonusWin{TaxStatus::Deductible, 3}));
    restarted.lastBonusAcknowledged();
    EXPECT_EQ(reads.back().serial, 12U);
}

TEST(LegacyBonusResume, LP90sBonusIsTheLast7CUntilAReadNamingItAndSurvivesASegment) {
    test::JournalFixture f;
    const auto add = [&](std::string_view k, std::int64_t station, json body) {
        journal::JournalTransaction tx = f.journal->begin();
        tx.add(k, std::nullopt, station, std::move(body));
        f.journal->submit(std::move(tx));
    };
    const auto awarded = [](std::uint64_t serial, std::uint32_t credits) {
        return sas::exceptionJson(
            sas::SasException{0x7C, sas::legacy::bonusWinData({sas::legacy::TaxStatus::WagerMatch, credits}), serial});
    };
    const auto read = [](std::uint64_t serial) { return json{{"serial", serial}}; };
    add(kind::kSasException, 1, awarded(3, 10));
    add(kind::kSasLegacyBonusRead, 1, read(3));
    add(kind::kSasException, 1, awarded(5, 20));
    add(kind::kSasLegacyBonusRead, 1, read(3));  // the older one's: journaled after 5 committed
    add(kind::kSasException, 2, awarded(4, 30));
    add(kind::kSasLegacyBonusRead, 2, read(4));

    const sas::SasResume resume = sas::resumeSas(*f.store);
    ASSERT_EQ(resume.legacyBonus.size(), 1U);
    EXPECT_EQ(resume.legacyBonus.at(1).serial, 5U);
    EXPECT_EQ(sas::legacy::bonusWinOf(resume.legacyBonus.at(1).data),
              (sas::legacy::BonusWin{sas::legacy::TaxStatus::WagerMatch, 20}));
    // A new segment carries it over (segment.carried "sas" "legacy_bonus").
    const json carried = sas::sasResumeJson(resume);
    EXPECT_EQ(carried["legacy_bonus"]["1"], awarded(5, 20));
    EXPECT_EQ(sas::sasResumeFromJson(carried).legacyBonus, resume.legacyBonus);
    EXPECT_FALSE(sas::sasResumeJson(sas::SasResume{}).contains("legacy_bonus"));
}

}  // namespace
}  // namespace pitlink
