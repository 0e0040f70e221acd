#pragma once
// One reply as a JSON line, as the engine link and the control socket send it:
// {"id": ..., "ok": true, "data": {...}} or {"id": ..., "ok": false, "error": "...", "message": "..."}.
#include <nlohmann/json.hpp>

#include <string>

#include "daemon/table/reply.h"

namespace pitlink::io {

inline std::string replyLine(const nlohmann::json& id, const table::Reply& reply) {
    nlohmann::json out{{"id", id}, {"ok", reply.ok}};
    if (reply.ok) {
        out["data"] = reply.data;
    } else {
        out["error"] = reply.error;
        out["message"] = reply.message;
    }
    return out.dump();
}

}  // namespace pitlink::io
