#pragma once
// One player station's SAS protocol above its link (StationProtocol): it answers general polls
// from the exception queue (as one byte, or as a real-time event frame `addr FF code data CRC`
// when the host turned RTE on with LP 0E), and long polls by group (meters, machine, the
// control polls here, tickets). What a poll changes outside the protocol (play enabled, the clock, a
// hand-pay reset) goes to the table through StationHost, which journals it first.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocols/sas/aft_polls.h"
#include "protocols/sas/exception_queue.h"
#include "protocols/sas/legacy_bonus_polls.h"
#include "protocols/sas/long_poll_machine.h"
#include "protocols/sas/meter_codes.h"
#include "protocols/sas/station_link.h"
#include "protocols/sas/ticket_host.h"

namespace pitlink::sas {

// LP 1B: the hand-pay the station is locked for.
struct HandpayInfo {
    std::uint8_t progressiveGroup = 0;
    std::uint8_t level = 0;  // 0: not a progressive win
    std::uint64_t amountCents = 0;
    std::uint64_t partialPayCents = 0;
    std::uint8_t resetId = 0;  // 0: standard hand-pay
};

enum class HandpayResetResult : std::uint8_t { Reset = 0x00, Unable = 0x01, NotInHandpay = 0x02 };
// LP A8's answer (the same codes: 00 enabled, 01 unable, 02 not in a hand-pay).
using HandpayMethodResult = HandpayResetResult;

// LP B7: the numbers the host gives the station.
struct MachineNumbers {
    std::uint32_t asset = 0;    // LP 7B's asset number
    std::string floorLocation;  // at most 40 ASCII
};

// What the station's polls reach on the table side (the daemon implements it).
class StationHost {
public:
    virtual ~StationHost() = default;
    virtual void setPlayEnabled(bool enabled) = 0;           // LP 01 / 02
    virtual bool setClock(const SasDateTime& hostTime) = 0;  // LP 7F; false: refused (out of tolerance)
    [[nodiscard]] virtual SasDateTime clock() const = 0;     // LP 7E
    [[nodiscard]] virtual std::optional<HandpayInfo> pendingHandpay() const = 0;  // LP 1B
    virtual HandpayResetResult remoteHandpayReset() = 0;                          // LP 94
    // LP 21: CRC-16/KERMIT seeded with `seed` over the installed program; nullopt while it is
    // still being computed (no answer: the host asks again).
    virtual std::optional<std::uint16_t> romSignature(std::uint16_t seed) = 0;
    // LP 2E: no new game (no bets) at the station for `delay`; 0 ends a delay.
    virtual void delayGame(std::chrono::milliseconds delay) = 0;
    // LP B1 (and which denomination a B0 may name): the Table C-4 code of the denomination the
    // station's player plays now; nullopt: the accounting denomination.
    [[nodiscard]] virtual std::optional<std::uint8_t> playerDenomination() const { return std::nullopt; }
    // LP 55 before the station has reported an 8C since it started: the game of the last 8C the
    // host acknowledged (1 before any). LP 56: the games it has joined.
    [[nodiscard]] virtual std::uint16_t selectedGame() const { return 1; }
    [[nodiscard]] virtual std::vector<std::uint16_t> enabledGames() const { return {1}; }
    // LP A4: the largest cash-out a ticket pays (above it: a hand-pay), in credits.
    [[nodiscard]] virtual std::uint32_t cashoutLimitCredits() const { return 0; }
    // LP A8: 00 standard hand-pay, 01 reset to the credit meter.
    virtual HandpayMethodResult enableHandpayResetMethod(std::uint8_t /*method*/) {
        return HandpayMethodResult::Unable;
    }
    // LP B7: asset 0 and an empty location change nothing; the numbers as they stand after it.
    // nullopt: not answered, a change being made durable (TicketHost::setValidationId).
    virtual std::optional<MachineNumbers> setMachineNumbers(const MachineNumbers& requested) { return requested; }
};

struct StationStats {
    std::uint64_t exceptionsReported = 0;
    std::uint64_t exceptionsAcknowledged = 0;
    std::uint64_t clockRefused = 0;
};

class SasStation final : public StationProtocol {
public:
    SasStation(std::uint8_t address, MachineInfo info, const MeterSource& meters, StationHost& host,
               TicketHost& tickets, ExceptionQueue& exceptions);

    std::vector<std::uint8_t> generalPoll() override;
    std::optional<std::vector<std::uint8_t>> longPoll(const Poll& poll) override;
    void acknowledged() override;

    // AFT (LP 72, 73, 74): answered through `aft` once given; without it they are not answered.
    void setAftHost(aft::AftHost* aft) { aft_ = aft; }
    // Legacy bonusing (LP 8A, 90, 9A): answered through `host` once given; without it they are not
    // answered (legacy bonusing off).
    void setLegacyBonusHost(legacy::LegacyBonusHost* host) { legacyBonus_ = host; }

    [[nodiscard]] bool realTimeEvents() const { return realTimeEvents_; }
    [[nodiscard]] const StationStats& stats() const { return stats_; }

    // LP 1B answered since the hand-pay was last announced (exception 51 repeats until it is).
    [[nodiscard]] bool handpayRead() const { return handpayRead_; }
    // A hand-pay was announced (51 raised): the host has not read it yet.
    void handpayAnnounced() { handpayRead_ = false; }

private:
    [[nodiscard]] std::vector<std::uint8_t> ack() const { return {address_}; }
    // `denomination`: the one LP B0 named around the poll (0: none).
    std::optional<std::vector<std::uint8_t>> answer(const Poll& poll, std::uint8_t denomination);
    std::optional<std::vector<std::uint8_t>> controlPoll(const Poll& poll);
    std::optional<std::vector<std::uint8_t>> machineNumbers(const Poll& poll);
    std::optional<std::vector<std::uint8_t>> aftPoll(const Poll& poll);
    std::optional<std::vector<std::uint8_t>> legacyBonusPoll(const Poll& poll);

    std::uint8_t address_;
    MachineInfo info_;
    const MeterSource& meters_;
    StationHost& host_;
    TicketHost& tickets_;
    ExceptionQueue& exceptions_;
    bool realTimeEvents_ = false;
    std::optional<SasException> reported_;  // the exception of the answer awaiting its ACK
    bool recordReported_ = false;           // the answer awaiting its ACK is an LP 4D 00 record
    bool handpayRead_ = false;
    aft::AftHost* aft_ = nullptr;
    bool aftInterrogationReported_ = false;  // the answer awaiting its ACK is a 72 FF of the current transfer
    legacy::LegacyBonusHost* legacyBonus_ = nullptr;
    bool bonusWinReported_ = false;  // the answer awaiting its ACK is an LP 90 that reported a bonus
    // LP 55: the game of the last 8C reported (a host without real-time events reads LP 55 on an
    // 8C byte: it must name that 8C's game, not one raised after it and still queued).
    std::optional<std::uint16_t> reportedGame_;
    StationStats stats_;
};

}  // namespace pitlink::sas
