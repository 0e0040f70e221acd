#include "protocols/control/control_request.h"

#include <algorithm>
#include <array>
#include <sstream>
#include <utility>

#include "daemon/game/game_name.h"

namespace pitlink::control {

using nlohmann::json;

namespace {

constexpr std::array<std::pair<Command, std::string_view>, 20> kNames{{
    {Command::Status, "status"},
    {Command::Stations, "stations"},
    {Command::Meters, "meters"},
    {Command::Events, "events"},
    {Command::Roads, "roads"},
    {Command::Recall, "recall"},
    {Command::Audit, "audit"},
    {Command::Protection, "protection"},
    {Command::Io, "io"},
    {Command::Resettle, "resettle"},
    {Command::AttendantClear, "attendant_clear"},
    {Command::HandpayReset, "handpay_reset"},
    {Command::VoidRound, "void_round"},
    {Command::ShoeNew, "shoe_new"},
    {Command::TiltClear, "tilt_clear"},
    {Command::StationLimits, "station_limits"},
    {Command::DisputeResolve, "dispute_resolve"},
    {Command::ReserveRelease, "reserve_release"},
    {Command::StationLevel, "station_level"},
    {Command::LampsTest, "lamps_test"},
}};

// An integer field, or nullopt when absent or not an integer.
std::optional<std::int64_t> integerField(const json& request, const char* name) {
    const auto it = request.find(name);
    if (it == request.end() || !it->is_number_integer()) {
        return std::nullopt;
    }
    return it->get<std::int64_t>();
}

std::optional<std::int64_t> positiveField(const json& request, const char* name) {
    const auto value = integerField(request, name);
    return value && *value >= 1 ? value : std::nullopt;
}

std::string textField(const json& request, const char* name) {
    const auto it = request.find(name);
    return it != request.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Refusal unknownOrIncomplete(const std::string& name) {
    return Refusal{"bad_request", "unknown command '" + name + "' or a field is missing"};
}

void readFields(const json& in, ControlRequest& r) {
    switch (*r.command) {
        case Command::Status:
        case Command::Stations:
        case Command::Meters:
        case Command::Events:
        case Command::Audit:
        case Command::Io:
        case Command::ShoeNew:
            break;
        case Command::Roads:
        case Command::Protection:
            r.shoe = integerField(in, "shoe");
            break;
        case Command::Recall:
            r.round = positiveField(in, "round");
            r.station = positiveField(in, "station");
            r.last = std::min(positiveField(in, "last").value_or(10), kMostRecalled);
            break;
        case Command::AttendantClear:
        case Command::HandpayReset:
        case Command::ReserveRelease:
            r.station = integerField(in, "station");
            if (!r.station) {
                r.invalid = unknownOrIncomplete(r.name);
            }
            break;
        case Command::VoidRound:
            r.reason = textField(in, "reason");
            r.round = integerField(in, "round");
            if (r.reason.empty() || r.reason.size() > kMaxReasonChars) {
                r.invalid = Refusal{"bad_request", "void_round needs a \"reason\" of 1 to 500 characters"};
            }
            break;
        case Command::Resettle: {
            r.round = positiveField(in, "round");
            r.reason = textField(in, "reason");
            std::string problem;
            const auto cards = parseCoupCards(textField(in, "cards"), problem);
            if (cards) {
                r.cards = *cards;
            }
            if (!r.round || r.reason.empty() || r.reason.size() > kMaxReasonChars || !cards) {
                r.invalid =
                    Refusal{"bad_request", cards ? "resettle needs a \"round\" and a \"reason\" of 1 to 500 characters"
                                                 : "\"cards\": " + problem};
            }
            break;
        }
        case Command::TiltClear:
            r.cause = textField(in, "cause");
            break;
        case Command::LampsTest:
            if (in.contains("step_ms")) {
                const auto step = integerField(in, "step_ms");
                if (!step || *step < 100 || *step > 10'000) {
                    r.invalid = Refusal{"bad_request", "lamps_test's \"step_ms\" is 100 to 10000"};
                    break;
                }
                r.stepMs = *step;
            }
            break;
        case Command::StationLevel:
            r.station = positiveField(in, "station");
            r.level = positiveField(in, "level");
            if (!r.station || !r.level || *r.level > 20) {
                r.invalid = Refusal{"bad_request", "station_level needs a \"station\" and a \"level\" (1 to 20)"};
            }
            break;
        case Command::DisputeResolve: {
            r.station = positiveField(in, "station");
            r.round = positiveField(in, "round");
            r.reason = textField(in, "reason");
            const std::string decision = textField(in, "decision");
            if (decision == "upheld" || decision == "rejected") {
                r.upheld = decision == "upheld";
            }
            std::string problem;
            if (in.contains("cards")) {
                if (const auto cards = parseCoupCards(textField(in, "cards"), problem)) {
                    r.cards = *cards;
                }
            }
            if (!problem.empty()) {
                r.invalid = Refusal{"bad_request", "\"cards\": " + problem};
            } else if (!r.station || !r.upheld || r.reason.empty() || r.reason.size() > kMaxReasonChars ||
                       (in.contains("round") && !r.round)) {
                r.invalid = Refusal{"bad_request",
                                    "dispute_resolve needs a \"station\", a \"decision\" (upheld or rejected) and a "
                                    "\"reason\" of 1 to 500 characters; \"round\" and \"cards\" are optional"};
            } else if (!r.cards.empty() && !*r.upheld) {
                r.invalid = Refusal{"bad_request", "only an upheld dispute re-settles the round (\"cards\")"};
            }
            break;
        }
        case Command::StationLimits:
            r.station = positiveField(in, "station");
            r.min = positiveField(in, "min");
            r.max = positiveField(in, "max");
            if (!r.station || (in.contains("min") && !r.min) || (in.contains("max") && !r.max)) {
                r.invalid = Refusal{"bad_request",
                                    "station_limits needs a \"station\"; \"min\" and \"max\", when "
                                    "given, are positive integers (minor units)"};
            }
            break;
    }
}

}  // namespace

std::string_view commandName(Command command) {
    for (const auto& [c, name] : kNames) {
        if (c == command) {
            return name;
        }
    }
    return "?";
}

std::optional<Command> parseCommand(std::string_view name) {
    for (const auto& [c, n] : kNames) {
        if (n == name) {
            return c;
        }
    }
    return std::nullopt;
}

bool isReadOnly(Command command) {
    return command <= Command::Io;
}

std::optional<std::vector<game::Card>> parseCoupCards(const std::string& text, std::string& problem) {
    std::vector<game::Card> cards;
    std::istringstream words(text);
    std::string word;
    while (words >> word) {
        const auto card = game::parseCard(word);
        if (!card) {
            problem = "'" + word + "' is not a card (e.g. 9H, TS, KD)";
            return std::nullopt;
        }
        cards.push_back(*card);
    }
    if (cards.size() < 4 || cards.size() > 6) {
        problem = "a coup has 4 to 6 cards, in deal order";
        return std::nullopt;
    }
    return cards;
}

std::variant<ControlRequest, MalformedRequest> parseControlRequest(std::string_view line) {
    const json in = json::parse(line, nullptr, false);
    if (in.is_discarded() || !in.is_object() || !in.contains("cmd") || !in["cmd"].is_string()) {
        return MalformedRequest{Refusal{"bad_request", "a request is a JSON object with a \"cmd\""}};
    }
    ControlRequest r;
    r.id = in.value("id", json(nullptr));
    r.name = in["cmd"].get<std::string>();
    r.command = parseCommand(r.name);
    if (!r.command) {
        r.invalid = unknownOrIncomplete(r.name);
        return r;
    }
    if (const auto game = in.find("game"); game != in.end()) {
        if (!game->is_string() || !game::isGameName(game->get_ref<const std::string&>())) {
            r.invalid = Refusal{"bad_request", "\"game\" must be a game's name (1 to 32 of a-z, 0-9, - and _)"};
            return r;
        }
        r.game = game->get<std::string>();
    }
    readFields(in, r);
    return r;
}

json requestJson(const ControlRequest& r) {
    json out{{"cmd", r.command ? std::string(commandName(*r.command)) : r.name}};
    if (!r.id.is_null()) {
        out["id"] = r.id;
    }
    if (r.station) {
        out["station"] = *r.station;
    }
    if (r.round) {
        out["round"] = *r.round;
    }
    if (r.shoe) {
        out["shoe"] = *r.shoe;
    }
    if (r.game) {
        out["game"] = *r.game;
    }
    if (r.command == Command::Recall) {
        out["last"] = r.last;
    }
    if (!r.reason.empty()) {
        out["reason"] = r.reason;
    }
    if (!r.cards.empty()) {
        std::string text;
        for (const game::Card& card : r.cards) {
            text += (text.empty() ? "" : " ") + card.toString();
        }
        out["cards"] = text;
    }
    if (!r.cause.empty()) {
        out["cause"] = r.cause;
    }
    if (r.min) {
        out["min"] = *r.min;
    }
    if (r.max) {
        out["max"] = *r.max;
    }
    if (r.upheld) {
        out["decision"] = *r.upheld ? "upheld" : "rejected";
    }
    if (r.level) {
        out["level"] = *r.level;
    }
    if (r.command == Command::LampsTest) {
        out["step_ms"] = r.stepMs;
    }
    return out;
}

}  // namespace pitlink::control
