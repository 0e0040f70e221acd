#include "daemon/journal/round_history.h"

#include <algorithm>
#include <stdexcept>

#include "daemon/game/third_card_rule.h"
#include "daemon/journal/record_kinds.h"

namespace pitlink::journal {

using nlohmann::json;

std::string_view roundStateName(RoundState state) {
    switch (state) {
    case RoundState::Open: return "open";
    case RoundState::Closed: return "closed";
    case RoundState::Dealing: return "dealing";
    case RoundState::Settled: return "settled";
    case RoundState::Voided: return "voided";
    }
    return "?";
}

namespace {

BetOutcome outcomeOf(const json& body) {
    return BetOutcome{body.at("result").get<std::string>(), body.at("tier").get<std::int64_t>(),
                      body.at("win").get<game::Money>(), body.at("returned").get<game::Money>(),
                      body.at("breakage").get<std::string>()};
}

void applyRecord(RoundHistory& round, const JournalRecord& record, const json& body) {
    const std::string_view k = record.kind;
    if (k == kind::kRoundOpened) {
        round.shoe = body.at("shoe").get<std::int64_t>();
        round.roundInShoe = body.at("round_in_shoe").get<std::int64_t>();
        round.paytableId = body.at("paytable").get<std::string>();
        round.paytableSha = body.at("paytable_sha256").get<std::string>();
        round.openedAtMs = record.atMs;
        round.state = RoundState::Open;
    } else if (k == kind::kBetAccepted) {
        const auto spot = game::parseBetType(body.at("spot").get<std::string>());
        if (!spot || !record.station) {
            throw std::invalid_argument("bet.accepted " + std::to_string(record.seq) + " without station or spot");
        }
        round.bets.push_back(RoundBet{body.at("bet").get<std::int64_t>(), *record.station, *spot,
                                      body.at("stake").get<game::Money>()});
    } else if (k == kind::kBetWithdrawn) {
        const auto index = body.at("bet").get<std::int64_t>();
        std::erase_if(round.bets, [&](const RoundBet& bet) { return bet.index == index; });
    } else if (k == kind::kRoundClosed) {
        round.state = RoundState::Closed;
    } else if (k == kind::kCardDealt) {
        const auto card = game::parseCard(body.at("card").get<std::string>());
        if (!card) {
            throw std::invalid_argument("card.dealt " + std::to_string(record.seq) + " with an unknown card");
        }
        round.cards.push_back(DealtCard{body.at("position").get<std::int64_t>(), *card});
        round.state = RoundState::Dealing;
    } else if (k == kind::kRoundSettled || k == kind::kRoundResettled) {
        // Recall, roads and re-settlement read the hands and outcome in force from this body.
        for (const char* side : {"player", "banker"}) {
            const json& hand = body.at(side);
            if (!hand.is_array() || hand.size() < 2 || hand.size() > 3) {
                throw std::invalid_argument(std::string(k) + " " + std::to_string(record.seq) + ": the " + side +
                                            " hand must be 2 or 3 cards");
            }
            for (const json& card : hand) {
                if (!game::parseCard(card.get<std::string>())) {
                    throw std::invalid_argument(std::string(k) + " " + std::to_string(record.seq) + " with an unknown " +
                                                side + " card");
                }
            }
        }
        if (!body.at("outcome").is_object()) {
            throw std::invalid_argument(std::string(k) + " " + std::to_string(record.seq) + " without an outcome");
        }
        round.settlement = body;
        round.state = RoundState::Settled;
        round.endedAtMs = k == kind::kRoundSettled ? record.atMs : round.endedAtMs;
        round.resettlements += k == kind::kRoundResettled ? 1 : 0;
    } else if (k == kind::kBetSettled || k == kind::kBetAdjusted) {
        round.outcomes[body.at("bet").get<std::int64_t>()] = outcomeOf(body);
    } else if (k == kind::kRoundVoided) {
        round.state = RoundState::Voided;
        round.voidReason = body.at("reason").get<std::string>();
        round.endedAtMs = record.atMs;
    }
}

}  // namespace

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

}  // namespace pitlink::journal
