#include "daemon/sas/station_port.h"

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

}  // namespace

StationPort::StationPort(const StationLinkSettings& link, PortContext& context, ValidationId validation,
                         boost::asio::io_context* io, LinkOutput* output)
    : link_(link),
      context_(context),
      tickets_(
          link.station, context.settings, context.timers, context.clock, validation,
          [this](std::uint8_t code) { context_.raise(link_.station, code); },
          [this](const SasStationRecord& record) { context_.journalRecord(link_.station, record); }),
      transport_(output == nullptr ? std::make_unique<SasTransport>(*io, link.transport,
                                                                    [this](WireByte b, bool idle) { receive(b, idle); })
                                   : nullptr),
      stack_(link.address, machineOf(context.machine, context.settings, link.station), *this, *this, tickets_,
             output == nullptr ? *transport_ : *output, context.timers.nowMs()) {}

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
}

std::optional<std::uint64_t> StationPort::meter(std::uint16_t code) const {
    using journal::Meter;
    const journal::Ledger& ledger = context_.journal.committed();
    const auto it = ledger.stations().find(link_.station);
    const journal::StationAccount none;
    const journal::StationAccount& acc = it == ledger.stations().end() ? none : it->second;
    const StationSasMeters sas = stationSasMeters(acc);
    const game::Money denomination = context_.table.denomination();
    const auto inCredits = [&](std::int64_t minor) {
        return static_cast<std::uint64_t>(journal::reportedMeter(minor / denomination));
    };
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
        case meter::kDrop:
            return 0;  // a table takes no coins or bills
        case meter::kSlotDoorOpens:
            return count(acc.meters[Meter::DoorOpens] + ledger.tableOwn()[Meter::DoorOpens]);
        case meter::kPowerResets:
            return count(ledger.tableOwn()[Meter::PowerUps]);
        default:
            return std::nullopt;
    }
}

void StationPort::setPlayEnabled(bool enabled) {
    if (context_.table.wallet(link_.station).hostDisabled == !enabled) {
        return;
    }
    context_.journalRecord(link_.station, journal::SasHostEnabledRecord{enabled});
    context_.table.setHostEnabled(link_.station, enabled);
}

bool StationPort::setClock(const SasDateTime& hostTime) {
    const auto offset = context_.clock.offsetFor(hostTime, context_.settings.clockTolerance);
    if (!offset) {
        return false;
    }
    const std::int64_t before = context_.clock.nowMs();
    context_.clock.setOffsetMs(*offset);
    context_.journalRecord(link_.station, journal::ClockSetRecord{before, context_.clock.nowMs(), *offset});
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

}  // namespace pitlink::sas
