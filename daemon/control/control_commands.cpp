#include "daemon/control/control_commands.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "daemon/io/event_line.h"
#include "daemon/io/reply_line.h"

namespace pitlink::control {

using nlohmann::json;
using table::Reply;

namespace {

constexpr std::size_t kEventsKept = 200;

}  // namespace

json beadsJson(const std::vector<game::RoundMarks>& marks) {
    json beads = json::array();
    for (const game::RoundMarks& m : marks) {
        beads.push_back(json{{"winner", std::string(1, game::winnerLetter(m.winner))},
                             {"player_pair", m.playerPair},
                             {"banker_pair", m.bankerPair},
                             {"natural", m.natural}});
    }
    return beads;
}

void Answer::operator()(const table::Reply& reply) const {
    fill_(io::replyLine(id_, reply));
}

void Answer::data(json data) const {
    fill_(io::acceptedLine(id_, std::move(data)));
}

ControlCommands::ControlCommands(std::vector<table::Table*> games, journal::Journal& journal,
                                 journal::JournalReader& reader, std::function<json()> info)
    : games_(std::move(games)), table_(*games_.front()), journal_(journal), reader_(reader), info_(std::move(info)) {}

table::Table* ControlCommands::gameNamed(const std::string& name) const {
    for (table::Table* game : games_) {
        if (game->name() == name) {
            return game;
        }
    }
    return nullptr;
}

std::optional<std::size_t> ControlCommands::indexOf(const table::Table* game) const {
    const auto it = std::find(games_.begin(), games_.end(), game);
    return it == games_.end() ? std::nullopt : std::optional<std::size_t>(it - games_.begin());
}

table::Table* ControlCommands::gameOf(const ControlRequest& request, const Answer& answer) {
    if (!request.game) {
        return &table_;
    }
    if (table::Table* game = gameNamed(*request.game)) {
        return game;
    }
    std::string names;
    for (const table::Table* game : games_) {
        names += (names.empty() ? "" : ", ") + game->name();
    }
    table_.refuseRequest(
        request.name, request.station, answer,
        Reply::refused("unknown_game", "this controller has no game " + *request.game + " (its games: " + names + ")"));
    return nullptr;
}

void ControlCommands::oversize(const io::OrderedReplies::Fill& reply) {
    ++stats_.badRequests;
    reply(io::replyLine(nullptr, Reply::refused("line_too_long", "a request is at most 4096 bytes")));
}

void ControlCommands::remember(const table::TableEvent& event, const std::string& game) {
    events_.emplace_back(game, event);
    if (events_.size() > kEventsKept) {
        events_.pop_front();
    }
}

void ControlCommands::handle(const std::string& line, Role role, const std::string& user,
                             const io::OrderedReplies::Fill& reply) {
    ++stats_.requests;
    auto parsed = parseControlRequest(line);
    if (const auto* malformed = std::get_if<MalformedRequest>(&parsed)) {
        ++stats_.badRequests;
        reply(io::replyLine(nullptr, Reply::refused(malformed->refusal.error, malformed->refusal.message)));
        return;
    }
    const ControlRequest& request = std::get<ControlRequest>(parsed);
    const Role needed = request.command && isReadOnly(*request.command) ? Role::Inspector : Role::Operator;
    if (role < needed) {
        ++stats_.refusedByRole;
        reply(io::replyLine(
            request.id,
            Reply::refused("permission_denied", user + " has the role '" + std::string(roleName(role)) + "'; '" +
                                                    request.name + "' needs '" + std::string(roleName(needed)) + "'")));
        return;
    }
    if (request.invalid) {
        ++stats_.badRequests;
        reply(io::replyLine(request.id, Reply::refused(request.invalid->error, request.invalid->message)));
        return;
    }
    run(request, role, user, Answer(reply, request.id));
}

void ControlCommands::run(const ControlRequest& request, Role role, const std::string& user, const Answer& answer) {
    table::Table* const game = gameOf(request, answer);
    if (game == nullptr) {
        return;
    }
    switch (*request.command) {
        case Command::Status: {
            json status = io::statusJson(game->status());
            if (games_.size() > 1) {
                status["game"] = game->name();
                json names = json::array();
                for (const table::Table* g : games_) {
                    names.push_back(g->name());
                }
                status["games"] = std::move(names);
            }
            status["daemon"] = info_ ? info_() : json::object();
            status["role"] = roleName(role);
            status["control"] = json{{"requests", stats_.requests},
                                     {"bad_requests", stats_.badRequests},
                                     {"refused_by_role", stats_.refusedByRole}};
            answer.data(std::move(status));
            return;
        }
        case Command::Stations:
            answer.data(json{{"stations", io::statusJson(game->status())["stations"]}});
            return;
        case Command::Meters:
            answer.data(journal_.committed().toJson());
            return;
        case Command::Roads:
            // A shoe's rounds as scoreboard marks; pitlinkctl draws the roads from them. The running
            // shoe from memory, an earlier one from the journal.
            if (request.shoe && *request.shoe != game->scoreboard().shoeNumber()) {
                roadsOfShoe(*game, *request.shoe, answer);
                return;
            }
            answer.data(json{{"shoe", game->scoreboard().shoeNumber()},
                             {"table", game->name()},
                             {"beads", beadsJson(game->scoreboard().beads())}});
            return;
        case Command::Protection:
            protection(*game, request, answer);
            return;
        case Command::Recall:
            recall(request, answer);
            return;
        case Command::Audit:
            audit(answer);
            return;
        case Command::Resettle:
            resettle(request, user, answer);
            return;
        case Command::Events: {
            // A game's events (those of its rounds, shoe and roads) when `game` names one; the
            // stations' wallet events whatever it names.
            json events = json::array();
            for (const auto& [of, e] : events_) {
                json line = io::eventJson(e);
                if (games_.size() > 1 && io::isGameEvent(e)) {
                    if (request.game && of != *request.game) {
                        continue;
                    }
                    line["game"] = of;
                }
                events.push_back(std::move(line));
            }
            answer.data(json{{"events", std::move(events)}});
            return;
        }
        case Command::AttendantClear:
            table_.clearAttendant(*request.station, user, answer);
            return;
        case Command::StationLevel:
            game->selectLimitLevel(*request.station, static_cast<int>(*request.level), answer, user);
            return;
        case Command::ReserveRelease:
            table_.releaseReservation(*request.station, user, answer);
            return;
        case Command::DisputeResolve:
            resolveDispute(*game, request, user, answer);
            return;
        case Command::StationLimits:
            table_.setPersonalLimits(*request.station, game::PersonalLimits{request.min, request.max}, user, answer);
            return;
        case Command::HandpayReset:
            table_.resetHandpay(*request.station, user, answer);
            return;
        case Command::VoidRound:
            if (request.round && *request.round != game->roundId()) {
                answer(Reply::refused("not_current_round", "only " + game->name() + "'s round in progress (" +
                                                               std::to_string(game->roundId()) + ") can be voided"));
                return;
            }
            spdlog::warn("control: {} voids {}'s round {}: {}", user, game->name(), game->roundId(), request.reason);
            game->voidRound(request.reason, user, answer);
            return;
        case Command::ShoeNew:
            game->newShoe(answer);
            return;
        case Command::TiltClear:
            game->clearTilt(request.cause, user, answer);
            return;
        case Command::Io:
            if (!tableIo_) {
                answer(Reply::refused("no_module", "pitlink.yaml configures no Modbus I/O module"));
                return;
            }
            tableIo_->readIo(indexOf(request.game ? game : nullptr), [answer](const json& io) { answer.data(io); });
            return;
        case Command::LampsTest:
            if (!tableIo_) {
                answer(Reply::refused("no_module", "pitlink.yaml configures no Modbus I/O module"));
                return;
            }
            tableIo_->lampTest(std::chrono::milliseconds(request.stepMs), user, indexOf(request.game ? game : nullptr),
                               answer);
            return;
    }
}

}  // namespace pitlink::control
