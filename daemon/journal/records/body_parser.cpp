#include "daemon/journal/records/body_parser.h"

#include <simdjson.h>

#include <algorithm>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

#include "daemon/journal/records/canonical_body.h"
#include "daemon/journal/records/sorted_fields_merge.h"

namespace pitlink::journal {

using nlohmann::json;

// Its implicit special members only move and free simdjson's and nlohmann's values; clang-tidy 14
// reports a possible throw there that it cannot place (as for SegmentPass in read/audit.cpp).
// NOLINTNEXTLINE(bugprone-exception-escape)
struct BodyParser::Simd {
    simdjson::dom::parser parser;
    // The body parse() returned last for each shape, reused by the next of that shape (a deque:
    // a new shape does not move the others, which callers may still hold).
    std::deque<std::pair<std::string, json>> lastByShape;
    json lastForMember;  // the last body memberAsSqlText() read as the daemon writes bodies
    json& lastOf(std::string_view shape) {
        for (auto& [name, last] : lastByShape) {
            if (name == shape) {
                return last;
            }
        }
        return lastByShape.emplace_back(shape, json()).second;
    }
};

namespace {

// The body's root as simdjson parses it; nullopt when it does not take it, or when the text may
// hold "-0" (simdjson reads it as the integer 0; nlohmann as a signed integer, not an unsigned one).
std::optional<simdjson::dom::element> simdRoot(simdjson::dom::parser& parser, std::string_view text) {
    if (text.find("-0") != std::string_view::npos) {
        return std::nullopt;
    }
    simdjson::dom::element root;
    if (parser.parse(text.data(), text.size(), true).get(root) != simdjson::SUCCESS) {
        return std::nullopt;
    }
    return root;
}

// Makes `out` the nlohmann value of a simdjson one; false when nlohmann would make another of its
// text (a number with a fraction or an exponent, which nlohmann reads with its own rounding and
// range). nlohmann makes a non-negative integer unsigned and a negative one signed; a repeated key
// keeps its last value. What `out` holds is reused where it has the same shape (the bodies of a
// journal mostly follow one another with the same keys): a body is then read without allocating.
bool copyInto(simdjson::dom::element value, json& out);

bool copyObject(simdjson::dom::object fields, json& out) {
    if (out.is_object()) {
        // Merged into what is there (sorted_fields_merge.h). A body whose keys are not in order
        // (or repeat) is built again below.
        SortedFieldsMerge merge(out);
        bool inOrder = true;
        for (const simdjson::dom::key_value_pair field : fields) {
            json* slot = merge.slot(field.key);
            if (slot == nullptr) {
                inOrder = false;
                break;
            }
            if (!copyInto(field.value, *slot)) {
                return false;
            }
        }
        if (inOrder) {
            merge.finish();
            return true;
        }
    }
    out = json::object();
    auto& object = out.get_ref<json::object_t&>();
    for (const simdjson::dom::key_value_pair field : fields) {
        // At the end, where a body's sorted keys go; a key already there is the one it replaces.
        const auto at = object.emplace_hint(object.end(), std::string(field.key), nullptr);
        if (!copyInto(field.value, at->second)) {
            return false;
        }
    }
    return true;
}

bool copyArray(simdjson::dom::array items, json& out) {
    if (!out.is_array()) {
        out = json::array();
    }
    auto& array = out.get_ref<json::array_t&>();
    // Counted as they come: simdjson's size() stops at 2^24 - 1 elements (a forged body may hold more).
    std::size_t count = 0;
    for (const simdjson::dom::element item : items) {
        if (count == array.size()) {
            array.emplace_back();
        }
        if (!copyInto(item, array[count++])) {
            return false;
        }
    }
    array.resize(count);
    return true;
}

bool copyInto(simdjson::dom::element value, json& out) {
    using Type = simdjson::dom::element_type;
    switch (value.type()) {
        case Type::OBJECT:
            return copyObject(simdjson::dom::object(value), out);
        case Type::ARRAY:
            return copyArray(simdjson::dom::array(value), out);
        case Type::STRING:
            if (out.is_string()) {
                out.get_ref<std::string&>().assign(std::string_view(value));
            } else {
                out = std::string(std::string_view(value));
            }
            return true;
        case Type::INT64: {
            const std::int64_t n = std::int64_t(value);
            out = n < 0 ? json(n) : json(static_cast<std::uint64_t>(n));
            return true;
        }
        case Type::UINT64:
            out = std::uint64_t(value);
            return true;
        case Type::BOOL:
            out = bool(value);
            return true;
        case Type::NULL_VALUE:
            out = nullptr;
            return true;
        case Type::DOUBLE:
            return false;
    }
    return false;
}

// Whether a simdjson value holds a number with a fraction or an exponent.
bool holdsDouble(simdjson::dom::element value) {
    using Type = simdjson::dom::element_type;
    switch (value.type()) {
        case Type::OBJECT:
            for (const simdjson::dom::key_value_pair field : simdjson::dom::object(value)) {
                if (holdsDouble(field.value)) {
                    return true;
                }
            }
            return false;
        case Type::ARRAY:
            for (const simdjson::dom::element item : simdjson::dom::array(value)) {
                if (holdsDouble(item)) {
                    return true;
                }
            }
            return false;
        case Type::DOUBLE:
            return true;
        default:
            return false;
    }
}

}  // namespace

BodyParser::BodyParser() : simd_(std::make_unique<Simd>()) {}
BodyParser::~BodyParser() = default;
BodyParser::BodyParser(BodyParser&&) noexcept = default;
BodyParser& BodyParser::operator=(BodyParser&&) noexcept = default;

const json& BodyParser::parse(std::string_view text, std::string_view shape) {
    json& out = simd_->lastOf(shape);
    if (readCanonicalBody(text, out)) {
        return out;  // as the daemon writes bodies: read without simdjson's set-up
    }
    if (const auto root = simdRoot(simd_->parser, text); root && copyInto(*root, out)) {
        return out;
    }
    ++handedOver_;
    out = json::parse(text, nullptr, false);
    return out;
}

bool BodyParser::isObject(std::string_view text) {
    if (isCanonicalObject(text)) {
        return true;
    }
    if (const auto root = simdRoot(simd_->parser, text); root && !holdsDouble(*root)) {
        return root->is_object();
    }
    ++handedOver_;
    // nlohmann's verdict without its value: an object begins with '{' (after a UTF-8 byte order
    // mark nlohmann skips, and white space) and is accepted whole.
    constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
    const std::size_t from = text.starts_with(kByteOrderMark) ? kByteOrderMark.size() : 0;
    const auto first = text.find_first_not_of(" \t\n\r", from);
    return first != std::string_view::npos && text[first] == '{' && json::accept(text);
}

std::optional<BodyParser::SqlText> BodyParser::memberAsSqlText(std::string_view text, std::string_view key) {
    if (readCanonicalBody(text, simd_->lastForMember)) {
        // Text without escapes, one value per key: SQLite reads it as it is written.
        const auto& fields = simd_->lastForMember.get_ref<const json::object_t&>();
        const auto member = fields.find(key);
        if (member == fields.end() || member->second.is_null()) {
            return std::optional<SqlText>(std::in_place);  // SQL NULL
        }
        if (member->second.is_string()) {
            return std::optional<SqlText>(std::in_place, member->second.get_ref<const std::string&>());
        }
        return std::nullopt;  // a number, a boolean, an object or an array: SQLite's own reading
    }
    // SQLite nests at most 1000 deep; fewer openings than that nest less deep.
    constexpr std::ptrdiff_t kFewerOpeningsThanSqliteNests = 1000;
    if (text.find_first_of(std::string_view("\\\0", 2)) != std::string_view::npos ||
        std::count_if(text.begin(), text.end(), [](char c) { return c == '{' || c == '['; }) >=
            kFewerOpeningsThanSqliteNests) {
        return std::nullopt;
    }
    simdjson::dom::element root;
    if (simd_->parser.parse(text.data(), text.size(), true).get(root) != simdjson::SUCCESS || !root.is_object()) {
        return std::nullopt;
    }
    for (const simdjson::dom::key_value_pair field : simdjson::dom::object(root)) {
        if (field.key == key) {
            if (field.value.is_string()) {
                return std::optional<SqlText>(std::in_place, std::string_view(field.value));
            }
            if (field.value.is_null()) {
                return std::optional<SqlText>(std::in_place);  // SQL NULL
            }
            return std::nullopt;  // a number, a boolean, an object or an array: SQLite's own reading
        }
    }
    return std::optional<SqlText>(std::in_place);  // no such member: SQL NULL
}

}  // namespace pitlink::journal
