#include "daemon/sas/station_meters.h"

namespace pitlink::sas {

using journal::Meter;

StationSasMeters stationSasMeters(const journal::StationAccount& account) {
    const journal::MeterSet& m = account.meters;
    StationSasMeters s;
    s.coinIn = m[Meter::CoinIn];
    // The journal's coin out counts everything a settlement credited; a jackpot's win leaves
    // the credit meter in the same transaction (the jackpot credit), so SAS coin out, what
    // the machine paid, is the difference: a hand-paid jackpot counted once, in 0002.
    s.coinOut = m[Meter::CoinOut] - m[Meter::Jackpots];
    s.jackpot = m[Meter::Jackpots];
    s.handpaid = m[Meter::HandpaidCancelledCredits];
    s.cancelled = m[Meter::CancelledCredits];
    s.ticketIn = m[Meter::TicketInCashable];
    s.ticketOut = m[Meter::TicketOutCashable];
    s.keyedOn = m[Meter::ResettlementPaid];
    s.keyedOff = m[Meter::Tips] + m[Meter::ResettlementRecovered];
    // Stakes leave the credits when a bet is placed but are coin in only once the round settles;
    // until then SAS still counts them as the station's credits (as a slot's credits stay on its
    // meter until the game is played). A withdrawn or returned bet never reaches a meter.
    s.current = account.credits + account.inPlay;
    s.currentRestricted = account.promo.held.restricted + account.promo.staked().restricted;
    s.wonCredits = m[Meter::CoinOut];
    s.handpaidAll = m[Meter::HandpaidCancelledCredits] + m[Meter::Jackpots] + m[Meter::BonusHandpaid];
    // A bonus is not won in a game: never in coin out (0001), each kind a term of its own.
    s.legacyBonus =
        m[Meter::LegacyBonusDeductible] + m[Meter::LegacyBonusNonDeductible] + m[Meter::LegacyBonusWagerMatch];
    s.attendantPaidBonus = m[Meter::BonusHandpaid];
    s.machinePaidBonus = s.legacyBonus + m[Meter::BonusCashable] + m[Meter::BonusNonrestricted] - s.attendantPaidBonus;
    return s;
}

}  // namespace pitlink::sas
