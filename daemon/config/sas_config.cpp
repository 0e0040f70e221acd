#include "daemon/config/sas_config.h"

#include <chrono>
#include <cstdint>
#include <set>
#include <string>
#include <utility>

namespace pitlink::config {

namespace {

void readSasStation(YamlMap map, Config& c, std::set<std::int64_t>& stations, std::set<std::string>& ports) {
    sas::StationLinkSettings link;
    if (!map.has("station")) {
        throw map.error("station",
                        "missing: the station this link serves (1.." + std::to_string(c.table.stations) + ")");
    }
    link.station = map.integer("station", 0, 1, c.table.stations);
    if (!stations.insert(link.station).second) {
        throw map.error("station", "station " + std::to_string(link.station) + " has a SAS link already");
    }
    link.address = static_cast<std::uint8_t>(map.integer("address", link.station, 1, 127));
    link.transport.device = resolved(c, map.requiredString("port")).string();
    if (!ports.insert(link.transport.device).second) {
        throw map.error("port", link.transport.device + " is the port of another station (one link per port)");
    }
    const std::string mode = map.string("transport", "serial");
    const auto parsed = sas::parseTransportMode(mode);
    if (!parsed) {
        throw map.error("transport", "expected serial, pty or gap");
    }
    link.transport.mode = *parsed;
    link.transport.gap = std::chrono::microseconds(map.integer("gap_us", 3'000, 500, 100'000));
    map.rejectUnknownKeys();
    c.sas.links.push_back(link);
}

}  // namespace

void readSas(YamlMap map, Config& c) {
    auto& s = c.sas;
    const std::string validation = map.string("validation", "system");
    if (validation != "system" && validation != "secure_enhanced") {
        throw map.error("validation", "expected system or secure_enhanced");
    }
    s.validation = validation == "system" ? sas::ValidationMode::System : sas::ValidationMode::SecureEnhanced;
    s.systemValidationTimeout = std::chrono::milliseconds(
        map.integer("system_validation_timeout_ms", s.systemValidationTimeout.count(), 1'000, 60'000));
    s.ticketReadTimeout =
        std::chrono::milliseconds(map.integer("ticket_read_timeout_ms", s.ticketReadTimeout.count(), 1'000, 60'000));
    s.ticketRedeemTimeout = std::chrono::milliseconds(
        map.integer("ticket_redeem_timeout_ms", s.ticketRedeemTimeout.count(), 1'000, 120'000));
    if (s.ticketRedeemTimeout < s.ticketReadTimeout) {
        throw map.error("ticket_redeem_timeout_ms", "must not be below ticket_read_timeout_ms");
    }
    s.clockTolerance = std::chrono::seconds(map.integer("clock_tolerance_s", s.clockTolerance.count(), 0, 86'400));
    s.serialPrefix = map.string("serial_prefix", s.serialPrefix);
    s.assetBase = static_cast<std::uint32_t>(map.integer("asset_base", s.assetBase, 0, 0xFFFF'FF00));
    for (const auto& [key, line] :
         {std::pair{"location", &s.location}, {"address1", &s.address1}, {"address2", &s.address2}}) {
        *line = map.string(key, *line);
        if (line->size() > 40) {
            throw map.error(key, "at most 40 characters are printed");
        }
    }
    if (map.has("aft")) {
        YamlMap aft = map.map("aft");
        s.aft.enabled = aft.boolean("enabled", true);
        s.aft.transferLimitCents = aft.integer("transfer_limit", s.aft.transferLimitCents, 1, 9'999'999'999);
        s.aft.bonus = aft.boolean("bonus", s.aft.bonus);
        s.aft.hostCashoutWait = std::chrono::milliseconds(
            aft.integer("host_cashout_wait_ms", s.aft.hostCashoutWait.count(), 1'000, 600'000));
        aft.rejectUnknownKeys();
    }
    s.legacyBonus = map.boolean("legacy_bonus", s.legacyBonus);
    if (const auto list = map.node("stations")) {
        if (!list->IsSequence()) {
            throw map.error(*list, "stations", "expected a list of station links");
        }
        std::set<std::int64_t> stations;
        std::set<std::string> ports;
        for (std::size_t i = 0; i < list->size(); ++i) {
            readSasStation(YamlMap((*list)[i], map.keyPath("stations") + "[" + std::to_string(i) + "]", map.file()), c,
                           stations, ports);
        }
    }
    map.rejectUnknownKeys();
}

}  // namespace pitlink::config
