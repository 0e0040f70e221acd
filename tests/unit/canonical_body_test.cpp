// The reader of bodies as the daemon writes them (canonical_body.h): what it takes it reads as
// nlohmann reads it, value and type alike, merged into whatever the value held before; and it
// takes nothing it might read otherwise, which BodyParser then reads the general way.
#include "daemon/journal/records/canonical_body.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "daemon/journal/store/record.h"
#include "tests/support/json_same_value.h"

namespace pitlink {
namespace {

using journal::isCanonicalObject;
using journal::readCanonicalBody;
using nlohmann::json;

// Written as canonicalJson writes: taken.
const std::vector<std::string>& taken() {
    static const std::vector<std::string> all{
        R"({})",
        R"({"amount":-500,"balance":4988940,"reason":"bet"})",
        R"({"bets":[1],"breakage":"0","result":"win","returned":1755,"spot":"banker","stake":900,"tier":0,"win":855})",
        R"({"acked":[{"code":126,"serial":52323},{"code":127,"serial":52324}]})",
        R"({"a":{"b":{"c":[true,false,null,"x",[],{}]}}})",
        R"({"a":0,"b":-1,"c":999999999999999999,"d":-999999999999999999})",
        R"({"a":"","b":" !#$%&'()*+,-./09:;<=>?@AZ[]^_`az{|}~"})",
        R"({"A":1,"B":2,"a":3,"b":4})",  // byte order: upper case first
    };
    return all;
}

// Valid JSON read by nlohmann, but not as written here (or not at all): refused.
const std::vector<std::string>& refused() {
    static const std::vector<std::string> all{
        R"({"z":1,"a":2})",               // keys out of order
        R"({"a":1,"a":2})",               // a key repeated
        R"({"a":-0})",                    // nlohmann keeps its sign
        R"({"a":1.5})",                   // a float
        R"({"a":1e2})",                   //
        R"({"a":1E2})",                   //
        R"({"a":1000000000000000000})",   // 19 digits
        R"({"a":-1000000000000000000})",  //
        R"({"a":"\n"})",                  // an escape
        "{\"a\":\"\xC3\xA9\"}",           // a byte above 0x7E
        "{\"a\":\"\x7F\"}",               //
        "{\"a\":\"x\ty\"}",               // a control character (not JSON either)
        R"({ "a":1})",                    // white space
        R"({"a":1} )",                    //
        "\xEF\xBB\xBF{\"a\":1}",          // a byte order mark
        R"([1,2])",                       // not an object at the root
        R"("text")",                      //
        R"({"a":01})",                    // not JSON
        R"({"a":1,})",                    //
        R"({"a":1}{"b":2})",              //
        R"({"a":tru})",                   //
        R"({"a":nul)",                    //
        R"({"a":-})",                     //
        R"({"a")",                        //
        R"({"a":"x)",                     //
        "{",                              //
        "",                               //
        std::string("{\"a\":1}\0", 8),    // a NUL after it
        std::string(40, '[') + std::string(40, ']'),
        R"({"a":)" + std::string(40, '[') + std::string(40, ']') + "}",  // deeper than kDeepest
    };
    return all;
}

TEST(CanonicalBodyTest, TakesBodiesAsTheDaemonWritesThemAndReadsThemAsNlohmannDoes) {
    for (const std::string& text : taken()) {
        json read;
        ASSERT_TRUE(readCanonicalBody(text, read)) << text;
        EXPECT_TRUE(test::sameJsonValue(read, json::parse(text))) << text;
        EXPECT_TRUE(isCanonicalObject(text)) << text;
    }
    json read;
    ASSERT_TRUE(readCanonicalBody(R"({"n":7,"s":-7})", read));
    EXPECT_TRUE(read.at("n").is_number_unsigned());  // as nlohmann makes a non-negative integer
    EXPECT_TRUE(read.at("s").is_number_integer() && !read.at("s").is_number_unsigned());
    EXPECT_EQ(read.at("s").get<std::int64_t>(), -7);
}

TEST(CanonicalBodyTest, RefusesWhatItWouldNotReadExactly) {
    for (const std::string& text : refused()) {
        json read;
        EXPECT_FALSE(readCanonicalBody(text, read)) << text;
        EXPECT_FALSE(isCanonicalObject(text)) << text;
    }
}

TEST(CanonicalBodyTest, WhatTheDaemonWritesIsTaken) {
    // canonicalJson's own output, with the kinds of values bodies hold.
    const json body{{"wagered", {{"2", 900}, {"5", 1400}}},
                    {"cards", {"KD", "5C"}},
                    {"amount", -900},
                    {"ok", true},
                    {"none", nullptr},
                    {"note", "call #3 (table 7)"}};
    const std::string text = journal::canonicalJson(body);
    json read;
    ASSERT_TRUE(readCanonicalBody(text, read)) << text;
    EXPECT_TRUE(test::sameJsonValue(read, json::parse(text)));
}

TEST(CanonicalBodyTest, EachBodyReadIntoTheValueBeforeIsThatBodyAlone) {
    // Keys kept, gone, new and changed in type, one value reused for all: the storage is merged,
    // the value is each body's own.
    const std::vector<std::string> texts{
        R"({"a":1,"b":"x","c":[1,2,3],"d":{"e":1}})",
        R"({"a":"one","c":[4],"d":{"f":2}})",
        R"({"b":2,"c":[],"z":null})",
        R"({"a":1,"b":"x","c":[1,2,3],"d":{"e":1}})",
        R"({"c":{"a":1},"d":[true]})",
        R"({})",
        R"({"a":-3})",
    };
    json read;
    for (int round = 0; round < 2; ++round) {
        for (const std::string& text : texts) {
            ASSERT_TRUE(readCanonicalBody(text, read)) << text;
            EXPECT_TRUE(test::sameJsonValue(read, json::parse(text))) << text;
        }
    }
}

}  // namespace
}  // namespace pitlink
