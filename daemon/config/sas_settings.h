#pragma once
// pitlink.yaml `sas`: one SAS link per player station and how the stations validate tickets.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "protocols/sas/transport_settings.h"

namespace pitlink::sas {

struct StationLinkSettings {
    std::int64_t station = 1;
    std::uint8_t address = 1;  // 1..127
    TransportSettings transport;
    bool operator==(const StationLinkSettings&) const = default;
};

enum class ValidationMode : std::uint8_t {
    System,          // the host gives each cash-out ticket its number (exception 57, LPs 57/58)
    SecureEnhanced,  // the station numbers its tickets (LP 4C sets ID and sequence)
};

// SAS AFT (issue 36, protocols/sas/README.md "AFT"): cashless transfers with the host.
struct AftSettings {
    bool enabled = false;                         // off: LP 72/73/74 are not answered and A0 does not offer AFT
    std::int64_t transferLimitCents = 1'000'000;  // the most one transfer to the station may bring
    bool bonus = true;                            // bonus awards (LP 72 type 10) offered
    // A cash-out offered to the host (host cash-out, soft mode) goes on as a ticket after this.
    std::chrono::milliseconds hostCashoutWait{8'000};
    bool operator==(const AftSettings&) const = default;
};

struct FloorSettings {
    std::vector<StationLinkSettings> links;
    ValidationMode validation = ValidationMode::System;
    std::chrono::milliseconds systemValidationTimeout{10'000};  // 57 -> LP 58, else hand-pay
    std::chrono::milliseconds ticketReadTimeout{10'000};        // 67 -> LP 70, else returned
    std::chrono::milliseconds ticketRedeemTimeout{30'000};      // 67 -> LP 71, else returned
    std::chrono::seconds clockTolerance{3600};                  // LP 7F moves the clock at most this far
    std::string serialPrefix = "PL";                            // LP 54: prefix + table + station
    std::uint32_t assetBase = 0;                                // LP 7B: asset number = base + station
    std::string location;                                       // printed on tickets (LP 7C/7D change it)
    std::string address1;
    std::string address2;
    std::filesystem::path program = "/proc/self/exe";  // LP 21 signs this file
    AftSettings aft;
    // Legacy bonusing (LP 8A, 90, 9A; exception 7C; A0 byte 1 bit 2). Off: those polls are not
    // answered and A0 does not offer it.
    bool legacyBonus = false;
    bool operator==(const FloorSettings&) const = default;
};

}  // namespace pitlink::sas
