// The control socket's requests, parsed as pitlinkd's server takes them and written as pitlinkctl
// sends them (protocols/control/README.md).
#include "protocols/control/control_request.h"

#include <gtest/gtest.h>

namespace pitlink::control {
namespace {

ControlRequest parsed(std::string_view line) {
    auto r = parseControlRequest(line);
    EXPECT_TRUE(std::holds_alternative<ControlRequest>(r)) << line;
    return std::holds_alternative<ControlRequest>(r) ? std::get<ControlRequest>(r) : ControlRequest{};
}

TEST(ControlRequest, MalformedLinesAreRefusedWithoutACommand) {
    for (const char* line : {"", "{", "[1,2]", R"({"id":1})", R"({"cmd":7})", "null"}) {
        const auto r = parseControlRequest(line);
        ASSERT_TRUE(std::holds_alternative<MalformedRequest>(r)) << line;
        EXPECT_EQ(std::get<MalformedRequest>(r).refusal.error, "bad_request");
    }
}

TEST(ControlRequest, EachCommandWithItsFields) {
    const ControlRequest recall = parsed(R"({"cmd":"recall","id":"a","round":12,"station":3,"last":5000})");
    EXPECT_EQ(recall.command, Command::Recall);
    EXPECT_EQ(recall.id, "a");
    EXPECT_EQ(recall.round, 12);
    EXPECT_EQ(recall.station, 3);
    EXPECT_EQ(recall.last, kMostRecalled);  // at most 1000 rounds
    EXPECT_TRUE(isReadOnly(*recall.command));
    EXPECT_EQ(parsed(R"({"cmd":"recall","last":-4})").last, 10);  // not positive: the default

    const ControlRequest clear = parsed(R"({"cmd":"attendant_clear","station":4})");
    EXPECT_EQ(clear.station, 4);
    EXPECT_FALSE(clear.invalid);
    EXPECT_FALSE(isReadOnly(*clear.command));

    const ControlRequest resettle = parsed(R"({"cmd":"resettle","round":7,"cards":"2S 9H 4D KC","reason":"video"})");
    ASSERT_FALSE(resettle.invalid);
    ASSERT_EQ(resettle.cards.size(), 4U);
    EXPECT_EQ(resettle.cards[1].toString(), "9H");

    EXPECT_EQ(parsed(R"({"cmd":"roads","shoe":3})").shoe, 3);
    EXPECT_EQ(parsed(R"({"cmd":"tilt_clear","cause":"modbus"})").cause, "modbus");
    const ControlRequest voiding = parsed(R"({"cmd":"void_round","reason":"misdeal","round":9})");
    EXPECT_EQ(voiding.round, 9);
    EXPECT_EQ(voiding.reason, "misdeal");
}

TEST(ControlRequest, MissingOrBadFieldsAreNamedAfterTheRoleCheck) {
    const ControlRequest unknown = parsed(R"({"cmd":"format_disk","id":3})");
    EXPECT_FALSE(unknown.command);
    EXPECT_EQ(unknown.id, 3);
    ASSERT_TRUE(unknown.invalid);
    EXPECT_EQ(unknown.invalid->message, "unknown command 'format_disk' or a field is missing");
    EXPECT_TRUE(parsed(R"({"cmd":"handpay_reset"})").invalid);
    EXPECT_TRUE(parsed(R"({"cmd":"handpay_reset","station":"2"})").invalid);
    EXPECT_TRUE(parsed(R"({"cmd":"void_round"})").invalid);
    EXPECT_TRUE(parsed(R"({"cmd":"void_round","reason":")" + std::string(501, 'x') + R"("})").invalid);
    const ControlRequest badCards = parsed(R"({"cmd":"resettle","round":7,"cards":"2S 9H 4D","reason":"video"})");
    ASSERT_TRUE(badCards.invalid);
    EXPECT_EQ(badCards.invalid->message, "\"cards\": a coup has 4 to 6 cards, in deal order");
    const ControlRequest notACard = parsed(R"({"cmd":"resettle","round":7,"cards":"2S 9H 4D ZZ","reason":"v"})");
    ASSERT_TRUE(notACard.invalid);
    EXPECT_EQ(notACard.invalid->message, "\"cards\": 'ZZ' is not a card (e.g. 9H, TS, KD)");
    EXPECT_TRUE(parsed(R"({"cmd":"resettle","round":0,"cards":"2S 9H 4D KC","reason":"video"})").invalid);
    EXPECT_TRUE(parsed(R"({"cmd":"resettle","round":7,"cards":"2S 9H 4D KC","reason":5})").invalid);
}

TEST(ControlRequest, WhatPitlinkctlWritesIsWhatTheServerReads) {
    ControlRequest out;
    out.command = Command::Resettle;
    out.round = 41;
    out.reason = "video review";
    std::string problem;
    out.cards = parseCoupCards("2S 9H 4D KC 5C", problem).value();
    EXPECT_EQ(requestJson(out).dump(),
              R"({"cards":"2S 9H 4D KC 5C","cmd":"resettle","reason":"video review","round":41})");
    const ControlRequest back = parsed(requestJson(out).dump());
    EXPECT_FALSE(back.invalid);
    EXPECT_EQ(back.round, 41);
    EXPECT_EQ(back.cards.size(), 5U);

    ControlRequest recall;
    recall.command = Command::Recall;
    recall.last = 25;
    recall.station = 2;
    EXPECT_EQ(requestJson(recall).dump(), R"({"cmd":"recall","last":25,"station":2})");
}

}  // namespace
}  // namespace pitlink::control

namespace pitlink::control {
namespace {

TEST(ControlRequest, ADisputeResolutionNeedsItsStationDecisionAndReason) {
    const ControlRequest upheld = parsed(
        R"({"cmd":"dispute_resolve","station":2,"round":9,"decision":"upheld","reason":"video","cards":"2C 9H 3S TD"})");
    ASSERT_FALSE(upheld.invalid);
    EXPECT_EQ(upheld.command, Command::DisputeResolve);
    EXPECT_FALSE(isReadOnly(*upheld.command));
    EXPECT_EQ(upheld.station, 2);
    EXPECT_EQ(upheld.round, 9);
    EXPECT_EQ(upheld.upheld, true);
    ASSERT_EQ(upheld.cards.size(), 4U);
    EXPECT_EQ(upheld.cards[1].toString(), "9H");
    // pitlinkctl writes what the server parses back the same.
    const ControlRequest again = parsed(requestJson(upheld).dump());
    EXPECT_EQ(again.upheld, true);
    EXPECT_EQ(again.cards.size(), 4U);
    EXPECT_EQ(again.reason, "video");

    const ControlRequest rejected =
        parsed(R"({"cmd":"dispute_resolve","station":2,"decision":"rejected","reason":"no"})");
    ASSERT_FALSE(rejected.invalid);
    EXPECT_EQ(rejected.upheld, false);
    EXPECT_FALSE(rejected.round);

    for (const char* line : {
             R"({"cmd":"dispute_resolve","decision":"upheld","reason":"x"})",             // no station
             R"({"cmd":"dispute_resolve","station":2,"decision":"maybe","reason":"x"})",  // no such decision
             R"({"cmd":"dispute_resolve","station":2,"decision":"upheld"})",              // no reason
             R"({"cmd":"dispute_resolve","station":2,"decision":"upheld","reason":"x","round":0})",
             R"({"cmd":"dispute_resolve","station":2,"decision":"upheld","reason":"x","cards":"2C 9H"})",
             R"({"cmd":"dispute_resolve","station":2,"decision":"rejected","reason":"x","cards":"2C 9H 3S TD"})",
         }) {
        const ControlRequest r = parsed(line);
        ASSERT_TRUE(r.invalid) << line;
        EXPECT_EQ(r.invalid->error, "bad_request") << line;
    }
    const ControlRequest release = parsed(R"({"cmd":"reserve_release","station":4})");
    EXPECT_FALSE(release.invalid);
    EXPECT_EQ(release.command, Command::ReserveRelease);
    EXPECT_TRUE(parsed(R"({"cmd":"reserve_release"})").invalid);
}

}  // namespace
}  // namespace pitlink::control
