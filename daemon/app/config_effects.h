#pragma once
// What a configuration means to the parts of the running daemon: the table's settings, when the
// journal's segments end, and which changed keys wait for the next start (a re-read, SIGHUP).
#include <optional>
#include <string>
#include <vector>

#include "daemon/config/config.h"
#include "daemon/game/paytable.h"
#include "daemon/journal/segments/segment_rotation.h"
#include "daemon/table/table.h"

namespace pitlink::app {

// When the journal's active segment is sealed (pitlink.yaml journal.segment_max_*).
journal::SegmentPolicy segmentPolicy(const config::Config& config);

// Game `index`'s settings (config.games; the controller's stations, denominations, cashier and
// reservations are every game's).
table::TableSettings gameSettings(const config::Config& config, std::size_t index);

// The index of the game named `name` in `config` (its games, or its table when it has none);
// none when a re-read configuration no longer has that game.
std::optional<std::size_t> gameIndex(const config::Config& config, const std::string& name);

// The daemon-level keys (beyond the table's, see Table::reconfigure) that differ between the
// running configuration and a re-read one and only apply at the next start.
std::vector<std::string> restartNeeded(const config::Config& running, const game::Paytable& runningPaytable,
                                       const config::Config& fresh, const game::Paytable& freshPaytable);

}  // namespace pitlink::app
