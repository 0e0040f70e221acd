#pragma once
// The fields of a journal record's body, read with their type and range checked. A journal file
// can be damaged or forged, and nlohmann's get<> would convert a float such as 1e107 to an
// integer (undefined behaviour), wrap an integer above the type's range, or take `true` for 1.
// Every reader of journal bodies reads its fields here. A field that does not fit is refused with
// BodyError, a json::exception: the error every reader already refuses a malformed body with.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/game/card.h"
#include "daemon/game/game_name.h"

namespace pitlink::journal {

class BodyError : public nlohmann::json::exception {
public:
    explicit BodyError(const std::string& what) : exception(0, what.c_str()) {}
};

// The most money one field of a body may hold, in minor units: a thousand times the largest bet,
// payout or ticket the configuration allows (10^12), so that sums of such fields fit in 64 bits.
inline constexpr std::int64_t kMaxBodyMoney = 1'000'000'000'000'000;
// The largest stake: the configuration's largest bet, so that a stake times the largest paytable
// term (10^6) fits in 64 bits when a round is settled again from its journal.
inline constexpr std::int64_t kMaxBodyStake = 1'000'000'000'000;
inline constexpr std::int64_t kMaxInt64 = std::numeric_limits<std::int64_t>::max();

// The integer at `key`, from `min` to `max`. A float (1e107, 2.0), text, a boolean, or an
// integer out of range is refused: "\"shoe\" must be an integer from 0 to 4294967295, not 1e+107".
[[nodiscard]] std::int64_t integerField(const nlohmann::json& body, std::string_view key, std::int64_t min,
                                        std::int64_t max);
// The same, or nullopt when the body has no `key`.
[[nodiscard]] std::optional<std::int64_t> optionalIntegerField(const nlohmann::json& body, std::string_view key,
                                                               std::int64_t min, std::int64_t max);
[[nodiscard]] const std::string& stringField(const nlohmann::json& body, std::string_view key);
[[nodiscard]] std::optional<std::string> optionalStringField(const nlohmann::json& body, std::string_view key);
[[nodiscard]] bool booleanField(const nlohmann::json& body, std::string_view key);
[[nodiscard]] const nlohmann::json& arrayField(const nlohmann::json& body, std::string_view key);
[[nodiscard]] const nlohmann::json& objectField(const nlohmann::json& body, std::string_view key);

// A value that is not a body's field (an array's element, a snapshot's meter), named by `what`.
[[nodiscard]] std::int64_t integerValue(const nlohmann::json& value, std::string_view what, std::int64_t min,
                                        std::int64_t max);
[[nodiscard]] const std::string& stringValue(const nlohmann::json& value, std::string_view what);
// A card written as the journal writes one ("AS", "TD"); anything else is refused.
[[nodiscard]] game::Card cardValue(const nlohmann::json& value, std::string_view what);
[[nodiscard]] game::Card cardField(const nlohmann::json& body, std::string_view key);
// A game's name (game::isGameName).
[[nodiscard]] const std::string& gameNameValue(const nlohmann::json& value, std::string_view what);
// A list of at most game::kMaxGames distinct game names.
[[nodiscard]] std::vector<std::string> gameNamesField(const nlohmann::json& body, std::string_view key);
// A station number written as an object's key ({"3": ...}): digits only, 1 to 2^63 - 1.
[[nodiscard]] std::int64_t stationKey(const std::string& key);

// Writes `value` at `key` when it is set: a typed record's optional field is absent from its
// body when the struct has none (as the bodies of earlier releases left it out).
template <typename T>
void putIfSet(nlohmann::json& body, std::string_view key, const std::optional<T>& value) {
    if (value) {
        body[std::string(key)] = *value;
    }
}

// Parses a record's body and reads it through `read`. A body that is malformed or does not fit is
// refused with a BodyError naming the record: "record 12 (handpay.pending): \"amount\" must be ...".
template <typename Read>
auto readRecordBody(std::int64_t seq, std::string_view kind, std::string_view body, Read&& read) {
    try {
        return read(nlohmann::json::parse(body));
    } catch (const nlohmann::json::exception& error) {
        throw BodyError("record " + std::to_string(seq) + " (" + std::string(kind) + "): " + error.what());
    }
}

}  // namespace pitlink::journal
