#pragma once
// The answer to every request made of the table (engine link, control socket, buttons): given
// only after the journal has committed what the request changed (persist before acknowledging),
// or at once when it is refused.
#include <nlohmann/json.hpp>

#include <functional>
#include <string>

namespace pitlink::table {

struct Reply {
    bool ok = true;
    std::string error;    // a stable code when refused: "betting_closed", "insufficient_credits", ...
    std::string message;  // for a person
    nlohmann::json data = nlohmann::json::object();

    static Reply accepted(nlohmann::json data = nlohmann::json::object()) {
        return Reply{true, {}, {}, std::move(data)};
    }
    static Reply refused(std::string error, std::string message) {
        return Reply{false, std::move(error), std::move(message), nlohmann::json::object()};
    }
};

using Respond = std::function<void(const Reply&)>;

}  // namespace pitlink::table
