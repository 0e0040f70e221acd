#include "daemon/journal/records/station_records.h"

#include "daemon/journal/records/body_fields.h"
#include "daemon/journal/records/slip_json.h"

namespace pitlink::journal {

using nlohmann::json;

json toBody(const BetAcceptedRecord& record) {
    return json{{"bet", record.bet}, {"spot", record.spot}, {"stake", record.stake}, {"action", record.action}};
}

json toBody(const BetRefusedRecord& record) {
    return json{
        {"action", record.action}, {"slip", slipJson(record.slip)}, {"rule", record.rule}, {"message", record.message}};
}

json toBody(const BetWithdrawnRecord& record) {
    return json{{"bet", record.bet}, {"action", record.action}};
}

json toBody(const BetsConfirmedRecord& record) {
    return json{{"slip", slipJson(record.slip)}, {"by", record.by}};
}

json toBody(const RequestRefusedRecord& record) {
    json body{{"op", record.op}, {"error", record.error}, {"message", record.message}};
    const RefusedRequest& r = record.request;
    if (r.slip) {
        body["slip"] = slipJson(*r.slip);
    }
    putIfSet(body, "chip", r.chip);
    putIfSet(body, "amount", r.amount);
    putIfSet(body, "validation", r.validation);
    putIfSet(body, "on", r.on);
    putIfSet(body, "level", r.level);
    putIfSet(body, "denomination", r.denomination);
    putIfSet(body, "round", r.round);
    putIfSet(body, "decision", r.decision);
    putIfSet(body, "by", r.by);
    putIfSet(body, "cause", r.cause);
    putIfSet(body, "reserved", r.reserved);
    putIfSet(body, "min", r.min);
    putIfSet(body, "max", r.max);
    putIfSet(body, "cards_behind", r.cardsBehind);
    putIfSet(body, "cards", r.cards);
    putIfSet(body, "card", r.card);
    putIfSet(body, "reason", r.reason);
    putIfSet(body, "tax_status", r.taxStatus);
    putIfSet(body, "station", record.station);
    return body;
}

json toBody(const AttendantCalledRecord& record) {
    return json{{"by", record.by}};
}

json toBody(const AttendantClearedRecord& record) {
    return json{{"by", record.by}};
}

json toBody(const DoorOpenedRecord& record) {
    return json{{"door", record.door}};
}

json toBody(const DoorClosedRecord& record) {
    return json{{"door", record.door}};
}

json toBody(const TiltRaisedRecord& record) {
    return json{{"cause", record.cause}, {"message", record.message}};
}

json toBody(const TiltClearedRecord& record) {
    return json{{"cause", record.cause}, {"by", record.by}};
}

json toBody(const StationReservedRecord& record) {
    json body = reservationJson(record.reservation);
    if (record.by) {
        body["by"] = *record.by;
    }
    return body;
}

StationReservedRecord fromBody(const json& body, std::type_identity<StationReservedRecord>) {
    StationReservedRecord r;
    r.reservation = reservationFact(body);
    if (const auto by = body.find("by"); by != body.end() && by->is_string()) {
        r.by = by->get<std::string>();
    }
    return r;
}

json toBody(const StationGamesRecord& record) {
    return json{{"action", record.action}, {"game", record.game}, {"games", record.games}};
}

StationGamesRecord fromBody(const json& body, std::type_identity<StationGamesRecord>) {
    StationGamesRecord r;
    r.action = stringField(body, "action");
    r.game = stringField(body, "game");
    r.games = gameNamesField(body, "games");
    return r;
}

json toBody(const StationStateRecord& record) {
    return stationStateJson(record.state, record.by);
}

}  // namespace pitlink::journal
