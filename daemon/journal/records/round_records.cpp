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
    return body;
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

json toBody(const RoundOpenedRecord& record) {
    return json{{"shoe", record.shoe},
                {"round_in_shoe", record.roundInShoe},
                {"paytable", record.paytable},
                {"paytable_sha256", record.paytableSha},
                {"settle", game::settleRuleName(record.settle)}};
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
