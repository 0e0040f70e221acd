#pragma once
// The engine link's requests without the socket (protocols/engine/README.md): a JSON line is
// parsed and checked, handed to the table, and its reply goes to the client's next place in
// order. The socket server (EngineLink) and the simulation tier (tests/sim) both feed it lines.
#include <sys/types.h>

#include <cstdint>
#include <string>

#include "daemon/io/ordered_replies.h"
#include "daemon/journal/journal.h"
#include "daemon/journal/read/journal_reader.h"
#include "daemon/table/table.h"
#include "protocols/engine/engine_request.h"

namespace pitlink::engine {

struct EngineLinkStats {
    std::uint64_t requests = 0;
    std::uint64_t badRequests = 0;  // malformed JSON, unknown ops, bad fields, oversize lines
};

// What one connection serves (protocols/engine/README.md "Games"): the games it said hello with
// and its role. A connection that never says hello serves the first game in every role, as
// clients did before a controller had several games.
struct EngineSession {
    std::vector<std::string> games;  // empty: no hello: the first game
    bool dealer = true;              // dealer ops accepted (role dealer, or no hello)
};

class EngineRequests {
public:
    // `games`: the controller's (at least one); the first is also where the stations' wallet
    // requests go (cash-out, tickets, tips, attendant, reserve, denomination, bet list).
    // `journal` and `reader` answer bet_list from the journal file, off the logic thread; without
    // them bet_list is refused (unavailable).
    explicit EngineRequests(std::vector<table::Table*> games, journal::Journal* journal = nullptr,
                            journal::JournalReader* reader = nullptr)
        : games_(std::move(games)), journal_(journal), reader_(reader) {}
    explicit EngineRequests(table::Table& table, journal::Journal* journal = nullptr,
                            journal::JournalReader* reader = nullptr)
        : EngineRequests(std::vector<table::Table*>{&table}, journal, reader) {}
    // One request line; `reply` gets its reply line exactly once (after the commit of what it
    // changed, or its refusal's). `peer`: for the log of bad requests. Without a session: a
    // connection that never said hello.
    void handle(const std::string& line, const io::OrderedReplies::Fill& reply, pid_t peer = 0);
    void handle(EngineSession& session, const std::string& line, const io::OrderedReplies::Fill& reply, pid_t peer = 0);
    // Whether an event of `game` (nullopt: a station's wallet, for every connection) goes to
    // `session`.
    [[nodiscard]] bool serves(const EngineSession& session, const std::optional<std::string>& game) const;
    [[nodiscard]] bool severalGames() const { return games_.size() > 1; }
    // A line over the limit: answered, and the caller closes the connection.
    void oversize(const io::OrderedReplies::Fill& reply);
    // pitlinkd is stopping: lines read from now on are refused ("stopping") without reaching
    // the table, so that everything it decided is committed and answered before the stop.
    void stopTaking() { stopping_ = true; }
    [[nodiscard]] const EngineLinkStats& stats() const { return stats_; }

private:
    void dispatch(EngineSession& session, const engine::EngineRequest& request, const io::OrderedReplies::Fill& reply);
    void play(table::Table& game, const engine::EngineRequest& request, table::Respond respond);
    void hello(EngineSession& session, const engine::EngineRequest& request, const table::Respond& respond);
    // The game the request is for, or null once it was refused (journaled, answered).
    [[nodiscard]] table::Table* gameOf(const EngineSession& session, const engine::EngineRequest& request,
                                       const table::Respond& respond);
    [[nodiscard]] table::Table* named(const std::string& name) const;
    [[nodiscard]] table::Table& home() const { return *games_.front(); }
    // Seeds 002/003 "bet list": the station's last rounds with its bets and wins, read once every
    // transaction submitted before the request has committed (a round just settled is in it).
    void betList(std::int64_t station, std::int64_t rounds, const table::Respond& respond);

    std::vector<table::Table*> games_;
    EngineSession noHello_;
    journal::Journal* journal_;
    journal::JournalReader* reader_;
    EngineLinkStats stats_;
    bool stopping_ = false;
};

}  // namespace pitlink::engine
