// BodyParser (the audit's fast body parser) gives what nlohmann gives, value and type alike, for
// canonical bodies and for every body nlohmann reads otherwise than simdjson; its reading of one
// member is SQLite's json_extract, checked against SQLite itself; and the resume facts taken from
// a pass over a segment (ResumeRecordScan) are those of the segment's own scan.
#include "daemon/journal/records/body_parser.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <optional>
#include <string>
#include <vector>

#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/resume_facts.h"
#include "tests/support/json_same_value.h"
#include "tests/unit/journal_fixture.h"

namespace pitlink {
namespace {

using journal::BodyParser;
using nlohmann::json;

const std::vector<std::string>& bodies() {
    static const std::vector<std::string> all{
        R"({"amount":-500,"reason":"bet","round":12})",
        R"({"amount":500,"reason":"settlement","round":12})",
        R"({"amount":500,"reason":"settlement","round":12,"ticket":"100"})",
        R"({"amount":"500","reason":"settlement","round":12})",
        R"({"bets":[1,2,3],"spot":"banker","stake":300})",
        R"({"bets":[4],"spot":"player","stake":0})",
        R"({"bets":[],"spot":"player","stake":0})",
        R"({"a":{"b":{"c":[true,false,null,"x"]}}})",
        R"({"a":{"b":{"c":[1]}}})",
        R"({"z":1,"a":2})",                               // keys out of order
        R"({"a":1,"a":2})",                               // a key repeated: its last value
        R"({"a":-0})",                                    // nlohmann: a signed 0
        R"({"a":"-0"})",                                  //
        R"({"a":1.5})",                                   // floats: nlohmann's own reading
        R"({"a":1e2})",                                   //
        R"({"a":1e400})",                                 // refused by both
        R"({"a":9223372036854775807})",                   // the largest signed
        R"({"a":9223372036854775808})",                   // unsigned
        R"({"a":-9223372036854775808})",                  //
        R"({"a":-9223372036854775809})",                  // a float to nlohmann
        R"({"a":18446744073709551615})",                  //
        R"({"a":18446744073709551616})",                  // a float to nlohmann
        R"({"a":"\u00e9\ud83d\ude00\n\"\\"})",            // escapes
        R"({"a":"\ud800"})",                              // a lone surrogate: refused
        "{\"a\":\"\xC3\xA9\"}",                           // UTF-8
        "{\"a\":\"\xC0\x80\"}",                           // not UTF-8: refused
        "{\"a\":\"x\ty\"}",                               // a control character: refused
        "\xEF\xBB\xBF{\"a\":1}",                          // a byte order mark, which nlohmann skips
        " \r\n\t{\"a\":1} \n",                            //
        std::string("{\"a\":1}\0", 8),                    // a NUL after it
        R"({"a":01})",                                    //
        R"({"a":1,})",                                    //
        R"({"a":1} {"b":2})",                             //
        R"([1,2])",                                       // not an object
        R"("text")",                                      //
        "",                                               //
        "{",                                              //
        std::string(2000, '[') + std::string(2000, ']'),  // deeper than simdjson goes
    };
    return all;
}

TEST(BodyParserTest, ParsesEveryBodyAsNlohmannDoesOneAfterAnother) {
    BodyParser parser;
    // Twice through, so that each body follows bodies of other shapes and of its own.
    for (int round = 0; round < 2; ++round) {
        for (const std::string& text : bodies()) {
            const json expected = json::parse(text, nullptr, false);
            EXPECT_TRUE(test::sameJsonValue(parser.parse(text), expected)) << text;
            EXPECT_EQ(parser.isObject(text), expected.is_object()) << text;
        }
    }
}

TEST(BodyParserTest, CanonicalBodiesAreNotHandedToNlohmann) {
    BodyParser parser;
    for (const std::string_view text :
         {R"({"amount":-500,"reason":"bet","round":12})", R"({"bets":[1,2],"stake":3})"}) {
        EXPECT_EQ(parser.parse(text), json::parse(text));
        EXPECT_TRUE(parser.isObject(text));
    }
    EXPECT_EQ(parser.handedOver(), 0U);
    (void)parser.parse(R"({"a":-0})");
    (void)parser.isObject(R"({"a":1.5})");
    EXPECT_EQ(parser.handedOver(), 2U);
}

TEST(BodyParserTest, AParsedSignedZeroIsSignedAsNlohmannMakesIt) {
    BodyParser parser;
    (void)parser.parse(R"({"a":0})");
    EXPECT_TRUE(parser.parse(R"({"a":0})")["a"].is_number_unsigned());
    EXPECT_TRUE(parser.parse(R"({"a":-0})")["a"].is_number_integer());
    EXPECT_FALSE(parser.parse(R"({"a":-0})")["a"].is_number_unsigned());
}

// SQLite's own answer: the text, nullopt for NULL, or "<type>" for another type.
std::optional<std::string> sqliteExtract(sqlite3* db, const std::string& body) {
    sqlite3_stmt* statement = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, "SELECT typeof(json_extract(?, '$.game')), json_extract(?, '$.game')", -1,
                                 &statement, nullptr),
              SQLITE_OK);
    sqlite3_bind_text(statement, 1, body.data(), static_cast<int>(body.size()), SQLITE_TRANSIENT);
    sqlite3_bind_text(statement, 2, body.data(), static_cast<int>(body.size()), SQLITE_TRANSIENT);
    std::optional<std::string> out = "<error>";
    if (sqlite3_step(statement) == SQLITE_ROW) {
        const std::string type = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
        out = type == "null" ? std::nullopt
              : type == "text"
                  ? std::optional<std::string>(reinterpret_cast<const char*>(sqlite3_column_text(statement, 1)))
                  : "<" + type + ">";
    }
    sqlite3_finalize(statement);
    return out;
}

TEST(BodyParserTest, AMemberIsReadAsSqliteReadsItOrNotAtAll) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
    BodyParser parser;
    // Read here: a string, none, null, a repeated key (its first), a non-object.
    const std::vector<std::string> known{R"({"game":"alpha","shoe":3})",
                                         R"({"shoe":3})",
                                         R"({"game":null})",
                                         R"({"game":"beta","game":"zeta"})",
                                         R"({"shoe":{"game":"no"}})",
                                         "{\"game\":\"\xC3\xA9t\xC3\xA9\"}"};
    for (const std::string& body : known) {
        const auto read = parser.memberAsSqlText(body, "game");
        ASSERT_TRUE(read.has_value()) << body;
        EXPECT_EQ(*read, sqliteExtract(db, body)) << body;
    }
    EXPECT_EQ(*parser.memberAsSqlText(R"({"game":"beta","game":"zeta"})", "game"), "beta");
    // Left to SQLite: escapes (SQLite matches keys as written), other types, what simdjson refuses.
    const std::vector<std::string> unknown{
        R"({"g\u0061me":"alpha"})",
        R"({"game":"alph\u0061"})",
        R"({"game":7})",
        R"({"game":true})",
        R"({"game":["a"]})",
        R"([{"game":"a"}])",
        R"({"game":1.5})",
        "\xEF\xBB\xBF{\"game\":\"a\"}",
        std::string("{\"game\":\"a\"}\0", 13),
        "{\"game\":\"a\",\"x\":" + std::string(1000, '[') + std::string(1000, ']') + "}"};
    for (const std::string& body : unknown) {
        EXPECT_FALSE(parser.memberAsSqlText(body, "game").has_value()) << body;
    }
    sqlite3_close(db);
}

TEST(ResumeRecordScanTest, GivesTheFactsOfTheSegmentsOwnScan) {
    namespace kind = journal::kind;
    test::JournalFixture f;
    f.table->ticketIn(1, 100'000, "1000000000000001");
    (void)f.playRound({{1, game::BetType::Banker, 500}}, "9S 2H KD 4C");
    // Records naming games in every way a body can name one (or seem to): read by the scan where
    // it reads them as SQLite does, else by SQLite.
    const std::vector<std::tuple<std::string, std::optional<std::int64_t>, std::optional<std::int64_t>, std::string>> raw{
        {std::string(kind::kRoundOpened), 900, std::nullopt, R"({"game":"beta"})"},
        {std::string(kind::kShoeStarted), std::nullopt, std::nullopt,
         R"({"burn_card":"5H","burned":5,"cards":416,"cut_from_end":14,"decks":8,"game":"beta","shoe":7,"source":"rng"})"},
        {std::string(kind::kRoundOpened), 901, std::nullopt, R"({"game":"g\u0061mma"})"},
        {std::string(kind::kRoundOpened), 902, std::nullopt, R"({"g\u0061me":"delta"})"},
        {std::string(kind::kRoundOpened), 903, std::nullopt, R"({"game":"epsilon","game":"zeta"})"},
        {std::string(kind::kTicketIssued), std::nullopt, 1, R"({"amount":100})"},
        {std::string(kind::kAttendantCalled), std::nullopt, 2, R"({})"}};
    std::vector<journal::PendingRecord> records;
    for (const auto& [k, round, station, body] : raw) {
        records.push_back(journal::PendingRecord{f.clockMs, k, round, station, body});
    }
    (void)f.store->append(records);
    journal::ResumeRecordScan scan;
    f.store->forEach(1, INT64_MAX, [&](const journal::JournalRecord& record) {
        scan.visit(record);
        return true;
    });
    const auto carried = journal::carriedState(*f.store);
    const json expected = journal::resumeFactsJson(journal::resumeFacts(*f.store, carried, "alpha"));
    const json fromScan = journal::resumeFactsJson(journal::resumeFacts(*f.store, carried, "alpha", std::move(scan)));
    EXPECT_EQ(fromScan, expected);
    // What the segment's scan found, so that the comparison compares something: the first of a
    // repeated key, a game written with an escape, and no game for a key written with one (SQLite
    // matches keys as written): the first game's last round.
    const json& games = expected.at("other_games");
    EXPECT_TRUE(games.contains("epsilon") && games.contains("gamma")) << expected.dump();
    EXPECT_FALSE(games.contains("zeta") || games.contains("delta")) << expected.dump();
    EXPECT_EQ(expected.at("game_last_round"), 902) << expected.dump();
}

}  // namespace
}  // namespace pitlink
