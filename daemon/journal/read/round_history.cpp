#include "daemon/journal/read/round_history.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "daemon/game/third_card_rule.h"
#include "daemon/journal/records/body_fields.h"
#include "daemon/journal/records/record_kinds.h"

namespace pitlink::journal {

using nlohmann::json;

std::string_view roundStateName(RoundState state) {
    switch (state) {
        case RoundState::Open:
            return "open";
        case RoundState::Closed:
            return "closed";
        case RoundState::Dealing:
            return "dealing";
        case RoundState::Settled:
            return "settled";
        case RoundState::Voided:
            return "voided";
    }
    return "?";
}

namespace {

BetOutcome outcomeOf(const json& body, game::SettleRule rule) {
    BetOutcome out;
    out.bets = settledBetIndexes(body, rule);
    out.result = stringField(body, "result");
    out.tier = integerField(body, "tier", 0, game::kMaxPayTiers - 1);
    out.win = integerField(body, "win", 0, kMaxBodyMoney);
    out.returned = integerField(body, "returned", 0, kMaxBodyMoney);
    out.breakage = stringField(body, "breakage");
    return out;
}

std::int64_t betIndex(const json& body) {
    return integerField(body, "bet", 1, kMaxInt64);
}

void applyRecord(RoundHistory& round, const JournalRecord& record, const json& body) {
    const std::string_view k = record.kind;
    if (k == kind::kRoundOpened) {
        round.shoe = integerField(body, "shoe", 0, std::numeric_limits<std::uint32_t>::max());
        round.roundInShoe = integerField(body, "round_in_shoe", 0, std::numeric_limits<int>::max());
        round.paytableId = stringField(body, "paytable");
        round.paytableSha = stringField(body, "paytable_sha256");
        round.rule = settleRuleField(body);
        round.openedAtMs = record.atMs;
        round.state = RoundState::Open;
        if (body.contains("game")) {
            round.gameName = gameNameValue(body.at("game"), "round.opened's \"game\"");
        }
    } else if (k == kind::kBetAccepted) {
        const auto spot = game::parseBetType(stringField(body, "spot"));
        if (!spot || !record.station) {
            throw std::invalid_argument("bet.accepted " + std::to_string(record.seq) + " without station or spot");
        }
        round.bets.push_back(RoundBet{betIndex(body), *record.station, *spot,
                                      integerField(body, "stake", 1, kMaxBodyStake),
                                      optionalStringField(body, "action").value_or("")});
    } else if (k == kind::kBetWithdrawn) {
        const auto index = betIndex(body);
        std::erase_if(round.bets, [&](const RoundBet& bet) { return bet.index == index; });
    } else if (k == kind::kRoundClosed) {
        round.state = RoundState::Closed;
    } else if (k == kind::kCardDealt) {
        const auto card = game::parseCard(stringField(body, "card"));
        if (!card) {
            throw std::invalid_argument("card.dealt " + std::to_string(record.seq) + " with an unknown card");
        }
        round.cards.push_back(DealtCard{integerField(body, "position", 1, kMaxInt64), *card});
        round.state = RoundState::Dealing;
    } else if (k == kind::kRoundSettled || k == kind::kRoundResettled) {
        // Recall, roads and re-settlement read the hands and outcome in force from this body.
        for (const char* side : {"player", "banker"}) {
            const json& hand = arrayField(body, side);
            if (hand.size() < 2 || hand.size() > 3) {
                throw std::invalid_argument(std::string(k) + " " + std::to_string(record.seq) + ": the " + side +
                                            " hand must be 2 or 3 cards");
            }
            for (const json& card : hand) {
                if (!game::parseCard(stringValue(card, std::string("a ") + side + " card"))) {
                    throw std::invalid_argument(std::string(k) + " " + std::to_string(record.seq) +
                                                " with an unknown " + side + " card");
                }
            }
        }
        (void)objectField(body, "outcome");
        round.settlement = body;
        round.state = RoundState::Settled;
        round.endedAtMs = k == kind::kRoundSettled ? record.atMs : round.endedAtMs;
        round.resettlements += k == kind::kRoundResettled ? 1 : 0;
    } else if (k == kind::kBetSettled || k == kind::kBetAdjusted) {
        BetOutcome outcome = outcomeOf(body, round.rule);
        const std::int64_t first = outcome.bets.front();
        round.outcomes[first] = std::move(outcome);
    } else if (k == kind::kRoundVoided) {
        round.state = RoundState::Voided;
        round.voidReason = stringField(body, "reason");
        round.endedAtMs = record.atMs;
    }
}

}  // namespace

std::vector<std::int64_t> settledBetIndexes(const json& body, game::SettleRule rule) {
    if (rule == game::SettleRule::PerBet) {
        if (body.contains("bets")) {
            throw BodyError("a settlement by spot (\"bets\") in a round settled per bet");
        }
        return {betIndex(body)};
    }
    if (body.contains("bet")) {
        throw BodyError("a settlement of one bet (\"bet\") in a round settled by spot");
    }
    const json& list = arrayField(body, "bets");
    std::vector<std::int64_t> out;
    out.reserve(list.size());
    for (const json& index : list) {
        const std::int64_t bet = integerValue(index, "a bet of \"bets\"", 1, kMaxInt64);
        if (!out.empty() && bet <= out.back()) {
            throw BodyError("\"bets\" must be ascending, without repeats");
        }
        out.push_back(bet);
    }
    if (out.empty()) {
        throw BodyError("\"bets\" names no bet");
    }
    return out;
}

RoundHistory reconstructRound(std::vector<JournalRecord> records) {
    RoundHistory round;
    if (records.empty() || records.front().kind != kind::kRoundOpened || !records.front().roundId) {
        throw std::invalid_argument("a round's records must begin with round.opened");
    }
    round.roundId = *records.front().roundId;
    for (const JournalRecord& record : records) {
        const json body = json::parse(record.body, nullptr, false);
        if (body.is_discarded()) {
            throw std::invalid_argument("record " + std::to_string(record.seq) + " has a malformed body");
        }
        try {
            applyRecord(round, record, body);
        } catch (const json::exception& error) {
            throw std::invalid_argument("record " + std::to_string(record.seq) + " (" + record.kind +
                                        "): " + error.what());
        }
    }
    round.records = std::move(records);
    return round;
}

std::optional<game::Coup> completeCoup(const std::vector<DealtCard>& cards, std::string& problem) {
    std::vector<DealtCard> ordered = cards;
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const DealtCard& a, const DealtCard& b) { return a.position < b.position; });
    game::Coup coup;
    for (std::size_t i = 0; i < ordered.size(); ++i) {
        if (ordered[i].position != static_cast<std::int64_t>(i) + 1) {
            problem = "card positions are not 1.." + std::to_string(ordered.size()) + " without gaps";
            return std::nullopt;
        }
        const auto side = game::nextCardFor(coup);
        if (!side) {
            problem = "card at position " + std::to_string(i + 1) + " after the coup was complete";
            return std::nullopt;
        }
        coup.hand(*side).add(ordered[i].card);
    }
    if (game::nextCardFor(coup)) {
        problem = "the coup is incomplete (" + std::to_string(ordered.size()) + " cards)";
        return std::nullopt;
    }
    return coup;
}

std::optional<game::Coup> coupInForce(const RoundHistory& round) {
    if (!round.settlement.is_object()) {
        return std::nullopt;
    }
    const auto handOf = [&](std::string_view side) {
        game::Hand hand;
        const nlohmann::json& cards = arrayField(round.settlement, side);
        if (cards.size() > 3) {
            throw BodyError("\"" + std::string(side) + "\" holds more than three cards");
        }
        for (const nlohmann::json& card : cards) {
            const auto parsed = game::parseCard(stringValue(card, side));
            if (!parsed) {
                throw BodyError("\"" + std::string(side) + "\" holds " + card.dump() + ", which is not a card");
            }
            hand.add(*parsed);
        }
        return hand;
    };
    return game::Coup{handOf("player"), handOf("banker")};
}

}  // namespace pitlink::journal
