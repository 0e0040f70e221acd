// Journal bodies whose fields do not fit (a float where an integer belongs, an integer beyond its
// type's range, text for a number) are refused as malformed bodies are, and nothing already
// recorded is lost. fuzz_journal_records found the first one: a round.opened with "shoe":1e107
// (tests/fuzz/corpus/journal_records/regression-shoe-1e107).
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "daemon/journal/body_fields.h"

namespace pitlink::journal {
namespace {

using nlohmann::json;

constexpr std::int64_t kMaxUint32 = std::numeric_limits<std::uint32_t>::max();

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

}  // namespace
}  // namespace pitlink::journal
