#pragma once
// One table event as the engine link and the control socket send it: {"event": "...", ...} in the
// form protocols/engine/README.md documents. The only place a table event becomes JSON.
#include <nlohmann/json.hpp>

#include "daemon/table/table_events.h"

namespace pitlink::io {

[[nodiscard]] nlohmann::json eventJson(const table::TableEvent& event);

}  // namespace pitlink::io
