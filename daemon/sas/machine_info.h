#pragma once
// What a SAS station says about itself (LPs 1F, 53, 54, A0), from the table's configuration and
// paytable, so that a host can trust it (protocols/sas/README.md "Machine information"):
// - the paytable ID is the first six hex digits of the paytable's SHA-256 (the journal's
//   `paytable.loaded` sha256), so two paytables never share one and an edited file gets a new one;
// - the base percentage is the exact return of the lower of the Player and Banker bets (the
//   even-money bets a baccarat station's handle is made of), by enumeration over the configured
//   shoe, truncated to hundredths of a percent (never overstating what the player gets back);
// - the LP A0 feature bits say what the station really does.
#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "daemon/config/config.h"
#include "daemon/game/paytable.h"
#include "protocols/sas/long_poll_machine.h"

namespace pitlink::sas {

// `paytable`: the first game's; `games`: each configured game's paytable, in the configuration's
// order, when the controller has several (LPs 51, 53 and B5 describe each; 1F the first).
[[nodiscard]] MachineInfo machineInfo(const config::Config& config, const game::Paytable& paytable,
                                      std::span<const game::Paytable* const> games = {});
// SAS Table C-4 code of a denomination in minor units (cents) per credit; 00 when it has none.
[[nodiscard]] std::uint8_t denominationCodeOf(game::Money minorPerCredit);

// "9876" for 98.76 %: the lower exact return of Player and Banker with `decks` decks.
[[nodiscard]] std::string basePercentage(const game::Paytable& paytable, int decks);
// Six upper-case hex digits of the paytable's SHA-256.
[[nodiscard]] std::string paytableIdOf(const game::Paytable& paytable);
// LP A0 feature bytes 1-3 (SAS 6.02 LP A0; the bits as an SMIB reads them, e.g. the nCompass's).
[[nodiscard]] std::array<std::uint8_t, 3> featureBytes(ValidationMode validation, bool ticketRedemption,
                                                       const AftSettings& aft = {}, bool legacyBonus = false);

}  // namespace pitlink::sas
