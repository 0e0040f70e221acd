#include "daemon/config/modbus_settings.h"

#include <array>

#include "protocols/modbus/enum_names.h"

namespace pitlink::modbus {

namespace {
constexpr std::array<std::string_view, 5> kActionNames{"close_bets", "new_shoe", "void_round", "attendant_key",
                                                       "confirm"};
}

std::optional<ButtonAction> parseButtonAction(std::string_view name) {
    return enumNamed<ButtonAction>(kActionNames, name);
}

std::string_view buttonActionName(ButtonAction action) {
    return nameOf(kActionNames, action);
}

}  // namespace pitlink::modbus
