// libFuzzer: a whole SAS station as pitlinkd runs it, minus the table and the port: the escaped
// line -> framer -> link -> SasStation (meters, machine, control and ticket polls) -> the real
// StationTickets on a manual clock. The input is the escaped line (as fuzz_sas_framer); a data
// 0x7E is not a line byte but a command for the table side, taken from the byte after it:
//   low 2 bits 0: time passes (the high bits x 250 ms), then the link's tick;
//               1: a cash-out of (high bits + 1) x 100 cents;  2: a ticket inserted;
//               3: the journal commits (or, with bit 2, fails) the last accepted ticket.
// Whatever the host sends, it must hold that: each cash-out and each inserted ticket gets its
// answer exactly once; only an accepted ticket is credited, once; a frame the station sends
// begins with its address and ends with a correct CRC; nothing answers a broadcast, another
// address or a bad CRC.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/sas/station_tickets.h"
#include "protocols/sas/crc16_kermit.h"
#include "protocols/sas/parmrk_decoder.h"
#include "protocols/sas/station_stack.h"
#include "tests/support/manual_executor.h"
#include "tests/support/recording_link_output.h"
#include "tests/support/station_host_double.h"

namespace {

using namespace pitlink::sas;
using std::chrono::milliseconds;

constexpr std::uint8_t kAddress = 3;

void check(bool ok) {
    if (!ok) {
        std::abort();
    }
}

std::uint16_t signatureOf(std::uint16_t seed) {
    return static_cast<std::uint16_t>(seed ^ 0x5A5A);
}

// The table: the shared double, with meters that move as tickets are credited.
struct Table : pitlink::test::StationHostDouble {
    Table() {
        handpay = HandpayInfo{0, 0, 12'500, 0, 0};
        earliestYear = 2000;
        signature = signatureOf;
    }
    [[nodiscard]] std::optional<std::uint64_t> meter(std::uint16_t code) const override {
        return code % 5 == 0 ? std::nullopt : std::optional<std::uint64_t>(credits + code);
    }
    // Three games, two denominations: each scope's game meters differ.
    [[nodiscard]] std::optional<std::uint64_t> playMeter(std::uint16_t code, const MeterScope& scope) const override {
        return isGameMeter(code)
                   ? std::optional<std::uint64_t>(credits + code + static_cast<std::uint64_t>(scope.game) * 7U +
                                                  scope.denomination)
                   : std::nullopt;
    }
    [[nodiscard]] ValidationMeters validationMeters(std::uint8_t type) const override { return {type, credits}; }
    [[nodiscard]] std::uint16_t selectedGame() const override { return 2; }
    [[nodiscard]] std::vector<std::uint16_t> enabledGames() const override { return {1, 3}; }
    [[nodiscard]] std::uint32_t cashoutLimitCredits() const override { return 12'000; }
    HandpayMethodResult enableHandpayResetMethod(std::uint8_t method) override {
        return method == 0 ? HandpayMethodResult::Reset : HandpayMethodResult::Unable;
    }
    // A change is answered on its repeat, as the daemon answers it once durable.
    std::optional<MachineNumbers> setMachineNumbers(const MachineNumbers& requested) override {
        const MachineNumbers before = numbers;
        numbers.asset = requested.asset != 0 ? requested.asset : numbers.asset;
        numbers.floorLocation = requested.floorLocation.empty() ? numbers.floorLocation : requested.floorLocation;
        if (numbers.asset != before.asset || numbers.floorLocation != before.floorLocation) {
            return std::nullopt;
        }
        return numbers;
    }
    std::uint64_t credits = 0;
    MachineNumbers numbers{1, "PIT 1"};
};

MachineInfo threeGames() {
    MachineInfo info;
    info.playerDenominations = {0x01, 0x02, 0x06};
    info.games.resize(3);
    info.games[1].gameName = "second";
    return info;
}

bool wellFormed(const std::vector<std::uint8_t>& frame) {
    if (frame.size() <= 2) {
        return true;  // an exception byte, an ACK or busy (`addr 00`)
    }
    const std::uint16_t crc = crc16Kermit(std::span(frame).first(frame.size() - 2));
    return frame[0] == kAddress && frame[frame.size() - 2] == (crc & 0xFFU) && frame[frame.size() - 1] == (crc >> 8U);
}

// The table's side of one fuzz run: counts what it asked and what came back.
struct Ledger {
    int cashouts = 0;
    int cashoutAnswers = 0;
    int inserted = 0;
    int verdicts = 0;
    int accepted = 0;
    int committed = 0;
    bool awaitingCommit = false;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FloorSettings settings;
    settings.validation = size > 0 && (data[0] & 1U) != 0 ? ValidationMode::SecureEnhanced : ValidationMode::System;
    settings.systemValidationTimeout = milliseconds(10'000);
    settings.ticketReadTimeout = milliseconds(10'000);
    settings.ticketRedeemTimeout = milliseconds(30'000);
    pitlink::test::ManualExecutor timers;
    TableClock clock{timers};
    Table table;
    Ledger ledger;
    ExceptionQueue* queue = nullptr;  // the stack's, once it exists
    StationTickets tickets(
        1, settings, timers, clock, ValidationId{}, [&queue](std::uint8_t code) { queue->raise(code); },
        // A record commits at the next advance of the clock: a host's setting is answered then.
        [&timers](const pitlink::sas::SasStationRecord&, const std::function<void(bool)>& done) {
            if (done) {
                timers.after(milliseconds(1), [done] { done(true); });
            }
        });
    pitlink::test::RecordingLinkOutput out;
    out.keepHex = false;
    std::int64_t now = 0;
    StationStack stack(kAddress, threeGames(), table, table, tickets, out, now);
    queue = &stack.exceptions();
    ParmrkDecoder decoder;
    bool command = false;

    for (std::size_t i = 0; i < size; ++i) {
        const auto byte = decoder.push(data[i]);
        if (!byte) {
            continue;
        }
        if (command) {
            command = false;
            const std::uint8_t action = byte->value & 3U;
            const std::uint8_t arg = byte->value >> 2U;
            if (action == 0) {
                now += std::int64_t{arg} * 250;
                timers.advance(milliseconds(arg * 250));
                stack.tick(now);
            } else if (action == 1) {
                ++ledger.cashouts;
                auto answered = std::make_shared<bool>(false);
                tickets.validateCashout(pitlink::game::Money{arg + 1} * 100,
                                        [&ledger, answered](std::optional<pitlink::table::ValidatedTicket> t) {
                                            check(!*answered);  // one answer per cash-out
                                            *answered = true;
                                            ++ledger.cashoutAnswers;
                                            check(!t || t->validation.size() == 18);
                                        });
            } else if (action == 2) {
                ++ledger.inserted;
                auto answered = std::make_shared<bool>(false);
                tickets.redeemTicket(std::to_string(i * 7919),
                                     [&ledger, &table, answered](const pitlink::table::RedeemVerdict& v) {
                                         check(!*answered);  // one verdict per ticket
                                         *answered = true;
                                         ++ledger.verdicts;
                                         if (!v.accepted) {
                                             return pitlink::table::RedeemCheck::Accepted;
                                         }
                                         check(v.amount >= 0);
                                         if (v.amount % 100 != 0) {
                                             return pitlink::table::RedeemCheck::NotEvenMultiple;
                                         }
                                         ++ledger.accepted;
                                         table.credits += static_cast<std::uint64_t>(v.amount);
                                         ledger.awaitingCommit = true;
                                         return pitlink::table::RedeemCheck::Accepted;
                                     });
            } else if (ledger.awaitingCommit) {
                ledger.awaitingCommit = false;
                const bool ok = (arg & 1U) == 0;
                ledger.committed += ok ? 1 : 0;
                tickets.redemptionCommitted(ok);
                if (ok) {
                    queue->raise(0x68);  // raised by the table's transaction in pitlinkd
                }
            }
            check(ledger.cashoutAnswers <= ledger.cashouts && ledger.verdicts <= ledger.inserted);
            continue;
        }
        if (!byte->wakeup && byte->value == 0x7E) {
            command = true;
            continue;
        }
        const int before = out.sends;
        const auto poll = stack.receive(*byte, false, now);
        if (!poll) {
            continue;
        }
        if (out.sends != before) {
            check(poll->address == kAddress && poll->kind != PollKind::BadCrc);
            check(wellFormed(out.last));
        }
        check(ledger.accepted <= ledger.verdicts && ledger.committed <= ledger.accepted);
    }
    // Everything asked gets its answer by the longest time-out.
    timers.advance(milliseconds(60'000));
    check(ledger.cashoutAnswers == ledger.cashouts);
    check(ledger.verdicts == ledger.inserted);
    return 0;
}
