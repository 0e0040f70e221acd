// The inspector's views of cashless play (schema 5, schema/0005_cashless_views.sql): the station
// statement splits every credit by type with the station's promotional balances, aft_transfers has
// one row per AFT transfer (pending, full, partial, refused at once or at its end, cut by a restart,
// a transaction ID used again after its transfer was acknowledged, the end of one a segment carried
// pending), legacy_bonuses one per legacy bonus. The journals are written record by record here, as
// schema/README.md documents them (not by the table), and every expected value is worked by hand.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "daemon/journal/store/journal_store.h"
#include "daemon/journal/store/schema_migrations.h"
#include "tests/unit/fixtures.h"
#include "tests/unit/journal_fixture.h"

namespace pitlink::journal {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::TempDir;

constexpr std::int64_t kT0 = 1'795'000'000'000;  // 2026-11-18 11:06:40 UTC

struct Entry {
    std::string kind;
    std::optional<std::int64_t> station;
    json body;
    std::optional<std::int64_t> round = std::nullopt;
};

// Appends records, one transaction per call, each transaction one second after the one before.
struct Writer {
    explicit Writer(const fs::path& path) : store(path.string(), StoreOptions{}) {}
    // The sequence numbers of the transaction's records, in order.
    std::vector<std::int64_t> tx(const std::vector<Entry>& entries) {
        atMs += 1000;
        std::vector<PendingRecord> pending;
        for (const Entry& e : entries) {
            pending.push_back(PendingRecord{atMs, e.kind, e.round, e.station, canonicalJson(e.body)});
        }
        const AppendResult written = store.append(pending);
        std::vector<std::int64_t> seqs;
        for (std::int64_t seq = written.firstSeq; seq <= written.lastSeq; ++seq) {
            seqs.push_back(seq);
        }
        return seqs;
    }
    std::int64_t one(const Entry& entry) { return tx({entry}).front(); }
    JournalStore store;
    std::int64_t atMs = kT0;
};

json amounts(std::int64_t cashable, std::int64_t restricted, std::int64_t nonrestricted) {
    return {{"cashable", cashable}, {"restricted", restricted}, {"nonrestricted", nonrestricted}};
}

struct Transfer {
    std::string id;
    int type = 0;
    int code = 0;
    json asked = amounts(0, 0, 0);
    int pool = 0;
    int expiration = 0;
};

// An aft.transfer body (schema/README.md): pending with nothing moved, or its end.
json transferBody(const Transfer& t, int status, const json& moved = amounts(0, 0, 0),
                  const std::optional<std::string>& at = std::nullopt) {
    json body{{"id", t.id},     {"code", t.code},  {"type", t.type}, {"asked", t.asked},
              {"moved", moved}, {"flags", 0},      {"asset", 1},     {"expiration", t.expiration},
              {"pool", t.pool}, {"status", status}};
    if (at) {
        body["at"] = *at;
    }
    return body;
}

Entry transfer(std::int64_t station, const Transfer& t, int status, const json& moved = amounts(0, 0, 0)) {
    return {"aft.transfer", station,
            transferBody(t, status, moved,
                         status == 64 ? std::nullopt : std::optional<std::string>("2026-11-18 12:00:00"))};
}

Entry acknowledged(std::int64_t station, const std::string& id) {
    return {"aft.acknowledged", station, json{{"id", id}}};
}

// A credit record: amount, balance after, reason, ref, and its promotional parts when not 0.
Entry credit(std::int64_t station, std::int64_t amount, std::int64_t balance, const std::string& reason,
             const std::string& ref, std::int64_t restricted = 0, std::int64_t nonrestricted = 0,
             std::optional<std::int64_t> round = std::nullopt) {
    json body{{"amount", amount}, {"balance", balance}, {"reason", reason}, {"ref", ref}};
    if (restricted != 0) {
        body["restricted"] = restricted;
    }
    if (nonrestricted != 0) {
        body["nonrestricted"] = nonrestricted;
    }
    return {"credit", station, body, round};
}

// Rows of a query, each its columns' text joined by spaces (NULL for NULL).
std::vector<std::string> rows(JournalStore& store, const std::string& sql, int columns) {
    auto q = store.connection().prepare(sql);
    std::vector<std::string> out;
    while (q.step()) {
        std::string row;
        for (int c = 0; c < columns; ++c) {
            row += (c == 0 ? "" : " ") + (q.isNull(c) ? std::string("NULL") : std::string(q.text(c)));
        }
        out.push_back(row);
    }
    return out;
}

std::string columnsOf(JournalStore& store, const std::string& view) {
    auto q = store.connection().prepare("SELECT group_concat(name, ' ') FROM pragma_table_info('" + view + "')");
    q.step();
    return std::string(q.text(0));
}

std::string n(std::int64_t value) {
    return std::to_string(value);
}

constexpr const char* kStatement =
    "SELECT seq, reason, amount, balance, cashable, restricted, nonrestricted, restricted_balance, "
    "nonrestricted_balance, tax_status, transfer_id FROM station_statement WHERE station = ";
constexpr const char* kTransfers =
    "SELECT station, transfer_id, type, type_name, code, status, outcome, asked_cashable, asked_restricted, "
    "asked_nonrestricted, moved_cashable, moved_restricted, moved_nonrestricted, pool, expiration, requested_seq, "
    "ended_seq, acknowledged, credit_seq FROM aft_transfers ORDER BY coalesce(requested_seq, ended_seq)";

// A journal's first segment: station 1 takes T1 in (50.00 cashable, 20.00 restricted, 10.00
// non-restricted), sees T1 again refused (81), stakes 25.00 (20.00 restricted, then 5.00
// non-restricted) and wins 50.00 cashable, stakes 10.00 in a voided round (5.00 non-restricted
// back), gets a 7.00 bonus (2.00 non-restricted), sends everything to the host in a partial T3
// (105.00 cashable, 7.00 non-restricted of 200.00 and 10.00 asked), asks T4 of 1.00 refused at its
// end (82), takes T1 again once acknowledged (10.00 cashable, 30.00 restricted, pool 5), a legacy
// bonus of 2.50 (wager match), loses 10.00 restricted to expiry, and T5 is cut by a restart (9F).
// Station 2 takes its own T1 of 3.00, not acknowledged; station 3's T7 is still pending.
struct FirstSegment {
    FirstSegment() : w(dir.path() / "journal.db") {
        w.one({"daemon.started", std::nullopt, json{{"version", "test"}}});
        const Transfer t1{"T1", 0, 0, amounts(5000, 2000, 1000), 3, 30};
        t1p = w.one(transfer(1, t1, 64));
        Entry t1ended = transfer(1, t1, 0, amounts(5000, 2000, 1000));
        t1ended.body["expires"] = "2026-12-18";  // its end says when the restricted credits expire
        const auto t1end = w.tx({t1ended, credit(1, 8000, 8000, "transfer_in", "aft T1", 2000, 1000)});
        t1e = t1end[0];
        t1c = t1end[1];
        w.one(acknowledged(1, "T1"));
        again = w.one(transfer(1, Transfer{"T1", 0, 0, amounts(5000, 0, 0)}, 129));
        bet1 = w.one(credit(1, -2500, 5500, "bet", "bet 1", -2000, -500, 1));
        Entry settled = credit(1, 5000, 10500, "settlement", "", 0, 0, 1);
        settled.body.erase("ref");
        settled.body["wagered"] = 2500;
        settled.body["wagered_restricted"] = 2000;
        settled.body["wagered_nonrestricted"] = 500;
        set1 = w.one(settled);
        bet2 = w.one(credit(1, -1000, 9500, "bet", "bet 1", 0, -500, 2));
        ret2 = w.one(credit(1, 1000, 10500, "bet_return", "", 0, 500, 2));
        // The first snapshot comes after credits: 5.00 non-restricted held then.
        w.one({"meters.snapshot", std::nullopt,
               json{{"stations", {{"1", {{"credits", 10500}, {"promo", {{"restricted", 0}, {"nonrestricted", 500}}}}}}},
                    {"table", json::object()}}});
        const Transfer t2{"T2", 16, 0, amounts(500, 0, 200)};
        t2p = w.one(transfer(1, t2, 64));
        const auto t2end =
            w.tx({transfer(1, t2, 0, amounts(500, 0, 200)), credit(1, 700, 11200, "bonus", "aft T2", 0, 200)});
        t2e = t2end[0];
        t2c = t2end[1];
        w.one(acknowledged(1, "T2"));
        const Transfer t3{"T3", 128, 1, amounts(20000, 0, 1000)};
        t3p = w.one(transfer(1, t3, 64));
        const auto t3end =
            w.tx({transfer(1, t3, 1, amounts(10500, 0, 700)), credit(1, -11200, 0, "transfer_out", "aft T3", 0, -700)});
        t3e = t3end[0];
        t3c = t3end[1];
        w.one(acknowledged(1, "T3"));
        const Transfer t4{"T4", 128, 0, amounts(100, 0, 0)};
        t4p = w.one(transfer(1, t4, 64));
        t4e = w.one(transfer(1, t4, 130));
        w.one(acknowledged(1, "T4"));
        const Transfer t1b{"T1", 0, 0, amounts(1000, 3000, 0), 5, 60};
        t1bp = w.one(transfer(1, t1b, 64));
        const auto t1bend = w.tx(
            {transfer(1, t1b, 0, amounts(1000, 3000, 0)), credit(1, 4000, 4000, "transfer_in", "aft T1", 3000, 0)});
        t1be = t1bend[0];
        t1bc = t1bend[1];
        w.one(acknowledged(1, "T1"));
        Entry bonus = credit(1, 250, 4250, "legacy_bonus", "sas legacy bonus");
        bonus.body["tax_status"] = "wager_match";
        lb = w.one(bonus);
        expired = w.one(credit(1, -1000, 3250, "restricted_expired", "", -1000, 0));
        const Transfer t5{"T5", 0, 0, amounts(100, 0, 0)};
        t5p = w.one(transfer(1, t5, 64));
        w.one({"daemon.started", std::nullopt, json{{"version", "test"}}});
        t5e = w.one(transfer(1, t5, 159));
        const Transfer u1{"T1", 0, 0, amounts(300, 0, 0)};
        u1p = w.one(transfer(2, u1, 64));
        const auto u1end = w.tx({transfer(2, u1, 0, amounts(300, 0, 0)), credit(2, 300, 300, "transfer_in", "aft T1")});
        u1e = u1end[0];
        u1c = u1end[1];
        v7p = w.one(transfer(3, Transfer{"T7", 0, 0, amounts(700, 0, 0)}, 64));
    }
    TempDir dir;
    Writer w;
    std::int64_t t1p = 0, t1e = 0, t1c = 0, again = 0, bet1 = 0, set1 = 0, bet2 = 0, ret2 = 0;
    std::int64_t t2p = 0, t2e = 0, t2c = 0, t3p = 0, t3e = 0, t3c = 0, t4p = 0, t4e = 0;
    std::int64_t t1bp = 0, t1be = 0, t1bc = 0, lb = 0, expired = 0, t5p = 0, t5e = 0;
    std::int64_t u1p = 0, u1e = 0, u1c = 0, v7p = 0;
};

TEST(CashlessViews, TheStatementKeepsItsColumnsAndAddsTheCreditTypesAfterThem) {
    FirstSegment f;
    EXPECT_GE(latestSchemaVersion(), 5);
    EXPECT_EQ(columnsOf(f.w.store, "station_statement"),
              "seq at_utc station round_id reason amount balance ref game cashable restricted nonrestricted "
              "restricted_balance nonrestricted_balance tax_status transfer_id");
    EXPECT_EQ(columnsOf(f.w.store, "aft_transfers"),
              "station transfer_id type type_name code status outcome asked_cashable asked_restricted "
              "asked_nonrestricted moved_cashable moved_restricted moved_nonrestricted pool expiration expires "
              "flags requested_seq requested_utc ended_seq ended_utc ended_local acknowledged credit_seq");
    EXPECT_EQ(columnsOf(f.w.store, "legacy_bonuses"), "station seq at_utc amount tax_status");
}

TEST(CashlessViews, TheStatementSplitsEachCreditByTypeWithThePromotionalBalances) {
    FirstSegment f;
    // seq reason amount balance | cashable restricted nonrestricted | restricted and non-restricted
    // held after it | tax status, transfer ID. Restricted: 2,000 in, staked, 3,000 in, 1,000 expired;
    // non-restricted: 1,000 in, 500 staked, 500 staked and returned, 200 bonus, 700 out.
    EXPECT_EQ(rows(f.w.store, std::string(kStatement) + "1 ORDER BY seq", 11),
              (std::vector<std::string>{
                  n(f.t1c) + " transfer_in 8000 8000 5000 2000 1000 2000 1000 NULL T1",
                  n(f.bet1) + " bet -2500 5500 0 -2000 -500 0 500 NULL NULL",
                  n(f.set1) + " settlement 5000 10500 5000 0 0 0 500 NULL NULL",
                  n(f.bet2) + " bet -1000 9500 -500 0 -500 0 0 NULL NULL",
                  n(f.ret2) + " bet_return 1000 10500 500 0 500 0 500 NULL NULL",
                  n(f.t2c) + " bonus 700 11200 500 0 200 0 700 NULL T2",
                  n(f.t3c) + " transfer_out -11200 0 -10500 0 -700 0 0 NULL T3",
                  n(f.t1bc) + " transfer_in 4000 4000 1000 3000 0 3000 0 NULL T1",
                  n(f.lb) + " legacy_bonus 250 4250 250 0 0 3000 0 wager_match NULL",
                  n(f.expired) + " restricted_expired -1000 3250 0 -1000 0 2000 0 NULL NULL",
              }));
    EXPECT_EQ(rows(f.w.store, std::string(kStatement) + "2 ORDER BY seq", 11),
              (std::vector<std::string>{n(f.u1c) + " transfer_in 300 300 300 0 0 0 0 NULL T1"}));
    // The columns of schema 4 as they were: the movement's time, round, ref and game.
    EXPECT_EQ(
        rows(f.w.store,
             "SELECT at_utc, round_id, ref, game FROM station_statement WHERE seq IN (" + n(f.t1c) + ", " + n(f.bet1) +
                 ") ORDER BY seq",
             4),
        (std::vector<std::string>{"2026-11-18 11:06:43.000 NULL aft T1 NULL", "2026-11-18 11:06:46.000 1 bet 1 NULL"}));
    // Unordered, the view still lists the movements in journal order.
    auto first = f.w.store.connection().prepare("SELECT seq FROM station_statement LIMIT 1");
    ASSERT_TRUE(first.step());
    EXPECT_EQ(first.integer(0), f.t1c);
}

TEST(CashlessViews, EachTransferIsOneRowWithItsEndAcknowledgementAndCredit) {
    FirstSegment f;
    // station id type type_name code status outcome | asked c r n | moved c r n | pool expiration |
    // requested_seq ended_seq acknowledged credit_seq
    EXPECT_EQ(
        rows(f.w.store, kTransfers, 19),
        (std::vector<std::string>{
            "1 T1 0 in_house_to_station full 0 full 5000 2000 1000 5000 2000 1000 3 30 " + n(f.t1p) + " " + n(f.t1e) +
                " 1 " + n(f.t1c),
            // The same ID again once T1 was acknowledged: refused at once, one record, no 69.
            "1 T1 0 in_house_to_station full 129 refused 5000 0 0 0 0 0 0 0 " + n(f.again) + " " + n(f.again) +
                " NULL NULL",
            "1 T2 16 bonus_coin_out full 0 full 500 0 200 500 0 200 0 0 " + n(f.t2p) + " " + n(f.t2e) + " 1 " +
                n(f.t2c),
            "1 T3 128 in_house_to_host partial 1 partial 20000 0 1000 10500 0 700 0 0 " + n(f.t3p) + " " + n(f.t3e) +
                " 1 " + n(f.t3c),
            // Refused at its end: nothing moved, acknowledged.
            "1 T4 128 in_house_to_host full 130 refused 100 0 0 0 0 0 0 0 " + n(f.t4p) + " " + n(f.t4e) + " 1 NULL",
            // T1 used again after T2, T3 and T4: a later, distinct transfer of its own.
            "1 T1 0 in_house_to_station full 0 full 1000 3000 0 1000 3000 0 5 60 " + n(f.t1bp) + " " + n(f.t1be) +
                " 1 " + n(f.t1bc),
            "1 T5 0 in_house_to_station full 159 cut_by_restart 100 0 0 0 0 0 0 0 " + n(f.t5p) + " " + n(f.t5e) +
                " 0 NULL",
            // Another station's T1 is its own; ended, not acknowledged yet.
            "2 T1 0 in_house_to_station full 0 full 300 0 0 300 0 0 0 0 " + n(f.u1p) + " " + n(f.u1e) + " 0 " +
                n(f.u1c),
            "3 T7 0 in_house_to_station full 64 pending 700 0 0 NULL NULL NULL 0 0 " + n(f.v7p) + " NULL 0 NULL",
        }));
    // The restricted credits' expiry after T1 (30 days from its local date), on its end only.
    EXPECT_EQ(rows(f.w.store,
                   "SELECT transfer_id, expires FROM aft_transfers ORDER BY coalesce(requested_seq, ended_seq)", 2)[0],
              "T1 2026-12-18");
    EXPECT_EQ(rows(f.w.store, "SELECT count(*) FROM aft_transfers WHERE expires IS NOT NULL", 1)[0], "1");
    // Times: the request's and its end's (journal clock), and the station's local time at its end.
    EXPECT_EQ(
        rows(f.w.store,
             "SELECT requested_utc, ended_utc, ended_local, flags FROM aft_transfers WHERE requested_seq = " + n(f.t1p),
             4),
        (std::vector<std::string>{"2026-11-18 11:06:42.000 2026-11-18 11:06:43.000 2026-11-18 12:00:00 0"}));
    EXPECT_EQ(rows(f.w.store, "SELECT ended_utc, ended_local FROM aft_transfers WHERE transfer_id = 'T7'", 2),
              (std::vector<std::string>{"NULL NULL"}));
    // What moved in the transfers is what the transfer credits moved, type by type.
    EXPECT_EQ(rows(f.w.store,
                   "SELECT sum(CASE WHEN type_name = 'in_house_to_host' THEN -1 ELSE 1 END "
                   "* (moved_cashable + moved_restricted + moved_nonrestricted)) FROM aft_transfers",
                   1),
              rows(f.w.store, "SELECT sum(amount) FROM station_statement WHERE transfer_id IS NOT NULL", 1));
}

TEST(CashlessViews, LegacyBonusesAreListedWithTheirTaxStatus) {
    FirstSegment f;
    EXPECT_EQ(rows(f.w.store, "SELECT * FROM legacy_bonuses", 5),
              (std::vector<std::string>{"1 " + n(f.lb) + " 2026-11-18 11:07:03.000 250 wager_match"}));
}

// A later segment starts mid-life: station 1 holds 20.00 restricted (its opening snapshot) and its
// bonus T8 (4.00 non-restricted) pending (segment.carried), which ends here; then a stake of 25.00
// takes 20.00 restricted and 4.00 non-restricted; station 2's T9 is refused at once (88); T8 comes
// back as a new transfer in of 1.00 once the first was acknowledged.
TEST(CashlessViews, ALaterSegmentStartsFromWhatItCarries) {
    TempDir dir;
    Writer w(dir.path() / "segment-000002.db");
    w.store.continueChain(1000, Digest{});
    const Transfer t8{"T8", 16, 0, amounts(0, 0, 400)};
    w.one({"segment.sealed", std::nullopt, json{{"segment", 1}, {"first_seq", 1}, {"last_seq", 1000}}});
    w.one(
        {"segment.carried", std::nullopt,
         json{
             {"table", json::object()},
             {"sas",
              {{"aft",
                {{"1", {{"current", transferBody(t8, 64)}, {"acknowledged", false}, {"history", json::array()}}}}}}}}});
    w.one({"meters.snapshot", std::nullopt,
           json{{"stations",
                 {{"1", {{"credits", 3250}, {"promo", {{"restricted", 2000}, {"nonrestricted", 0}}}}},
                  {"2", {{"credits", 300}}}}},
                {"table", json::object()}}});
    const auto end = w.tx({transfer(1, t8, 0, amounts(0, 0, 400)), credit(1, 400, 3650, "bonus", "aft T8", 0, 400)});
    w.one(acknowledged(1, "T8"));
    const std::int64_t bet = w.one(credit(1, -2500, 1150, "bet", "bet 1", -2000, -400, 9));
    const std::int64_t t9 = w.one(transfer(2, Transfer{"T9", 0, 0, amounts(100, 0, 0)}, 136));
    const Transfer t8b{"T8", 0, 0, amounts(100, 0, 0)};
    const std::int64_t t8bp = w.one(transfer(1, t8b, 64));
    const auto t8bend = w.tx({transfer(1, t8b, 0, amounts(100, 0, 0)), credit(1, 100, 1250, "transfer_in", "aft T8")});

    EXPECT_EQ(rows(w.store, std::string(kStatement) + "1 ORDER BY seq", 11),
              (std::vector<std::string>{
                  n(end[1]) + " bonus 400 3650 0 0 400 2000 400 NULL T8",
                  n(bet) + " bet -2500 1150 -100 -2000 -400 0 0 NULL NULL",
                  n(t8bend[1]) + " transfer_in 100 1250 100 0 0 0 0 NULL T8",
              }));
    EXPECT_EQ(rows(w.store, kTransfers, 19),
              (std::vector<std::string>{
                  // Requested in the segment before (carried pending): no request here.
                  "1 T8 16 bonus_coin_out full 0 full 0 0 400 0 0 400 0 0 NULL " + n(end[0]) + " 1 " + n(end[1]),
                  "2 T9 0 in_house_to_station full 136 refused 100 0 0 0 0 0 0 0 " + n(t9) + " " + n(t9) + " NULL NULL",
                  "1 T8 0 in_house_to_station full 0 full 100 0 0 100 0 0 0 0 " + n(t8bp) + " " + n(t8bend[0]) + " 0 " +
                      n(t8bend[1]),
              }));
}

// A journal of schema 3 (the independent fixture writer's v3.db) migrates to the views of schema 5:
// every movement cashable, no promotional balance, no transfer.
TEST(CashlessViews, AnOlderJournalMigratesAndReadsAllCashable) {
    TempDir dir;
    const fs::path path = dir.path() / "v3.db";
    fs::copy_file(test::sourceDir() / "tests/fixtures/journal/v3.db", path);
    JournalStore store(path.string(), StoreOptions{});
    EXPECT_EQ(store.schemaVersion(), latestSchemaVersion());
    EXPECT_EQ(rows(store,
                   "SELECT count(*), sum(amount), sum(cashable), sum(abs(restricted) + abs(nonrestricted) + "
                   "abs(restricted_balance) + abs(nonrestricted_balance)), count(tax_status), count(transfer_id) "
                   "FROM station_statement",
                   6),
              rows(store,
                   "SELECT count(*), sum(json_extract(body, '$.amount')), sum(json_extract(body, '$.amount')), 0, 0, 0 "
                   "FROM record WHERE kind = 'credit'",
                   6));
    EXPECT_EQ(rows(store, "SELECT balance FROM station_statement WHERE station = 1 ORDER BY seq DESC LIMIT 1", 1),
              (std::vector<std::string>{"6419"}));  // 5,450 - 1,020 + 1,989
    EXPECT_EQ(rows(store, "SELECT (SELECT count(*) FROM aft_transfers), (SELECT count(*) FROM legacy_bonuses)", 2),
              (std::vector<std::string>{"0 0"}));
}

}  // namespace
}  // namespace pitlink::journal
