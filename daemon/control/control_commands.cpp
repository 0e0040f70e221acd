#include "daemon/control/control_commands.h"

#include <spdlog/spdlog.h>

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

ControlCommands::ControlCommands(table::Table& table, journal::Journal& journal, journal::JournalReader& reader,
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
    switch (*request.command) {
        case Command::Status: {
            json status = io::statusJson(table_.status());
            status["daemon"] = info_ ? info_() : json::object();
            status["role"] = roleName(role);
            status["control"] = json{{"requests", stats_.requests},
                                     {"bad_requests", stats_.badRequests},
                                     {"refused_by_role", stats_.refusedByRole}};
            answer.data(std::move(status));
            return;
        }
        case Command::Stations:
            answer.data(json{{"stations", io::statusJson(table_.status())["stations"]}});
            return;
        case Command::Meters:
            answer.data(journal_.committed().toJson());
            return;
        case Command::Roads:
            // A shoe's rounds as scoreboard marks; pitlinkctl draws the roads from them. The running
            // shoe from memory, an earlier one from the journal.
            if (request.shoe && *request.shoe != table_.scoreboard().shoeNumber()) {
                roadsOfShoe(*request.shoe, answer);
                return;
            }
            answer.data(json{{"shoe", table_.scoreboard().shoeNumber()},
                             {"table", table_.name()},
                             {"beads", beadsJson(table_.scoreboard().beads())}});
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
            json events = json::array();
            for (const table::TableEvent& e : events_) {
                events.push_back(io::eventJson(e));
            }
            answer.data(json{{"events", std::move(events)}});
            return;
        }
        case Command::AttendantClear:
            table_.clearAttendant(*request.station, user, answer);
            return;
        case Command::StationLevel:
            table_.selectLimitLevel(*request.station, static_cast<int>(*request.level), answer, user);
            return;
        case Command::ReserveRelease:
            table_.releaseReservation(*request.station, user, answer);
            return;
        case Command::DisputeResolve:
            resolveDispute(request, user, answer);
            return;
        case Command::StationLimits:
            table_.setPersonalLimits(*request.station, game::PersonalLimits{request.min, request.max}, user, answer);
            return;
        case Command::HandpayReset:
            table_.resetHandpay(*request.station, user, answer);
            return;
        case Command::VoidRound:
            if (request.round && *request.round != table_.roundId()) {
                answer(Reply::refused("not_current_round", "only the round in progress (" +
                                                               std::to_string(table_.roundId()) + ") can be voided"));
                return;
            }
            spdlog::warn("control: {} voids round {}: {}", user, table_.roundId(), request.reason);
            table_.voidRound(request.reason, user, answer);
            return;
        case Command::ShoeNew:
            table_.newShoe(answer);
            return;
        case Command::TiltClear:
            table_.clearTilt(request.cause, user, answer);
            return;
        case Command::Io:
            if (!tableIo_) {
                answer(Reply::refused("no_module", "pitlink.yaml configures no Modbus I/O module"));
                return;
            }
            tableIo_->readIo([answer](const json& io) { answer.data(io); });
            return;
        case Command::LampsTest:
            if (!tableIo_) {
                answer(Reply::refused("no_module", "pitlink.yaml configures no Modbus I/O module"));
                return;
            }
            tableIo_->lampTest(std::chrono::milliseconds(request.stepMs), user, answer);
            return;
    }
}

}  // namespace pitlink::control
