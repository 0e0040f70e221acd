#include "daemon/game/fraction.h"

#include <charconv>

namespace pitlink::game {

namespace {
std::optional<std::int64_t> parseTerm(std::string_view text) {
    if (text.empty() || text.size() > 7) {
        return std::nullopt;
    }
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size() || value < 0 || value > kMaxRatioTerm) {
        return std::nullopt;
    }
    return value;
}
}  // namespace

std::string Fraction::toString() const {
    return den == 1 ? std::to_string(num) : std::to_string(num) + "/" + std::to_string(den);
}

std::optional<Fraction> parseRatio(std::string_view text) {
    const auto slash = text.find('/');
    const auto num = parseTerm(text.substr(0, slash));
    if (!num) {
        return std::nullopt;
    }
    if (slash == std::string_view::npos) {
        return Fraction{*num, 1};
    }
    const auto den = parseTerm(text.substr(slash + 1));
    if (!den || *den == 0) {
        return std::nullopt;
    }
    return Fraction{*num, *den};
}

}  // namespace pitlink::game
