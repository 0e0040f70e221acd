#pragma once
// The control socket's commands without the socket (pitlinkctl talks to them through
// ControlServer; the simulation tier calls them directly): read commands need the inspector role,
// operator actions the operator role (roles.h); every operator action reaches the journal with
// the user who asked for it. Reads of the journal file run on the journal reader.
#include <nlohmann/json.hpp>

#include <chrono>
#include <deque>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "daemon/control/roles.h"
#include "daemon/io/ordered_replies.h"
#include "daemon/journal/journal.h"
#include "daemon/journal/read/journal_reader.h"
#include "daemon/table/table.h"
#include "protocols/control/control_request.h"

namespace pitlink::control {

struct ControlStats {
    std::uint64_t requests = 0;
    std::uint64_t badRequests = 0;
    std::uint64_t refusedByRole = 0;
};

// The one answer to one control request: a table reply (typed, written by io::replyLine), or data
// the control socket built itself (status, meters, roads, recall, audit, events).
class Answer {
public:
    Answer(io::OrderedReplies::Fill fill, nlohmann::json id) : fill_(std::move(fill)), id_(std::move(id)) {}
    void operator()(const table::Reply& reply) const;
    void data(nlohmann::json data) const;

private:
    io::OrderedReplies::Fill fill_;
    nlohmann::json id_;
};

// Scoreboard marks as the control socket sends them (pitlinkctl roads draws from them).
[[nodiscard]] nlohmann::json beadsJson(const std::vector<game::RoundMarks>& marks);

// What the control socket asks of the table's Modbus I/O (absent without a module).
struct TableIoControl {
    // `game`: the request's game (an index into the games), absent when it named none (every lamp,
    // every point).
    std::function<void(std::chrono::milliseconds step, const std::string& by, std::optional<std::size_t> game,
                       table::Respond respond)>
        lampTest;
    std::function<void(std::optional<std::size_t> game, std::function<void(nlohmann::json)>)> readIo;
};

class ControlCommands {
public:
    // `games`: the controller's (at least one); a game's command goes to the game its `game`
    // names (absent: the first), a station's wallet command to the first (the wallet is the
    // controller's). `info` adds daemon-wide facts to `status` (journal path, engine link...).
    // `reader` answers recall, audit and re-settlement off the logic thread.
    ControlCommands(std::vector<table::Table*> games, journal::Journal& journal, journal::JournalReader& reader,
                    std::function<nlohmann::json()> info);
    ControlCommands(table::Table& table, journal::Journal& journal, journal::JournalReader& reader,
                    std::function<nlohmann::json()> info)
        : ControlCommands(std::vector<table::Table*>{&table}, journal, reader, std::move(info)) {}
    // One request line from a caller with `role`, known as `user`; its reply goes to `reply`
    // exactly once.
    void handle(const std::string& line, Role role, const std::string& user, const io::OrderedReplies::Fill& reply);
    // A line over the limit: answered (the socket then closes the connection).
    void oversize(const io::OrderedReplies::Fill& reply);
    // Keeps the last events for `pitlinkctl events` (`game`: the game whose event it is).
    void remember(const table::TableEvent& event, const std::string& game = {});
    [[nodiscard]] const ControlStats& stats() const { return stats_; }
    void setTableIo(TableIoControl io) { tableIo_ = std::move(io); }

private:
    void run(const ControlRequest& request, Role role, const std::string& user, const Answer& answer);
    // The game `request` names (absent: the first); none, and the request refused unknown_game
    // (journaled), when the controller has no such game.
    table::Table* gameOf(const ControlRequest& request, const Answer& answer);
    [[nodiscard]] table::Table* gameNamed(const std::string& name) const;
    [[nodiscard]] std::optional<std::size_t> indexOf(const table::Table* game) const;  // in games_
    void recall(const ControlRequest& request, const Answer& answer);
    void audit(const Answer& answer);
    void roadsOfShoe(table::Table& game, std::int64_t shoe, const Answer& answer);
    // control_protection.cpp
    void protection(table::Table& game, const ControlRequest& request, const Answer& answer);
    void protectionOfShoe(table::Table& game, std::int64_t shoe, const Answer& answer);
    // To the round's own game (its round.opened names it), whatever `game` says.
    void resettle(const ControlRequest& request, const std::string& user, const Answer& answer);
    // With corrected cards, the disputed round is read from the journal first (as for resettle).
    void resolveDispute(table::Table& game, const ControlRequest& request, const std::string& user,
                        const Answer& answer);

    std::vector<table::Table*> games_;
    table::Table& table_;        // the first game: the stations' wallets
    journal::Journal& journal_;  // afterPending: reads of the file see what was submitted before
    journal::JournalReader& reader_;
    std::set<std::int64_t> resettling_;  // rounds whose re-settlement is being read or committed
    std::function<nlohmann::json()> info_;
    std::deque<std::pair<std::string, table::TableEvent>> events_;  // (game, event)
    ControlStats stats_;
    std::optional<TableIoControl> tableIo_;
};

}  // namespace pitlink::control
