#pragma once
// Enums spelled in pitlink.yaml: the name of each value, in the enum's order, and back.
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace pitlink::modbus {

template <typename Enum, std::size_t N>
[[nodiscard]] constexpr std::optional<Enum> enumNamed(const std::array<std::string_view, N>& names,
                                                      std::string_view name) {
    for (std::size_t i = 0; i < N; ++i) {
        if (names[i] == name) {
            return static_cast<Enum>(i);
        }
    }
    return std::nullopt;
}

template <typename Enum, std::size_t N>
[[nodiscard]] constexpr std::string_view nameOf(const std::array<std::string_view, N>& names, Enum value) {
    return names.at(static_cast<std::size_t>(value));
}

}  // namespace pitlink::modbus
