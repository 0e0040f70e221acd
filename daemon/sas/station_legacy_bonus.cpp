#include "daemon/sas/station_legacy_bonus.h"

namespace pitlink::sas {

static_assert(static_cast<int>(journal::TaxStatus::Deductible) == static_cast<int>(legacy::TaxStatus::Deductible) &&
              static_cast<int>(journal::TaxStatus::NonDeductible) ==
                  static_cast<int>(legacy::TaxStatus::NonDeductible) &&
              static_cast<int>(journal::TaxStatus::WagerMatch) == static_cast<int>(legacy::TaxStatus::WagerMatch));

journal::TaxStatus journalTaxStatus(legacy::TaxStatus status) {
    return static_cast<journal::TaxStatus>(status);
}

legacy::TaxStatus sasTaxStatus(journal::TaxStatus status) {
    return static_cast<legacy::TaxStatus>(status);
}

StationLegacyBonus::StationLegacyBonus(std::int64_t station, table::Table& table, const journal::Journal& journal,
                                       JournalRead journalRead)
    : station_(station), table_(table), journal_(journal), journalRead_(std::move(journalRead)) {}

void StationLegacyBonus::restore(const journal::SasExceptionRecord& awarded) {
    this->awarded(awarded.data, awarded.serial);
}

void StationLegacyBonus::awarded(const std::vector<std::uint8_t>& eventData, std::uint64_t serial) {
    const auto win = legacy::bonusWinOf(eventData);
    if (!win) {
        return;  // not a 7C this station raised (a forged journal's): nothing to report
    }
    unread_ = Unread{*win, serial, ++awards_};
}

legacy::AwardAnswer StationLegacyBonus::award(const legacy::Award& award) {
    // Whole credits of the accounting denomination: an 8A's amount is in them (SAS 6.02, Monaco).
    const game::Money amount = static_cast<game::Money>(award.credits) * table_.denomination();
    const bool taken = table_.legacyBonus(station_, amount, journalTaxStatus(award.taxStatus), [](bool) {
        // 7C, raised by the transaction itself (exception_events.cpp), tells the host it was paid.
    });
    return taken ? legacy::AwardAnswer::Taken : legacy::AwardAnswer::Busy;
}

legacy::BonusWin StationLegacyBonus::lastBonus() {
    if (!unread_) {
        reported_.reset();
        return {};
    }
    reported_ = unread_->number;
    return unread_->win;
}

void StationLegacyBonus::lastBonusAcknowledged() {
    // A bonus paid since the answer stays to be read: the host was told of the one before it.
    if (!unread_ || reported_ != unread_->number) {
        return;
    }
    journalRead_(journal::SasLegacyBonusReadRecord{unread_->serial});
    unread_.reset();
    reported_.reset();
}

legacy::BonusMeters StationLegacyBonus::meters(std::uint16_t game) const {
    if (game != 0) {
        // A legacy bonus is paid to the station's credit meter, not won in one of its games: each
        // game's meters are 0 (as Monaco answers a game without them), game 0 has them all.
        return {};
    }
    const journal::MeterSet m = journal_.committed().station(station_).meters;
    const game::Money denomination = table_.denomination();
    const auto credits = [&](journal::Meter meter) {
        return static_cast<std::uint64_t>(journal::reportedMeter(m[meter] / denomination));
    };
    using journal::Meter;
    return {credits(Meter::LegacyBonusDeductible), credits(Meter::LegacyBonusNonDeductible),
            credits(Meter::LegacyBonusWagerMatch)};
}

}  // namespace pitlink::sas
