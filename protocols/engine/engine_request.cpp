#include "protocols/engine/engine_request.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

#include "daemon/game/game_name.h"

namespace pitlink::engine {

using nlohmann::json;

namespace {

constexpr std::array<std::pair<Op, std::string_view>, 35> kOps{{
    {Op::Status, "status"},
    {Op::NewShoe, "new_shoe"},
    {Op::OpenRound, "open_round"},
    {Op::CloseBets, "close_bets"},
    {Op::Card, "card"},
    {Op::CardUnreadable, "card_unreadable"},
    {Op::VoidRound, "void_round"},
    {Op::Bet, "bet"},
    {Op::Clear, "clear"},
    {Op::Undo, "undo"},
    {Op::Repeat, "repeat"},
    {Op::Double, "double"},
    {Op::CashOut, "cash_out"},
    {Op::TicketIn, "ticket_in"},
    {Op::Tip, "tip"},
    {Op::CallAttendant, "call_attendant"},
    {Op::Dispute, "dispute"},
    {Op::Reserve, "reserve"},
    {Op::Door, "door"},
    {Op::Raise, "raise"},
    {Op::Limits, "limits"},
    {Op::LimitLevel, "limit_level"},
    {Op::AutoRepeat, "auto_repeat"},
    {Op::Roads, "roads"},
    {Op::BetList, "bet_list"},
    {Op::Burn, "burn"},
    {Op::Cut, "cut"},
    {Op::Reader, "reader"},
    {Op::Deal, "deal"},
    {Op::Confirm, "confirm"},
    {Op::KeepBets, "keep_bets"},
    {Op::Denomination, "denomination"},
    {Op::Hello, "hello"},
    {Op::Join, "join"},
    {Op::Leave, "leave"},
}};

constexpr game::Money kMaxAmount = 1'000'000'000'000;
constexpr std::size_t kMaxText = 500;
// A burn is the turned card and at most 10 more; a cut leaves at most 8 decks behind it.
constexpr std::size_t kMostBurned = 11;
constexpr std::int64_t kMostCardsBehindCut = std::int64_t{8} * 52;
// A bet list shows the station's last rounds: 10 unless asked, at most this many.
constexpr std::int64_t kMostListedRounds = 100;

// Field readers: each returns an error message, or empty when the field was read.
struct Fields {
    const json& object;

    std::string integer(const char* name, std::int64_t min, std::int64_t max, std::int64_t& out) const {
        const auto it = object.find(name);
        if (it == object.end()) {
            return std::string("missing field '") + name + "'";
        }
        if (!it->is_number_integer()) {
            return std::string("'") + name + "' must be an integer";
        }
        const auto value = it->get<std::int64_t>();
        if (value < min || value > max) {
            return std::string("'") + name + "' must be from " + std::to_string(min) + " to " + std::to_string(max);
        }
        out = value;
        return {};
    }
    std::string string(const char* name, std::string& out) const {
        const auto it = object.find(name);
        if (it == object.end()) {
            return std::string("missing field '") + name + "'";
        }
        if (!it->is_string() || it->get_ref<const std::string&>().empty() ||
            it->get_ref<const std::string&>().size() > kMaxText) {
            return std::string("'") + name + "' must be a string of 1 to " + std::to_string(kMaxText) + " characters";
        }
        out = it->get<std::string>();
        return {};
    }
    std::string boolean(const char* name, bool& out) const {
        const auto it = object.find(name);
        if (it == object.end()) {
            return std::string("missing field '") + name + "'";
        }
        if (!it->is_boolean()) {
            return std::string("'") + name + "' must be true or false";
        }
        out = it->get<bool>();
        return {};
    }
};

std::string readFields(Op op, const Fields& f, EngineRequest& r) {
    std::string problem;
    const auto station = [&] { return f.integer("station", 1, 1000, r.station); };
    switch (op) {
        case Op::Status:
        case Op::Roads:
        case Op::NewShoe:
        case Op::OpenRound:
        case Op::CloseBets:
        case Op::CardUnreadable:
            return {};
        case Op::Card: {
            std::string text;
            if (!(problem = f.string("card", text)).empty()) {
                return problem;
            }
            r.card = game::parseCard(text);
            return r.card ? std::string() : "'card' must be a card such as \"9H\" or \"TS\"";
        }
        case Op::VoidRound:
            return f.string("reason", r.text);
        case Op::Bet: {
            std::string spot;
            if (!(problem = station()).empty() || !(problem = f.string("spot", spot)).empty() ||
                !(problem = f.integer("stake", 1, kMaxAmount, r.amount)).empty()) {
                return problem;
            }
            const auto type = game::parseBetType(spot);
            if (!type) {
                return "'spot' names no bet: '" + spot + "'";
            }
            r.spot = *type;
            return {};
        }
        case Op::Join:
        case Op::Leave:
        case Op::Clear:
        case Op::Undo:
        case Op::Repeat:
        case Op::Double:
        case Op::CashOut:
        case Op::CallAttendant:
        case Op::Limits:
        case Op::Deal:
        case Op::Confirm:
            return station();
        case Op::Raise:
            if (!(problem = station()).empty()) {
                return problem;
            }
            return f.integer("chip", 1, kMaxAmount, r.amount);
        case Op::Denomination:
            if (!(problem = station()).empty()) {
                return problem;
            }
            return f.integer("value", 1, 1'000'000, r.amount);
        case Op::LimitLevel:
            if (!(problem = station()).empty()) {
                return problem;
            }
            return f.integer("level", 1, 20, r.round);
        case Op::TicketIn:
            if (!(problem = station()).empty() || !(problem = f.string("validation", r.text)).empty()) {
                return problem;
            }
            return f.integer("amount", 1, kMaxAmount, r.amount);
        case Op::Tip:
            if (!(problem = station()).empty()) {
                return problem;
            }
            return f.integer("amount", 1, kMaxAmount, r.amount);
        case Op::Dispute:
            if (!(problem = station()).empty() || !(problem = f.integer("round", 1, INT64_MAX, r.round)).empty()) {
                return problem;
            }
            return f.string("text", r.text);
        case Op::Reserve:
            if (!(problem = station()).empty() || !(problem = f.boolean("on", r.on)).empty()) {
                return problem;
            }
            if (f.object.contains("pin")) {
                if (!(problem = f.string("pin", r.text)).empty()) {
                    return problem;
                }
                if (r.text.size() < 4 || r.text.size() > 8 ||
                    r.text.find_first_not_of("0123456789") != std::string::npos) {
                    return "'pin' must be 4 to 8 digits";
                }
            }
            return {};
        case Op::Burn: {
            const auto it = f.object.find("cards");
            if (it == f.object.end()) {
                return "missing field 'cards'";
            }
            if (!it->is_array() || it->empty() || it->size() > kMostBurned) {
                return "'cards' must be a list of 1 to 11 cards, the turned card first";
            }
            for (const json& text : *it) {
                const auto card = text.is_string() ? game::parseCard(text.get<std::string>()) : std::nullopt;
                if (!card) {
                    return "'cards' must hold cards such as \"9H\" or \"TS\"";
                }
                r.cards.push_back(*card);
            }
            return {};
        }
        case Op::Cut:
            return f.integer("cards_behind", 1, kMostCardsBehindCut, r.round);
        case Op::Reader:
            if (!(problem = f.boolean("ok", r.on)).empty()) {
                return problem;
            }
            return f.object.contains("message") ? f.string("message", r.text) : std::string();
        case Op::AutoRepeat:
        case Op::KeepBets:
            if (!(problem = station()).empty()) {
                return problem;
            }
            return f.boolean("on", r.on);
        case Op::BetList:
            if (!(problem = station()).empty()) {
                return problem;
            }
            r.round = 10;
            return f.object.contains("rounds") ? f.integer("rounds", 1, kMostListedRounds, r.round) : std::string();
        case Op::Door:
            if (!(problem = f.string("door", r.text)).empty()) {
                return problem;
            }
            return f.boolean("open", r.on);
        case Op::Hello: {
            const auto games = f.object.find("games");
            if (games == f.object.end()) {
                return "missing field 'games'";
            }
            if (!games->is_array() || games->empty() || games->size() > game::kMaxGames) {
                return "'games' must be a list of 1 to " + std::to_string(game::kMaxGames) + " game names";
            }
            for (const json& name : *games) {
                if (!name.is_string() || !game::isGameName(name.get_ref<const std::string&>())) {
                    return "'games' must hold game names (1 to 32 of a-z, 0-9, - and _)";
                }
                if (std::find(r.games.begin(), r.games.end(), name.get<std::string>()) != r.games.end()) {
                    return "'games' names " + name.get<std::string>() + " twice";
                }
                r.games.push_back(name.get<std::string>());
            }
            if (!(problem = f.string("role", r.role)).empty()) {
                return problem;
            }
            return r.role == "dealer" || r.role == "stations" ? std::string()
                                                              : std::string("'role' must be dealer or stations");
        }
    }
    return "unhandled op";
}

}  // namespace

std::string_view opName(Op op) {
    const auto found = std::find_if(kOps.begin(), kOps.end(), [op](const auto& entry) { return entry.first == op; });
    return found != kOps.end() ? found->second : std::string_view("unknown");
}

std::variant<EngineRequest, RequestError> parseRequest(std::string_view line) {
    if (line.size() > kMaxLineBytes) {
        return RequestError{nullptr, "line_too_long",
                            "a request is at most " + std::to_string(kMaxLineBytes) + " bytes"};
    }
    const json message = json::parse(line.begin(), line.end(), nullptr, false);
    if (message.is_discarded()) {
        return RequestError{nullptr, "malformed_json", "the line is not JSON"};
    }
    if (!message.is_object()) {
        return RequestError{nullptr, "not_an_object", "a request is a JSON object"};
    }
    EngineRequest request;
    request.id = message.value("id", json(nullptr));
    const auto op = message.find("op");
    if (op == message.end() || !op->is_string()) {
        return RequestError{request.id, "missing_field", "missing field 'op'"};
    }
    const auto found = std::find_if(
        kOps.begin(), kOps.end(), [&](const auto& entry) { return entry.second == op->get_ref<const std::string&>(); });
    if (found == kOps.end()) {
        return RequestError{request.id, "unknown_op", "unknown op '" + op->get<std::string>() + "'"};
    }
    request.op = found->first;
    if (const auto game = message.find("game"); game != message.end()) {
        if (!game->is_string() || !game::isGameName(game->get_ref<const std::string&>())) {
            return RequestError{request.id, "bad_field", "'game' must be a game's name (1 to 32 of a-z, 0-9, - and _)"};
        }
        request.game = game->get<std::string>();
    }
    if (std::string problem = readFields(request.op, Fields{message}, request); !problem.empty()) {
        return RequestError{request.id, problem.starts_with("missing") ? "missing_field" : "bad_field", problem};
    }
    return request;
}

}  // namespace pitlink::engine
