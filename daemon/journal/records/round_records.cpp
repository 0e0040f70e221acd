#include "daemon/journal/records/round_records.h"

#include "daemon/journal/records/body_fields.h"

namespace pitlink::journal {

using nlohmann::json;

namespace {

json cardNames(const std::vector<game::Card>& cards) {
    json names = json::array();
    for (const game::Card& card : cards) {
        names.push_back(card.toString());
    }
    return names;
}

}  // namespace

json toBody(const ShoeStartedRecord& record) {
    json body{{"shoe", record.shoe}, {"decks", record.decks}};
    if (record.rng) {
        body["source"] = "rng";
        body["cards"] = record.rng->cards;
        body["cut_from_end"] = record.rng->cutFromEnd;
        body["burn_card"] = record.rng->burnCard.toString();
        body["burned"] = record.rng->burned;
    } else {
        body["source"] = "reader";
    }
    putIfSet(body, "reason", record.reason);
    return body;
}

ShoeStartedRecord fromBody(const json& body, std::type_identity<ShoeStartedRecord>) {
    ShoeStartedRecord r;
    r.shoe = integerField(body, "shoe", 1, kMaxShoeNumber);
    r.decks = integerField(body, "decks", game::kMinDecks, game::kMaxDecks);
    const std::string& source = stringField(body, "source");
    if (source == "rng") {
        const std::int64_t cards = integerField(body, "cards", 1, r.decks * game::kCardsPerDeck);
        r.rng = RngShoe{cards, integerField(body, "cut_from_end", 0, cards), cardField(body, "burn_card"),
                        integerField(body, "burned", 1, cards)};
    } else if (source != "reader") {
        throw BodyError("\"source\" must be \"rng\" or \"reader\", not \"" + source.substr(0, 20) + "\"");
    }
    r.reason = optionalStringField(body, "reason");
    return r;
}

json toBody(const ShoeEndedRecord& record) {
    return json{{"shoe", record.shoe}, {"rounds", record.rounds}, {"cards_left", record.cardsLeft}};
}

json toBody(const ShoeCutRecord& record) {
    return json{{"shoe", record.shoe}, {"cards_behind", record.cardsBehind}};
}

json toBody(const ShoeBurnedRecord& record) {
    return json{{"shoe", record.shoe}, {"cards", cardNames(record.cards)}, {"cards_left", record.cardsLeft}};
}

ShoeCutRecord fromBody(const json& body, std::type_identity<ShoeCutRecord>) {
    return ShoeCutRecord{integerField(body, "shoe", 1, kMaxShoeNumber),
                         integerField(body, "cards_behind", 1, kMaxShoeCards)};
}

ShoeBurnedRecord fromBody(const json& body, std::type_identity<ShoeBurnedRecord>) {
    ShoeBurnedRecord r;
    r.shoe = integerField(body, "shoe", 1, kMaxShoeNumber);
    const json& cards = arrayField(body, "cards");
    if (cards.empty() || cards.size() > static_cast<std::size_t>(game::kMaxBurn)) {
        throw BodyError("\"cards\" must hold 1 to " + std::to_string(game::kMaxBurn) + " cards");
    }
    for (const json& card : cards) {
        r.cards.push_back(cardValue(card, "a burned card"));
    }
    r.cardsLeft = integerField(body, "cards_left", 0, kMaxShoeCards);
    return r;
}

json toBody(const RoundOpenedRecord& record) {
    return json{{"shoe", record.shoe},
                {"round_in_shoe", record.roundInShoe},
                {"paytable", record.paytable},
                {"paytable_sha256", record.paytableSha},
                {"settle", game::settleRuleName(record.settle)}};
}

game::SettleRule settleRuleField(const json& openedBody) {
    const auto name = optionalStringField(openedBody, "settle");
    if (!name) {
        return game::SettleRule::PerBet;
    }
    const auto rule = game::parseSettleRule(*name);
    if (!rule) {
        throw BodyError("\"settle\" must be \"spot\" or \"bet\", not \"" + name->substr(0, 20) + "\"");
    }
    return *rule;
}

RoundOpenedRecord fromBody(const json& body, std::type_identity<RoundOpenedRecord>) {
    RoundOpenedRecord r;
    r.shoe = integerField(body, "shoe", 0, kMaxShoeNumber);
    r.roundInShoe = integerField(body, "round_in_shoe", 1, kMaxRoundInShoe);
    r.paytable = stringField(body, "paytable");
    r.paytableSha = stringField(body, "paytable_sha256");
    r.settle = settleRuleField(body);
    return r;
}

json toBody(const RoundClosedRecord& record) {
    json wagered = json::object();
    for (const auto& [station, stake] : record.wagered) {
        wagered[std::to_string(station)] = stake;
    }
    json body{{"wagered", std::move(wagered)}};
    if (record.deal) {
        body["deal"] = *record.deal;
    }
    return body;
}

RoundClosedRecord fromBody(const json& body, std::type_identity<RoundClosedRecord>) {
    RoundClosedRecord r;
    if (body.contains("wagered")) {
        for (const auto& [station, stake] : objectField(body, "wagered").items()) {
            r.wagered[stationKey(station)] = integerValue(stake, "wagered", 0, kMaxBodyMoney);
        }
    }
    r.deal = optionalIntegerField(body, "deal", 1, kMaxInt64);
    return r;
}

json toBody(const CardDealtRecord& record) {
    return json{{"position", record.position},
                {"card", record.card.toString()},
                {"source", record.source},
                {"rescans", record.rescans}};
}

CardDealtRecord fromBody(const json& body, std::type_identity<CardDealtRecord>) {
    return CardDealtRecord{integerField(body, "position", 1, 6), cardField(body, "card"), stringField(body, "source"),
                           integerField(body, "rescans", 0, kMaxInt64)};
}

json toBody(const CardRefusedRecord& record) {
    return json{{"position", record.position}, {"card", record.card.toString()}, {"reason", record.reason}};
}

json toBody(const RoundVoidedRecord& record) {
    json body{{"reason", record.reason}};
    if (record.by) {
        body["by"] = *record.by;
    }
    if (record.recovered) {
        body["recovered"] = true;
    }
    if (record.afterClose) {
        body["after_close"] = *record.afterClose;
    }
    return body;
}

RoundVoidedRecord fromBody(const json& body, std::type_identity<RoundVoidedRecord>) {
    RoundVoidedRecord r;
    r.reason = stringField(body, "reason");
    r.by = optionalStringField(body, "by");
    r.recovered = body.contains("recovered") && booleanField(body, "recovered");
    if (body.contains("after_close")) {
        r.afterClose = booleanField(body, "after_close");
    }
    return r;
}

json toBody(const DisputeRaisedRecord& record) {
    json body{{"text", record.text}};
    if (record.held) {
        body["held"] = true;
    }
    return body;
}

json toBody(const DisputeResolvedRecord& record) {
    return json{{"decision", record.upheld ? "upheld" : "rejected"},
                {"reason", record.reason},
                {"by", record.by},
                {"resettled", record.resettled}};
}

}  // namespace pitlink::journal
