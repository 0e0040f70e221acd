#pragma once
// One reply as a JSON line, as the engine link and the control socket send it:
// {"id": ..., "ok": true, "data": {...}} or {"id": ..., "ok": false, "error": "...", "message": "..."}.
// The only place the table's typed replies become JSON (the field names protocols/engine/README.md
// and protocols/control/README.md document).
#include <nlohmann/json.hpp>

#include <string>

#include "daemon/table/reply.h"

namespace pitlink::io {

[[nodiscard]] std::string replyLine(const nlohmann::json& id, const table::Reply& reply);
// The same naming the game it is about (a controller of several games): "game" beside "ok".
[[nodiscard]] std::string replyLine(const nlohmann::json& id, const table::Reply& reply, const std::string& game);
// An accepted reply whose data an edge built itself (the control socket's journal reads).
[[nodiscard]] std::string acceptedLine(const nlohmann::json& id, nlohmann::json data);

[[nodiscard]] nlohmann::json replyDataJson(const table::ReplyData& data);
// `status`: the table's part of it.
[[nodiscard]] nlohmann::json statusJson(const table::TableStatus& status);

}  // namespace pitlink::io
