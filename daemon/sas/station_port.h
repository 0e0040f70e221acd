#pragma once
// One player station on its SAS link: the port (transport) under the station's SAS stack
// (protocols/sas/station_stack.h: framer, link, station protocol, exception queue), and what the
// polls reach: the committed meters of the journal (MeterSource), the table (StationHost) and the
// ticketing (StationTickets). Runs on the logic thread; a poll is answered from memory,
// synchronously, as its last byte arrives.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "daemon/config/sas_settings.h"
#include "daemon/journal/journal.h"
#include "daemon/sas/exception_events.h"
#include "daemon/sas/station_aft.h"
#include "daemon/sas/station_legacy_bonus.h"
#include "daemon/sas/station_tickets.h"
#include "daemon/sas/table_clock.h"
#include "daemon/table/table.h"
#include "protocols/sas/sas_transport.h"
#include "protocols/sas/station_stack.h"

namespace pitlink::sas {

// What a port needs from the floor around it.
struct PortContext {
    table::Table& table;
    const journal::Journal& journal;
    platform::Executor& timers;
    TableClock& clock;
    const FloorSettings& settings;
    MachineInfo machine;                                                 // serial number filled in per station
    std::function<void(std::int64_t station, std::uint8_t code)> raise;  // journaled, then raised
    // In a transaction of its own; `done(committed)`, when not empty.
    std::function<void(std::int64_t station, const SasStationRecord& record, std::function<void(bool)> done)>
        journalRecord;
    std::function<std::optional<std::uint16_t>(std::uint16_t seed)> romSignature;
    const GameSelection& games;  // the controller's games by SAS number, each station's selected one
    // An AFT record in a transaction of its own; `done(committed)`.
    std::function<void(std::int64_t station, const AftStationRecord& record, std::function<void(bool)> done)>
        journalAft;
};

class StationPort final : public StationHost, public MeterSource {
public:
    // `output`: where answers go; null: the port's own transport on `io` (opened by open()).
    StationPort(const StationLinkSettings& link, PortContext& context, ValidationId validation,
                boost::asio::io_context* io, LinkOutput* output = nullptr);

    void open();  // throws std::system_error naming the device
    void close();
    // Bytes from the line (the transport calls it; tests may too).
    void receive(WireByte byte, bool idleBefore);
    void tick();

    [[nodiscard]] std::int64_t station() const { return link_.station; }
    [[nodiscard]] ExceptionQueue& exceptions() { return stack_.exceptions(); }
    [[nodiscard]] StationTickets& tickets() { return tickets_; }
    [[nodiscard]] StationAft& aft() { return aft_; }
    [[nodiscard]] StationLegacyBonus& legacyBonus() { return legacyBonus_; }
    // LP 1B answered since the last 51 (SasStation tracks it).
    [[nodiscard]] bool handpayRead() const { return stack_.station().handpayRead(); }
    void handpayAnnounced() { stack_.station().handpayAnnounced(); }
    [[nodiscard]] nlohmann::json statusJson() const;

    // MeterSource: the committed meters of the journal.
    [[nodiscard]] std::optional<std::uint64_t> meter(std::uint16_t code) const override;
    // StationHost
    void setPlayEnabled(bool enabled) override;
    bool setClock(const SasDateTime& hostTime) override;
    [[nodiscard]] SasDateTime clock() const override { return context_.clock.localTime(); }
    [[nodiscard]] std::optional<HandpayInfo> pendingHandpay() const override;
    HandpayResetResult remoteHandpayReset() override;
    std::optional<std::uint16_t> romSignature(std::uint16_t seed) override { return context_.romSignature(seed); }
    void delayGame(std::chrono::milliseconds delay) override { context_.table.delayStation(link_.station, delay); }
    [[nodiscard]] std::optional<std::uint8_t> playerDenomination() const override;
    [[nodiscard]] std::uint16_t selectedGame() const override { return acknowledgedGame_; }
    [[nodiscard]] std::vector<std::uint16_t> enabledGames() const override;
    [[nodiscard]] std::uint32_t cashoutLimitCredits() const override;
    HandpayMethodResult enableHandpayResetMethod(std::uint8_t method) override;
    std::optional<MachineNumbers> setMachineNumbers(const MachineNumbers& requested) override;
    // MeterSource: a game's or a denomination's play, LP 50.
    [[nodiscard]] std::optional<std::uint64_t> playMeter(std::uint16_t code, const MeterScope& scope) const override;
    [[nodiscard]] ValidationMeters validationMeters(std::uint8_t type) const override;
    // LP B7's numbers kept in the journal (sas.machine_numbers), at start.
    void restoreMachineNumbers(const journal::SasMachineNumbersRecord& numbers);
    // The game of the last 8C the host acknowledged before the restart (LP 55 until another is reported).
    void restoreSelectedGame(std::uint16_t game) { acknowledgedGame_ = game; }

private:
    [[nodiscard]] const journal::StationAccount& account() const;
    [[nodiscard]] std::uint64_t inCredits(game::Money minor) const;
    StationLinkSettings link_;
    PortContext& context_;
    StationTickets tickets_;
    StationAft aft_;
    StationLegacyBonus legacyBonus_;
    std::unique_ptr<SasTransport> transport_;
    StationStack stack_;
    std::optional<std::uint32_t> hostAsset_;  // LP B7's asset number, once the host gave one
    std::string floorLocation_;               // LP B7's, or sas.location
    std::int64_t gamesAtPowerUp_ = 0;         // GamesPlayed when pitlinkd started (LP 18)
    std::uint16_t acknowledgedGame_ = 1;
};

}  // namespace pitlink::sas
