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

class EngineRequests {
public:
    // `journal` and `reader` answer bet_list from the journal file, off the logic thread; without
    // them bet_list is refused (unavailable).
    explicit EngineRequests(table::Table& table, journal::Journal* journal = nullptr,
                            journal::JournalReader* reader = nullptr)
        : table_(table), journal_(journal), reader_(reader) {}
    // One request line; `reply` gets its reply line exactly once (after the commit of what it
    // changed, or its refusal's). `peer`: for the log of bad requests.
    void handle(const std::string& line, const io::OrderedReplies::Fill& reply, pid_t peer = 0);
    // A line over the limit: answered, and the caller closes the connection.
    void oversize(const io::OrderedReplies::Fill& reply);
    // pitlinkd is stopping: lines read from now on are refused ("stopping") without reaching
    // the table, so that everything it decided is committed and answered before the stop.
    void stopTaking() { stopping_ = true; }
    [[nodiscard]] const EngineLinkStats& stats() const { return stats_; }

private:
    void dispatch(const engine::EngineRequest& request, table::Respond respond);
    // Seeds 002/003 "bet list": the station's last rounds with its bets and wins, read once every
    // transaction submitted before the request has committed (a round just settled is in it).
    void betList(std::int64_t station, std::int64_t rounds, const table::Respond& respond);

    table::Table& table_;
    journal::Journal* journal_;
    journal::JournalReader* reader_;
    EngineLinkStats stats_;
    bool stopping_ = false;
};

}  // namespace pitlink::engine
