#pragma once
// The answer to every request made of the table (engine link, control socket, buttons): given
// only after the journal has committed what the request changed (persist before acknowledging),
// or at once when it is refused. Typed: daemon/io/reply_line.h is the one place it becomes the
// JSON line protocols/engine/README.md and protocols/control/README.md document.
#include <functional>
#include <string>

#include "daemon/table/reply_data.h"

namespace pitlink::table {

struct Reply {
    bool ok = true;
    std::string error;    // a stable code when refused: "betting_closed", "insufficient_credits", ...
    std::string message;  // for a person
    ReplyData data;       // what an accepted request answers (nothing for a refusal)

    static Reply accepted(ReplyData data = NoData{}) { return Reply{true, {}, {}, std::move(data)}; }
    static Reply refused(std::string error, std::string message) {
        return Reply{false, std::move(error), std::move(message), NoData{}};
    }
};

using Respond = std::function<void(const Reply&)>;

}  // namespace pitlink::table
