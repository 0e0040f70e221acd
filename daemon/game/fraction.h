#pragma once
// An exact non-negative fraction: payout ratios ("19/20") and breakage. No floats in settlement.

#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>

#include "daemon/game/wide_int.h"

namespace pitlink::game {

struct Fraction {
    std::int64_t num = 0;
    std::int64_t den = 1;

    [[nodiscard]] Fraction reduced() const {
        const std::int64_t g = std::gcd(num, den);
        return g > 1 ? Fraction{num / g, den / g} : *this;
    }
    [[nodiscard]] std::string toString() const;

    // Compares values, not representations (1/2 == 2/4).
    friend bool operator==(Fraction a, Fraction b) {
        return static_cast<Int128>(a.num) * b.den == static_cast<Int128>(b.num) * a.den;
    }
    friend bool operator<(Fraction a, Fraction b) {
        return static_cast<Int128>(a.num) * b.den < static_cast<Int128>(b.num) * a.den;
    }
};

// Largest numerator or denominator a paytable may use; keeps stake * num far from overflow.
inline constexpr std::int64_t kMaxRatioTerm = 1'000'000;

// Parses "8", "19/20", "3/2". Refuses negatives, zero denominators, spaces, terms above kMaxRatioTerm.
[[nodiscard]] std::optional<Fraction> parseRatio(std::string_view text);

}  // namespace pitlink::game
