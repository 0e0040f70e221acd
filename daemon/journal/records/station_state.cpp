#include "daemon/journal/records/station_state.h"

#include "daemon/journal/records/body_fields.h"
#include "daemon/journal/records/slip_json.h"

namespace pitlink::journal {

using nlohmann::json;

json personalLimitsJson(const game::PersonalLimits& personal) {
    json out = json::object();
    if (personal.min) {
        out["min"] = *personal.min;
    }
    if (personal.max) {
        out["max"] = *personal.max;
    }
    return out;
}

json stationStateJson(const StationState& state, const std::string& by) {
    json body{{"last_slip", slipJson(state.lastSlip)},
              {"streak", json{{"losses", state.streak.losses}, {"last_stake", state.streak.lastStake}}},
              {"limit_level", state.limitLevel},
              {"personal_limits", personalLimitsJson(state.personal)}};
    if (state.autoRepeat) {
        body["auto_repeat"] = true;
    }
    if (state.keepBets) {
        body["keep_bets"] = true;
    }
    if (state.denomination) {
        body["denomination"] = *state.denomination;
    }
    if (!by.empty()) {
        body["by"] = by;
    }
    return body;
}

StationState stationStateFact(const json& body) {
    StationState state;
    for (const auto& [spot, stake] : objectField(body, "last_slip").items()) {
        const auto type = game::parseBetType(spot);
        if (!type) {
            throw BodyError("station.state: \"" + spot + "\" is not a bet spot");
        }
        state.lastSlip[*type] = integerValue(stake, "a last slip's stake", 1, kMaxBodyMoney);
    }
    const json& streak = objectField(body, "streak");
    state.streak.losses = static_cast<int>(integerField(streak, "losses", 0, 1'000'000'000));
    state.streak.lastStake = integerField(streak, "last_stake", 0, kMaxBodyMoney);
    state.limitLevel = static_cast<int>(integerField(body, "limit_level", 1, 20));
    const json& personal = objectField(body, "personal_limits");
    state.personal.min = optionalIntegerField(personal, "min", 1, kMaxBodyMoney);
    state.personal.max = optionalIntegerField(personal, "max", 1, kMaxBodyMoney);
    state.autoRepeat = body.contains("auto_repeat") && booleanField(body, "auto_repeat");
    state.keepBets = body.contains("keep_bets") && booleanField(body, "keep_bets");
    state.denomination = optionalIntegerField(body, "denomination", 1, 1'000'000);
    return state;
}

}  // namespace pitlink::journal
