#include "daemon/sas/station_port.h"

#include <algorithm>

#include "daemon/journal/ledger/meters.h"
#include "daemon/sas/machine_info.h"
#include "daemon/sas/station_meters.h"
#include "protocols/sas/meter_codes.h"

namespace pitlink::sas {

using nlohmann::json;

namespace {

MachineInfo machineOf(MachineInfo info, const FloorSettings& settings, std::int64_t station) {
    info.serialNumber = settings.serialPrefix + std::to_string(station);
    return info;
}

// The ledger's meter of each SAS AFT amount meter (its count is the meter after it in both).
constexpr std::pair<std::uint16_t, journal::Meter> kAftMeters[] = {
    {meter::kAftInHouseCashableIn, journal::Meter::TransferInCashable},
    {meter::kAftInHouseRestrictedIn, journal::Meter::TransferInRestricted},
    {meter::kAftInHouseNonrestrictedIn, journal::Meter::TransferInNonrestricted},
    {meter::kAftBonusCashableIn, journal::Meter::BonusCashable},
    {meter::kAftBonusNonrestrictedIn, journal::Meter::BonusNonrestricted},
    {meter::kAftInHouseCashableOut, journal::Meter::TransferOutCashable},
    {meter::kAftInHouseRestrictedOut, journal::Meter::TransferOutRestricted},
    {meter::kAftInHouseNonrestrictedOut, journal::Meter::TransferOutNonrestricted},
};

}  // namespace

StationPort::StationPort(const StationLinkSettings& link, PortContext& context, ValidationId validation,
                         boost::asio::io_context* io, LinkOutput* output)
    : link_(link),
      context_(context),
      tickets_(
          link.station, context.settings, context.timers, context.clock, validation,
          [this](std::uint8_t code) { context_.raise(link_.station, code); },
          [this](const SasStationRecord& record, std::function<void(bool)> done) {
              context_.journalRecord(link_.station, record, std::move(done));
          }),
      aft_(
          link.station, context.settings.aft, context.table, context.journal, context.timers, context.clock,
          [this](std::uint8_t code) { context_.raise(link_.station, code); },
          [this](const AftStationRecord& record, std::function<void(bool)> done) {
              context_.journalAft(link_.station, record, std::move(done));
          },
          [this] { return tickets_.assetNumber(); },
          [this] { return tickets_.ticketSetup().restrictedExpirationDays; }),
      legacyBonus_(link.station, context.table, context.journal,
                   [this](const journal::SasLegacyBonusReadRecord& record) {
                       context_.journalRecord(link_.station, record, {});
                   }),
      transport_(output == nullptr ? std::make_unique<SasTransport>(*io, link.transport,
                                                                    [this](WireByte b, bool idle) { receive(b, idle); })
                                   : nullptr),
      stack_(link.address, machineOf(context.machine, context.settings, link.station), *this, *this, tickets_,
             output == nullptr ? *transport_ : *output, context.timers.nowMs()),
      floorLocation_(context.settings.location.substr(0, 40)),
      gamesAtPowerUp_(account().meters[journal::Meter::GamesPlayed]) {
    if (context_.settings.aft.enabled) {
        stack_.station().setAftHost(&aft_);
    }
    if (context_.settings.legacyBonus) {
        stack_.station().setLegacyBonusHost(&legacyBonus_);
    }
}

void StationPort::restoreMachineNumbers(const journal::SasMachineNumbersRecord& numbers) {
    if (numbers.asset != 0) {  // 0: the host set the location only
        hostAsset_ = numbers.asset;
        tickets_.setAssetNumber(numbers.asset);
    }
    floorLocation_ = numbers.location;
}

const journal::StationAccount& StationPort::account() const {
    static const journal::StationAccount kNone;
    const journal::Ledger& ledger = context_.journal.committed();
    const auto it = ledger.stations().find(link_.station);
    return it == ledger.stations().end() ? kNone : it->second;
}

std::uint64_t StationPort::inCredits(game::Money minor) const {
    return static_cast<std::uint64_t>(journal::reportedMeter(minor / context_.table.denomination()));
}

void StationPort::open() {
    if (transport_) {
        transport_->open();
    }
}

void StationPort::close() {
    if (transport_) {
        transport_->close();
    }
}

void StationPort::receive(WireByte byte, bool idleBefore) {
    stack_.receive(byte, idleBefore, context_.timers.nowMs());
}

void StationPort::tick() {
    stack_.tick(context_.timers.nowMs());
    if (context_.settings.aft.enabled) {
        aft_.tick();
    }
}

std::optional<std::uint64_t> StationPort::meter(std::uint16_t code) const {
    using journal::Meter;
    const journal::Ledger& ledger = context_.journal.committed();
    const journal::StationAccount& acc = account();
    const StationSasMeters sas = stationSasMeters(acc);
    const auto count = [](std::int64_t n) { return static_cast<std::uint64_t>(journal::reportedMeter(n)); };
    switch (code) {
        case meter::kCoinIn:
            return inCredits(sas.coinIn);
        case meter::kCoinOut:
            return inCredits(sas.coinOut);
        case meter::kJackpot:
            return inCredits(sas.jackpot);
        case meter::kHandPaidCancelledCredits:
            return inCredits(sas.handpaid);
        case meter::kCancelledCredits:
            return inCredits(sas.cancelled);
        case meter::kGamesPlayed:
            return count(acc.meters[Meter::GamesPlayed]);
        case meter::kGamesWon:
            return count(acc.meters[Meter::GamesWon]);
        case meter::kGamesLost:
            return count(acc.meters[Meter::GamesLost]);
        case meter::kCurrentCredits:
            return inCredits(sas.current);
        // Minor units are cents here (the denomination is counted in them).
        case meter::kTicketInCashableCents:
            return count(sas.ticketIn);
        case meter::kTicketOutCashableCents:
            return count(sas.ticketOut);
        case meter::kTotalWonCredits:
            return inCredits(sas.wonCredits);
        case meter::kTotalHandPaidCredits:
            return inCredits(sas.handpaidAll);
        case meter::kKeyedOnCashable:
            return inCredits(sas.keyedOn);
        case meter::kKeyedOffCashable:
            return inCredits(sas.keyedOff);
        case meter::kKeyedOffRestricted:  // restricted credits gone at their expiry
            return inCredits(acc.meters[Meter::RestrictedExpired]);
        case meter::kRestrictedPlayed:
            return inCredits(acc.meters[Meter::RestrictedPlayed]);
        case meter::kNonrestrictedPlayed:
            return inCredits(acc.meters[Meter::NonrestrictedPlayed]);
        case meter::kCurrentRestrictedCredits:
            return inCredits(sas.currentRestricted);
        case meter::kMachinePaidExternalBonus:
            return inCredits(sas.machinePaidBonus);
        case meter::kAttendantPaidExternalBonus:
            return inCredits(sas.attendantPaidBonus);
        case meter::kDrop:
            return 0;  // a table takes no coins or bills
        case meter::kSlotDoorOpens:
            return count(acc.meters[Meter::DoorOpens] + ledger.tableOwn()[Meter::DoorOpens]);
        case meter::kPowerResets:
            return count(ledger.tableOwn()[Meter::PowerUps]);
        case meter::kGamesSincePowerUp:
            return count(acc.meters[Meter::GamesPlayed] - gamesAtPowerUp_);
        case meter::kGamesSinceDoorClosed:
            return count(acc.meters[Meter::GamesPlayed] - acc.gamesAtDoorClose);
        default:
            break;
    }
    // AFT: cents, and the count after each amount.
    for (const auto& [amountCode, amountMeter] : kAftMeters) {
        if (code == amountCode) {
            return count(acc.meters[amountMeter]);
        }
        if (code == amountCode + 1) {
            return count(acc.meters[static_cast<Meter>(static_cast<int>(amountMeter) + 1)]);
        }
    }
    return std::nullopt;
}

void StationPort::setPlayEnabled(bool enabled) {
    if (context_.table.wallet(link_.station).hostDisabled == !enabled) {
        return;
    }
    context_.journalRecord(link_.station, journal::SasHostEnabledRecord{enabled}, {});
    context_.table.setHostEnabled(link_.station, enabled);
}

bool StationPort::setClock(const SasDateTime& hostTime) {
    const auto offset = context_.clock.offsetFor(hostTime, context_.settings.clockTolerance);
    if (!offset) {
        return false;
    }
    const std::int64_t before = context_.clock.nowMs();
    context_.clock.setOffsetMs(*offset);
    context_.journalRecord(link_.station, journal::ClockSetRecord{before, context_.clock.nowMs(), *offset}, {});
    return true;
}

std::optional<HandpayInfo> StationPort::pendingHandpay() const {
    const auto& handpay = context_.table.wallet(link_.station).handpay;
    if (!handpay) {
        return std::nullopt;
    }
    HandpayInfo info;
    info.amountCents = static_cast<std::uint64_t>(handpay->amount);
    return info;
}

HandpayResetResult StationPort::remoteHandpayReset() {
    if (!context_.table.wallet(link_.station).handpay) {
        return HandpayResetResult::NotInHandpay;
    }
    if (context_.journal.failed()) {
        return HandpayResetResult::Unable;
    }
    // 52 is raised by the reset's own transaction once it has committed.
    context_.table.resetHandpay(link_.station, "sas host", {});
    return HandpayResetResult::Reset;
}

json StationPort::statusJson() const {
    const LinkStats& l = stack_.link().stats();
    const FramerStats& f = stack_.framerStats();
    json pending = json::array();
    for (const SasException& e : stack_.exceptions().pending()) {
        pending.push_back(e.code);
    }
    json j{{"station", link_.station},
           {"address", link_.address},
           {"device", link_.transport.device},
           {"transport", std::string(transportModeName(link_.transport.mode))},
           {"link", stack_.link().up() ? "up" : "down"},
           {"rte", stack_.station().realTimeEvents()},
           {"polls", l.pollsToUs},
           {"answers", l.answers},
           {"resends", l.resends},
           {"bad_crc", f.badCrc},
           {"unsupported", l.unsupported},
           {"chirps", l.chirps},
           {"link_downs", l.linkDowns},
           {"exceptions_pending", pending},
           {"exception_overflows", stack_.exceptions().overflows()},
           {"tickets", tickets_.statusJson()}};
    if (context_.settings.aft.enabled) {
        j["aft"] = aft_.statusJson();
    }
    if (transport_) {
        j["bytes_in"] = transport_->stats().bytesIn;
        j["write_errors"] = transport_->stats().writeErrors;
        j["stale_at_open"] = transport_->stats().staleAtOpen;
    }
    return j;
}

std::optional<std::uint8_t> StationPort::playerDenomination() const {
    const table::Table& table = context_.table;
    return denominationCodeOf(table.denominationOf(link_.station));
}

std::vector<std::uint16_t> StationPort::enabledGames() const {
    std::vector<std::uint16_t> games;
    for (const std::string& game : context_.table.wallet(link_.station).games) {
        games.push_back(context_.games.numberOf(game));
    }
    if (games.empty()) {
        games.push_back(1);  // a station that never joined a game plays the first
    }
    std::sort(games.begin(), games.end());
    games.erase(std::unique(games.begin(), games.end()), games.end());
    return games;
}

std::uint32_t StationPort::cashoutLimitCredits() const {
    return static_cast<std::uint32_t>(
        std::min<game::Money>(context_.table.ticketLimit() / context_.table.denomination(), 9999));
}

HandpayMethodResult StationPort::enableHandpayResetMethod(std::uint8_t method) {
    if (!context_.table.wallet(link_.station).handpay) {
        return HandpayMethodResult::NotInHandpay;
    }
    // A table pays its hand-pays by hand (an attendant, or LP 94): the standard method is the one
    // it has, and a jackpot is never keyed off to the credit meter (LP 1B's reset ID is 00).
    return method == 0x00 ? HandpayMethodResult::Reset : HandpayMethodResult::Unable;
}

std::optional<MachineNumbers> StationPort::setMachineNumbers(const MachineNumbers& requested) {
    if (tickets_.settingPending()) {
        return std::nullopt;  // LP 7B answers the asset number too: one setting at a time
    }
    const std::optional<std::uint32_t> asset = requested.asset != 0 ? std::optional(requested.asset) : hostAsset_;
    const std::string location = requested.floorLocation.empty() ? floorLocation_ : requested.floorLocation;
    if (asset != hostAsset_ || location != floorLocation_) {
        // Journaled (a transaction of its own) and in force at once: LP 7B and the tickets use it.
        // Answered once durable (the host sends it again). Asset 0 in the record: the host has
        // set none (sas.asset_base + station stands).
        tickets_.journalSetting(journal::SasMachineNumbersRecord{asset.value_or(0), location});
        hostAsset_ = asset;
        floorLocation_ = location;
        if (asset) {
            tickets_.setAssetNumber(*asset);
        }
        return std::nullopt;
    }
    return MachineNumbers{tickets_.assetNumber(), floorLocation_};
}

std::optional<std::uint64_t> StationPort::playMeter(std::uint16_t code, const MeterScope& scope) const {
    using journal::Meter;
    if (!isGameMeter(code)) {
        return std::nullopt;
    }
    const game::Money accounting = context_.table.denomination();
    std::optional<game::Money> denomination;  // the play's minor units per credit
    if (scope.denomination != 0) {
        for (const game::Money d : context_.table.denominations()) {
            if (denominationCodeOf(d) == scope.denomination) {
                denomination = d;
            }
        }
        if (!denomination) {
            return std::nullopt;  // not offered: B0 answers 04 before asking
        }
    }
    journal::MeterSet sum;
    for (const auto& [play, meters] : account().plays) {
        const bool inGame = scope.game == 0 || context_.games.numberOf(play.game) == scope.game;
        // Rounds journaled before denominations were: the accounting denomination's.
        const game::Money played = play.denomination == 0 ? accounting : play.denomination;
        if (inGame && (!denomination || played == *denomination)) {
            for (const Meter m : journal::kPlayMeters) {
                sum.add(m, meters[m]);
            }
        }
    }
    const auto count = [](std::int64_t n) { return static_cast<std::uint64_t>(journal::reportedMeter(n)); };
    switch (code) {
        case meter::kCoinIn:
            return inCredits(sum[Meter::CoinIn]);
        case meter::kCoinOut:  // what the game paid to the credit meter: a jackpot is hand-paid (0002)
            return inCredits(sum[Meter::CoinOut] - sum[Meter::Jackpots]);
        case meter::kJackpot:
            return inCredits(sum[Meter::Jackpots]);
        case meter::kGamesPlayed:
            return count(sum[Meter::GamesPlayed]);
        case meter::kGamesWon:
            return count(sum[Meter::GamesWon]);
        case meter::kGamesLost:
            return count(sum[Meter::GamesLost]);
        case meter::kTotalWonCredits:
            return inCredits(sum[Meter::CoinOut]);
        default:
            return std::nullopt;
    }
}

ValidationMeters StationPort::validationMeters(std::uint8_t type) const {
    using journal::Meter;
    const journal::StationAccount& acc = account();
    const auto count = [](std::int64_t n) { return static_cast<std::uint64_t>(journal::reportedMeter(n)); };
    switch (type) {
        case 0x00:  // cashable tickets printed at a cash-out
            return {count(acc.ticketsOut), count(acc.meters[Meter::TicketOutCashable])};
        case 0x80:  // cashable tickets redeemed
            return {count(acc.ticketsIn), count(acc.meters[Meter::TicketInCashable])};
        default:  // no restricted or AFT tickets; hand-pays get no validation number here
            return {};
    }
}

}  // namespace pitlink::sas
