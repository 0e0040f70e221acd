// Replies to one client leave in the order of its requests, whatever finishes first.
#include "daemon/io/ordered_replies.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace pitlink::io {
namespace {

TEST(OrderedReplies, AReplyReadyEarlyWaitsForEveryReplyBeforeIt) {
    std::vector<std::string> sent;
    auto replies = OrderedReplies::create([&](const std::string& line) { sent.push_back(line); });
    auto first = replies->next();
    auto second = replies->next();
    auto third = replies->next();
    third("3");
    second("2");
    EXPECT_TRUE(sent.empty());
    EXPECT_EQ(replies->held(), 2U);
    first("1");
    EXPECT_EQ(sent, (std::vector<std::string>{"1", "2", "3"}));
    EXPECT_EQ(replies->held(), 0U);
    EXPECT_EQ(replies->outstanding(), 0U);
}

TEST(OrderedReplies, APlaceFilledTwiceKeepsItsFirstReplyAndCountsTheSecond) {
    std::vector<std::string> sent;
    auto replies = OrderedReplies::create([&](const std::string& line) { sent.push_back(line); });
    auto first = replies->next();
    auto second = replies->next();
    second("b");
    second("b again");
    first("a");
    first("a again");
    EXPECT_EQ(sent, (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(replies->duplicates(), 2U);
}

TEST(OrderedReplies, AReplyForAClientThatWentAwayGoesNowhere) {
    std::vector<std::string> sent;
    auto replies = OrderedReplies::create([&](const std::string& line) { sent.push_back(line); });
    auto late = replies->next();
    replies.reset();
    late("nobody");
    EXPECT_TRUE(sent.empty());
}

}  // namespace
}  // namespace pitlink::io
