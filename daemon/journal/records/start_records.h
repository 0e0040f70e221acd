#pragma once
// The records a start-up writes, and a SIGHUP's re-read: daemon.started, config.loaded,
// paytable.loaded (schema/README.md). Typed records (typed_record.h): the daemon and the table fill
// them; SAS reads config.loaded back (a re-read that changed what the table plays by).
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "daemon/game/paytable.h"
#include "daemon/journal/records/record_kinds.h"

namespace pitlink::journal {

// daemon.started: this build started on this table.
struct DaemonStartedRecord {
    static constexpr std::string_view kKind = kind::kDaemonStarted;
    std::string version;
    std::string table;  // table.name
    // The controller's games, the first first (journals before games have none: one game, the
    // table), so that a verifier knows which game the records naming none belong to.
    std::vector<std::string> games;
};
[[nodiscard]] nlohmann::json toBody(const DaemonStartedRecord& record);

// config.loaded: the configuration file read, at start-up or again on a SIGHUP.
struct ConfigLoadedRecord {
    static constexpr std::string_view kKind = kind::kConfigLoaded;
    std::string file;
    std::string sha256;  // hex, of the file's text
    // A re-read only: what set it off ("SIGHUP"), the keys applied from the next round and those
    // that wait for a restart.
    std::optional<std::string> trigger;
    std::optional<std::vector<std::string>> applied;
    std::optional<std::vector<std::string>> restartNeeded;
    friend bool operator==(const ConfigLoadedRecord&, const ConfigLoadedRecord&) = default;
};
[[nodiscard]] nlohmann::json toBody(const ConfigLoadedRecord& record);
[[nodiscard]] ConfigLoadedRecord fromBody(const nlohmann::json& body, std::type_identity<ConfigLoadedRecord>);

// paytable.loaded: the paytable the table settles with, whole (recovery and re-settlement pay with
// it after the file has changed); its id, hash and content are paytable_codec.h's.
struct PaytableLoadedRecord {
    static constexpr std::string_view kKind = kind::kPaytableLoaded;
    game::Paytable paytable;
    std::string file;
};
[[nodiscard]] nlohmann::json toBody(const PaytableLoadedRecord& record);

}  // namespace pitlink::journal
