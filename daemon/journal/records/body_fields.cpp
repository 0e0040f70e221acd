#include "daemon/journal/records/body_fields.h"

#include <algorithm>

namespace pitlink::journal {

using nlohmann::json;

namespace {

// What a refused value is, for the message: a number as written, anything else by its type.
std::string describe(const json& value) {
    switch (value.type()) {
        case json::value_t::number_integer:
        case json::value_t::number_unsigned:
        case json::value_t::number_float:
            return value.dump();
        case json::value_t::string:
            return "text";
        case json::value_t::boolean:
            return value.get<bool>() ? "true" : "false";
        case json::value_t::array:
            return "an array";
        case json::value_t::object:
            return "an object";
        default:
            return "null";
    }
}

// The integer `value` holds when it is one from `min` to `max`.
std::optional<std::int64_t> integerIn(const json& value, std::int64_t min, std::int64_t max) {
    // Parsed non-negative integers are number_unsigned, up to 2^64 - 1: only those up to 2^63 - 1 fit.
    std::int64_t number = 0;
    if (value.is_number_unsigned()) {
        const auto unsignedNumber = value.get<std::uint64_t>();
        if (unsignedNumber > static_cast<std::uint64_t>(kMaxInt64)) {
            return std::nullopt;
        }
        number = static_cast<std::int64_t>(unsignedNumber);
    } else if (value.is_number_integer()) {
        number = value.get<std::int64_t>();
    } else {
        return std::nullopt;
    }
    if (number < min || number > max) {
        return std::nullopt;
    }
    return number;
}

std::string quoted(std::string_view key) {
    return "\"" + std::string(key) + "\"";
}

// The value at `key`, or nullptr when the body has none. A body that is not an object has none.
const json* find(const json& body, std::string_view key) {
    if (!body.is_object()) {
        throw BodyError("the body is not a JSON object");
    }
    // A body has a handful of fields, and readers ask for fields it lacks: a look at each field's
    // length finds or misses a key with fewer comparisons of text than the map's search.
    constexpr std::size_t kMostScanned = 8;
    const auto& fields = body.get_ref<const json::object_t&>();
    if (fields.size() <= kMostScanned) {
        for (const auto& [name, value] : fields) {
            if (name.size() == key.size() && name == key) {
                return &value;
            }
        }
        return nullptr;
    }
    const auto it = fields.find(key);
    return it == fields.end() ? nullptr : &it->second;
}

const json& present(const json& body, std::string_view key) {
    const json* value = find(body, key);
    if (value == nullptr) {
        throw BodyError(quoted(key) + " is missing");
    }
    return *value;
}

}  // namespace

std::int64_t stationKey(const std::string& key) {
    if (key.empty() || key.size() > 18 || key.find_first_not_of("0123456789") != std::string::npos) {
        throw BodyError("\"" + key.substr(0, 20) + "\" is not a station number");
    }
    return integerValue(json(std::stoll(key)), "station " + key, 1, kMaxInt64);
}

std::int64_t integerValue(const json& value, std::string_view what, std::int64_t min, std::int64_t max) {
    if (const auto number = integerIn(value, min, max)) {
        return *number;
    }
    throw BodyError(std::string(what) + " must be an integer from " + std::to_string(min) + " to " +
                    std::to_string(max) + ", not " + describe(value));
}

const std::string& stringValue(const json& value, std::string_view what) {
    if (!value.is_string()) {
        throw BodyError(std::string(what) + " must be text, not " + describe(value));
    }
    return value.get_ref<const std::string&>();
}

game::Card cardValue(const json& value, std::string_view what) {
    const std::string& text = stringValue(value, what);
    const auto card = game::parseCard(text);
    if (!card) {
        throw BodyError(std::string(what) + " must be a card such as AS or TD, not \"" + text.substr(0, 20) + "\"");
    }
    return *card;
}

game::Card cardField(const json& body, std::string_view key) {
    return cardValue(present(body, key), quoted(key));
}

std::int64_t integerField(const json& body, std::string_view key, std::int64_t min, std::int64_t max) {
    const json& value = present(body, key);
    if (const auto number = integerIn(value, min, max)) {
        return *number;  // the field's name is quoted for a refusal only (a walk over a journal reads millions)
    }
    return integerValue(value, quoted(key), min, max);
}

std::optional<std::int64_t> optionalIntegerField(const json& body, std::string_view key, std::int64_t min,
                                                 std::int64_t max) {
    const json* value = find(body, key);
    if (value == nullptr) {
        return std::nullopt;
    }
    if (const auto number = integerIn(*value, min, max)) {
        return number;
    }
    return integerValue(*value, quoted(key), min, max);
}

const std::string& stringField(const json& body, std::string_view key) {
    const json& value = present(body, key);
    return value.is_string() ? value.get_ref<const std::string&>() : stringValue(value, quoted(key));
}

std::optional<std::string> optionalStringField(const json& body, std::string_view key) {
    const json* value = find(body, key);
    if (value == nullptr) {
        return std::nullopt;
    }
    return stringValue(*value, quoted(key));
}

bool booleanField(const json& body, std::string_view key) {
    const json& value = present(body, key);
    if (!value.is_boolean()) {
        throw BodyError(quoted(key) + " must be true or false, not " + describe(value));
    }
    return value.get<bool>();
}

const std::string& gameNameValue(const json& value, std::string_view what) {
    const std::string& name = stringValue(value, what);
    if (!game::isGameName(name)) {
        throw BodyError(std::string(what) + " must be a game's name (1 to " + std::to_string(game::kMaxGameName) +
                        " of a-z, 0-9, - and _), not \"" + name.substr(0, 40) + "\"");
    }
    return name;
}

std::vector<std::string> gameNamesField(const json& body, std::string_view key) {
    const json& list = arrayField(body, key);
    if (list.size() > game::kMaxGames) {
        throw BodyError(quoted(key) + " holds more than " + std::to_string(game::kMaxGames) + " games");
    }
    std::vector<std::string> names;
    for (const json& value : list) {
        const std::string& name = gameNameValue(value, "a game in " + quoted(key));
        if (std::find(names.begin(), names.end(), name) != names.end()) {
            throw BodyError(quoted(key) + " names " + name + " twice");
        }
        names.push_back(name);
    }
    return names;
}

const json& arrayField(const json& body, std::string_view key) {
    const json& value = present(body, key);
    if (!value.is_array()) {
        throw BodyError(quoted(key) + " must be an array, not " + describe(value));
    }
    return value;
}

const json& objectField(const json& body, std::string_view key) {
    const json& value = present(body, key);
    if (!value.is_object()) {
        throw BodyError(quoted(key) + " must be an object, not " + describe(value));
    }
    return value;
}

}  // namespace pitlink::journal
