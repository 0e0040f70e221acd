#include "daemon/control/control_commands.h"

#include <spdlog/spdlog.h>

#include "daemon/io/event_line.h"
#include "daemon/io/reply_line.h"

namespace pitlink::control {

using nlohmann::json;
using table::Reply;

namespace {

constexpr std::size_t kEventsKept = 200;

// Read-only commands; everything else known is an operator action.
bool readOnly(const std::string& cmd) {
    return cmd == "status" || cmd == "stations" || cmd == "meters" || cmd == "events" || cmd == "roads" ||
           cmd == "recall" || cmd == "audit";
}

std::optional<std::int64_t> integerField(const json& request, const char* name) {
    const auto it = request.find(name);
    if (it == request.end() || !it->is_number_integer()) {
        return std::nullopt;
    }
    return it->get<std::int64_t>();
}

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

ControlCommands::ControlCommands(table::Table& table, const journal::Journal& journal, journal::JournalReader& reader,
                                 std::function<json()> info)
    : table_(table), journal_(journal), reader_(reader), info_(std::move(info)) {}

void ControlCommands::oversize(const io::OrderedReplies::Fill& reply) {
    ++stats_.badRequests;
    reply(io::replyLine(nullptr, Reply::refused("line_too_long", "a request is at most 4096 bytes")));
}

void ControlCommands::remember(const table::TableEvent& event) {
    events_.push_back(event);
    if (events_.size() > kEventsKept) {
        events_.pop_front();
    }
}

void ControlCommands::handle(const std::string& line, Role role, const std::string& user,
                             const io::OrderedReplies::Fill& reply) {
    ++stats_.requests;
    const json request = json::parse(line, nullptr, false);
    if (request.is_discarded() || !request.is_object() || !request.contains("cmd") || !request["cmd"].is_string()) {
        ++stats_.badRequests;
        reply(io::replyLine(nullptr, Reply::refused("bad_request", "a request is a JSON object with a \"cmd\"")));
        return;
    }
    const json id = request.value("id", json(nullptr));
    const std::string cmd = request["cmd"].get<std::string>();
    const Role needed = readOnly(cmd) ? Role::Inspector : Role::Operator;
    if (role < needed) {
        ++stats_.refusedByRole;
        reply(io::replyLine(
            id, Reply::refused("permission_denied", user + " has the role '" + std::string(roleName(role)) + "'; '" +
                                                        cmd + "' needs '" + std::string(roleName(needed)) + "'")));
        return;
    }
    run(request, role, user, [reply, id](const Reply& r) { reply(io::replyLine(id, r)); });
}

void ControlCommands::run(const json& request, Role role, const std::string& user, table::Respond respond) {
    const std::string cmd = request["cmd"].get<std::string>();
    const auto station = integerField(request, "station");
    if (cmd == "status") {
        json status = table_.statusJson();
        status["daemon"] = info_ ? info_() : json::object();
        status["role"] = roleName(role);
        status["control"] = json{{"requests", stats_.requests},
                                 {"bad_requests", stats_.badRequests},
                                 {"refused_by_role", stats_.refusedByRole}};
        respond(Reply::accepted(status));
    } else if (cmd == "stations") {
        respond(Reply::accepted(json{{"stations", table_.statusJson()["stations"]}}));
    } else if (cmd == "meters") {
        respond(Reply::accepted(journal_.committed().toJson()));
    } else if (cmd == "roads") {
        // A shoe's rounds as scoreboard marks; pitlinkctl draws the roads from them. The running
        // shoe from memory, an earlier one from the journal.
        const auto shoe = integerField(request, "shoe");
        if (shoe && *shoe != table_.scoreboard().shoeNumber()) {
            roadsOfShoe(*shoe, std::move(respond));
            return;
        }
        respond(Reply::accepted(json{{"shoe", table_.scoreboard().shoeNumber()},
                                     {"table", table_.name()},
                                     {"beads", beadsJson(table_.scoreboard().beads())}}));
    } else if (cmd == "recall") {
        recall(request, std::move(respond));
    } else if (cmd == "audit") {
        audit(std::move(respond));
    } else if (cmd == "resettle") {
        resettle(request, user, std::move(respond));
    } else if (cmd == "events") {
        json events = json::array();
        for (const table::TableEvent& e : events_) {
            events.push_back(io::eventJson(e));
        }
        respond(Reply::accepted(json{{"events", std::move(events)}}));
    } else if (cmd == "attendant_clear" && station) {
        table_.clearAttendant(*station, user, std::move(respond));
    } else if (cmd == "handpay_reset" && station) {
        table_.resetHandpay(*station, user, std::move(respond));
    } else if (cmd == "void_round") {
        const std::string reason = request.value("reason", std::string());
        if (reason.empty() || reason.size() > 500) {
            respond(Reply::refused("bad_request", "void_round needs a \"reason\" of 1 to 500 characters"));
            return;
        }
        const auto round = integerField(request, "round");
        if (round && *round != table_.roundId()) {
            respond(Reply::refused("not_current_round", "only the round in progress (" +
                                                            std::to_string(table_.roundId()) + ") can be voided"));
            return;
        }
        spdlog::warn("control: {} voids round {}: {}", user, table_.roundId(), reason);
        table_.voidRound(reason, user, std::move(respond));
    } else if (cmd == "shoe_new") {
        table_.newShoe(std::move(respond));
    } else if (cmd == "tilt_clear") {
        table_.clearTilt(request.value("cause", std::string()), user, std::move(respond));
    } else {
        ++stats_.badRequests;
        respond(Reply::refused("bad_request", "unknown command '" + cmd + "' or a field is missing"));
    }
}

}  // namespace pitlink::control
