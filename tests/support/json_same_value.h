#pragma once
// Two nlohmann values equal and of equal types all the way down: nlohmann's == takes 5
// (unsigned) for 5 (signed), which the journal's body readers (body_fields.h) do not. Used where
// BodyParser is compared with nlohmann's own parse (unit test and fuzz target).
#include <nlohmann/json.hpp>

#include <cstddef>

namespace pitlink::test {

inline bool sameJsonValue(const nlohmann::json& a, const nlohmann::json& b) {
    if (a.type() != b.type() || a.size() != b.size()) {
        return false;
    }
    if (a.is_object()) {
        for (auto x = a.begin(), y = b.begin(); x != a.end(); ++x, ++y) {
            if (x.key() != y.key() || !sameJsonValue(*x, *y)) {
                return false;
            }
        }
        return true;
    }
    if (a.is_array()) {
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (!sameJsonValue(a[i], b[i])) {
                return false;
            }
        }
        return true;
    }
    return a.is_discarded() || a == b;  // a parsed float is never NaN: == compares it
}

}  // namespace pitlink::test
