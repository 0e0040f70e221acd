// The engine link's requests as a station front end sends them (protocols/engine/README.md):
// each op with its fields, and what a wrong field is answered with.
#include "protocols/engine/engine_request.h"

#include <gtest/gtest.h>

namespace pitlink::engine {
namespace {

EngineRequest parsed(std::string_view line) {
    auto r = parseRequest(line);
    EXPECT_TRUE(std::holds_alternative<EngineRequest>(r)) << line << ": " << std::get<RequestError>(r).message;
    return std::holds_alternative<EngineRequest>(r) ? std::get<EngineRequest>(r) : EngineRequest{};
}

std::string errorOf(std::string_view line) {
    auto r = parseRequest(line);
    return std::holds_alternative<RequestError>(r) ? std::get<RequestError>(r).error : "accepted";
}

TEST(EngineRequest, StationFunctionsOfIssue20) {
    const EngineRequest reserve = parsed(R"({"id":1,"op":"reserve","station":3,"on":true,"pin":"0042"})");
    EXPECT_EQ(reserve.op, Op::Reserve);
    EXPECT_EQ(reserve.station, 3);
    EXPECT_TRUE(reserve.on);
    EXPECT_EQ(reserve.text, "0042");
    EXPECT_EQ(parsed(R"({"op":"reserve","station":3,"on":false})").text, "");
    EXPECT_EQ(errorOf(R"({"op":"reserve","station":3,"on":true,"pin":"12a4"})"), "bad_field");
    EXPECT_EQ(errorOf(R"({"op":"reserve","station":3,"on":true,"pin":"123"})"), "bad_field");
    EXPECT_EQ(errorOf(R"({"op":"reserve","station":3,"on":true,"pin":"123456789"})"), "bad_field");
    EXPECT_EQ(errorOf(R"({"op":"reserve","station":3,"on":true,"pin":1234})"), "bad_field");

    const EngineRequest autoRepeat = parsed(R"({"op":"auto_repeat","station":2,"on":true})");
    EXPECT_EQ(autoRepeat.op, Op::AutoRepeat);
    EXPECT_TRUE(autoRepeat.on);
    EXPECT_EQ(errorOf(R"({"op":"auto_repeat","station":2})"), "missing_field");
    EXPECT_EQ(errorOf(R"({"op":"auto_repeat","station":2,"on":1})"), "bad_field");

    EXPECT_EQ(parsed(R"({"op":"roads"})").op, Op::Roads);

    const EngineRequest list = parsed(R"({"op":"bet_list","station":5})");
    EXPECT_EQ(list.op, Op::BetList);
    EXPECT_EQ(list.round, 10);  // rounds: 10 unless asked
    EXPECT_EQ(parsed(R"({"op":"bet_list","station":5,"rounds":100})").round, 100);
    EXPECT_EQ(errorOf(R"({"op":"bet_list","station":5,"rounds":101})"), "bad_field");
    EXPECT_EQ(errorOf(R"({"op":"bet_list","station":5,"rounds":0})"), "bad_field");
    EXPECT_EQ(errorOf(R"({"op":"bet_list"})"), "missing_field");

    const EngineRequest dispute = parsed(R"({"op":"dispute","station":1,"round":17,"text":"wrong card"})");
    EXPECT_EQ(dispute.round, 17);
    EXPECT_EQ(dispute.text, "wrong card");
    EXPECT_EQ(errorOf(R"({"op":"dispute","station":1,"round":17})"), "missing_field");
}

TEST(EngineRequest, LinesThatAreNoRequest) {
    EXPECT_EQ(errorOf("{"), "malformed_json");
    EXPECT_EQ(errorOf("[]"), "not_an_object");
    EXPECT_EQ(errorOf(R"({"op":"fly"})"), "unknown_op");
    EXPECT_EQ(errorOf(R"({"id":3})"), "missing_field");
    EXPECT_EQ(errorOf(R"({"op":"bet","station":1001,"spot":"banker","stake":100})"), "bad_field");
}

}  // namespace
}  // namespace pitlink::engine
