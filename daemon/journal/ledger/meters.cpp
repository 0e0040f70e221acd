#include "daemon/journal/ledger/meters.h"

#include <limits>

#include "daemon/journal/ledger/ledger.h"

namespace pitlink::journal {

namespace {

constexpr std::array<std::string_view, kMeterCount> kNames{
    "coin_in",
    "coin_out",
    "games_played",
    "games_won",
    "games_lost",
    "cancelled_credits",
    "handpaid_cancelled_credits",
    "jackpots",
    "ticket_in_cashable",
    "ticket_out_cashable",
    "tips",
    "resettlement_paid",
    "resettlement_recovered",
    "bets_returned",
    "door_opens",
    "restricted_played",
    "nonrestricted_played",
    "transfer_in_cashable",
    "transfer_in_cashable_count",
    "transfer_in_restricted",
    "transfer_in_restricted_count",
    "transfer_in_nonrestricted",
    "transfer_in_nonrestricted_count",
    "bonus_cashable",
    "bonus_cashable_count",
    "bonus_nonrestricted",
    "bonus_nonrestricted_count",
    "transfer_out_cashable",
    "transfer_out_cashable_count",
    "transfer_out_restricted",
    "transfer_out_restricted_count",
    "transfer_out_nonrestricted",
    "transfer_out_nonrestricted_count",
    "restricted_expired",
    "legacy_bonus_deductible",
    "legacy_bonus_non_deductible",
    "legacy_bonus_wager_match",
    "bonus_handpaid",
    "power_ups",
    "rounds_settled",
    "rounds_voided",
    "rounds_resettled",
};

}  // namespace

std::string_view meterName(Meter meter) {
    return kNames[static_cast<std::size_t>(meter)];
}

std::optional<Meter> parseMeter(std::string_view name) {
    for (std::size_t i = 0; i < kNames.size(); ++i) {
        if (kNames[i] == name) {
            return static_cast<Meter>(i);
        }
    }
    return std::nullopt;
}

void MeterSet::add(Meter meter, std::int64_t amount) {
    if (amount < 0) {
        throw LedgerError("meter " + std::string(meterName(meter)) + " would decrease by " + std::to_string(-amount));
    }
    std::int64_t& value = values_[static_cast<std::size_t>(meter)];
    if (amount > std::numeric_limits<std::int64_t>::max() - value) {
        throw LedgerError("meter " + std::string(meterName(meter)) + " would overflow");
    }
    value += amount;
}

}  // namespace pitlink::journal
