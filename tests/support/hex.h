#pragma once
// Tests speak hex (docs/design.md "Style"): "01 1A 00 01" <-> bytes.
#include <cstdint>
#include <cstdio>
#include <span>
#include <sstream>
#include <string>
#include <vector>

namespace pitlink::test {

inline std::vector<std::uint8_t> bytes(const std::string& hex) {
    std::vector<std::uint8_t> out;
    std::istringstream in(hex);
    std::string word;
    while (in >> word) {
        out.push_back(static_cast<std::uint8_t>(std::stoul(word, nullptr, 16)));
    }
    return out;
}

inline std::string hex(std::span<const std::uint8_t> data) {
    std::string out;
    char buffer[4];
    for (const std::uint8_t b : data) {
        std::snprintf(buffer, sizeof buffer, "%02X", b);
        if (!out.empty()) {
            out += ' ';
        }
        out += buffer;
    }
    return out;
}

}  // namespace pitlink::test
