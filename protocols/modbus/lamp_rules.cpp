#include "protocols/modbus/lamp_rules.h"

#include "protocols/modbus/enum_names.h"

namespace pitlink::modbus {

namespace {

constexpr std::array<std::string_view, 4> kStateNames{"off", "on", "slow_flash", "fast_flash"};
constexpr std::array<std::string_view, kConditionCount> kConditionNames{
    "tilt", "handpay", "door_open", "call_attendant", "bets_open", "last_bets", "no_more_bets", "dealing", "idle"};

}  // namespace

std::optional<LampState> parseLampState(std::string_view name) {
    return enumNamed<LampState>(kStateNames, name);
}

std::string_view lampStateName(LampState state) {
    return nameOf(kStateNames, state);
}

std::optional<TableCondition> parseTableCondition(std::string_view name) {
    return enumNamed<TableCondition>(kConditionNames, name);
}

std::string_view tableConditionName(TableCondition condition) {
    return nameOf(kConditionNames, condition);
}

std::vector<TableCondition> defaultPriority() {
    std::vector<TableCondition> order;
    for (std::size_t i = 0; i < kConditionCount; ++i) {
        order.push_back(static_cast<TableCondition>(i));
    }
    return order;
}

bool lampLit(LampState state, std::int64_t nowMs, const FlashTiming& timing) {
    switch (state) {
        case LampState::Off:
            return false;
        case LampState::On:
            return true;
        case LampState::SlowFlash:
            return (nowMs / timing.slowHalfPeriod.count()) % 2 == 0;
        case LampState::FastFlash:
            return (nowMs / timing.fastHalfPeriod.count()) % 2 == 0;
    }
    return false;
}

LampState lampStateFor(const LampRule& rule, const std::vector<TableCondition>& priority,
                       const TableConditions& active) {
    for (const TableCondition c : priority) {
        if (!active.at(static_cast<std::size_t>(c))) {
            continue;
        }
        if (const auto it = rule.find(c); it != rule.end()) {
            return it->second;
        }
    }
    return LampState::Off;
}

}  // namespace pitlink::modbus
