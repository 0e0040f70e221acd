#pragma once
// Which state each lamp shows for the table's state. The table's conditions are ranked (by
// default tilt > hand-pay > door open > call attendant > the round's phase); a lamp shows the
// state its rule gives for the highest-ranked condition that is active and that the rule names,
// and is off when its rule names none of them. Flashing is computed here from pitlink's clock
// (every flashing lamp in step), never left to the device.
#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

namespace pitlink::modbus {

enum class LampState : std::uint8_t { Off, On, SlowFlash, FastFlash };

enum class TableCondition : std::uint8_t {
    Tilt,
    Handpay,
    DoorOpen,
    CallAttendant,
    BetsOpen,
    LastBets,
    NoMoreBets,  // bets closed, cards not yet all out
    Dealing,
    Idle,  // between rounds
};
inline constexpr std::size_t kConditionCount = 9;

[[nodiscard]] std::optional<LampState> parseLampState(std::string_view name);
[[nodiscard]] std::string_view lampStateName(LampState state);
[[nodiscard]] std::optional<TableCondition> parseTableCondition(std::string_view name);
[[nodiscard]] std::string_view tableConditionName(TableCondition condition);

// The default ranking: tilt, hand-pay, door open, call attendant, then the round's phases.
[[nodiscard]] std::vector<TableCondition> defaultPriority();

struct FlashTiming {
    std::chrono::milliseconds slowHalfPeriod{500};  // on 500 ms, off 500 ms
    std::chrono::milliseconds fastHalfPeriod{125};
    bool operator==(const FlashTiming&) const = default;
};

// Whether a lamp in `state` is lit at `nowMs` (milliseconds on pitlink's clock).
[[nodiscard]] bool lampLit(LampState state, std::int64_t nowMs, const FlashTiming& timing);

using TableConditions = std::array<bool, kConditionCount>;  // by TableCondition
using LampRule = std::map<TableCondition, LampState>;

[[nodiscard]] LampState lampStateFor(const LampRule& rule, const std::vector<TableCondition>& priority,
                                     const TableConditions& active);

}  // namespace pitlink::modbus
