#include "daemon/journal/records/canonical_body.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include "daemon/journal/records/sorted_fields_merge.h"

namespace pitlink::journal {

using nlohmann::json;

namespace {

// Deeper nesting than any body the daemon writes (a segment's carried state: 6) is left to the general
// path, which has no such limit.
constexpr int kDeepest = 32;
// 18 digits always fit in 64 bits; a longer number may not, and nlohmann then makes a float of it.
constexpr std::ptrdiff_t kMostDigits = 18;

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

// The bytes text holds as they are: 0x20-0x7E but the quote that ends it and the backslash that
// would begin an escape. One look-up a byte: the audit's bodies are mostly such text.
constexpr std::array<bool, 256> kPlainByte = [] {
    std::array<bool, 256> plain{};
    for (int byte = 0x20; byte <= 0x7E; ++byte) {
        plain[static_cast<std::size_t>(byte)] = byte != '"' && byte != '\\';
    }
    return plain;
}();

// One pass over the text. Each reading function starts at its value's first byte and leaves
// `at_` just past the value; `out` null: the value is only checked.
class Reader {
public:
    explicit Reader(std::string_view text) : at_(text.data()), end_(text.data() + text.size()) {}

    bool value(json* out, int depth) {
        if (at_ == end_) {
            return false;
        }
        switch (*at_) {
            case '{':
                return depth < kDeepest && object(out, depth + 1);
            case '[':
                return depth < kDeepest && array(out, depth + 1);
            case '"':
                return string(out);
            case 't':
                return literal("true", out, json(true));
            case 'f':
                return literal("false", out, json(false));
            case 'n':
                return literal("null", out, json(nullptr));
            default:
                return integer(out);
        }
    }

    [[nodiscard]] bool atEnd() const { return at_ == end_; }

private:
    bool next(char c) {
        if (at_ != end_ && *at_ == c) {
            ++at_;
            return true;
        }
        return false;
    }

    // Text between quotes, of the bytes 0x20-0x7E: its bytes are its characters (no escape).
    bool text(std::string_view& out) {
        ++at_;  // the opening quote
        const char* const start = at_;
        while (at_ != end_ && kPlainByte[static_cast<unsigned char>(*at_)]) {
            ++at_;
        }
        if (at_ == end_ || *at_ != '"') {
            return false;  // the end, an escape, a control character or a byte above 0x7E
        }
        out = std::string_view(start, static_cast<std::size_t>(at_ - start));
        ++at_;
        return true;
    }

    bool string(json* out) {
        std::string_view read;
        if (!text(read)) {
            return false;
        }
        if (out != nullptr) {
            if (out->is_string()) {
                out->get_ref<std::string&>().assign(read);
            } else {
                *out = std::string(read);
            }
        }
        return true;
    }

    bool literal(std::string_view word, json* out, json value) {
        if (static_cast<std::size_t>(end_ - at_) < word.size() || std::memcmp(at_, word.data(), word.size()) != 0) {
            return false;
        }
        at_ += word.size();
        if (out != nullptr) {
            *out = std::move(value);
        }
        return true;
    }

    bool integer(json* out) {
        const bool negative = next('-');
        const char* const start = at_;
        if (at_ == end_ || !isDigit(*at_)) {
            return false;
        }
        if (*at_ == '0') {
            ++at_;
            if (negative || (at_ != end_ && isDigit(*at_))) {
                return false;  // "-0" (nlohmann keeps its sign) or a leading zero (not JSON)
            }
        } else {
            while (at_ != end_ && isDigit(*at_)) {
                ++at_;
            }
        }
        if (at_ != end_ && (*at_ == '.' || *at_ == 'e' || *at_ == 'E')) {
            return false;  // a fraction or an exponent: nlohmann's own float
        }
        if (at_ - start > kMostDigits) {
            return false;
        }
        if (out == nullptr) {
            return true;
        }
        std::uint64_t magnitude = 0;
        for (const char* digit = start; digit != at_; ++digit) {
            magnitude = magnitude * 10 + static_cast<std::uint64_t>(*digit - '0');
        }
        if (negative) {
            *out = -static_cast<std::int64_t>(magnitude);
        } else if (out->is_number_unsigned()) {
            out->get_ref<json::number_unsigned_t&>() = magnitude;
        } else {
            *out = magnitude;
        }
        return true;
    }

    // The elements of an array or the members of an object up to `close`, each read by `each`.
    template <typename Each>
    bool elements(char close, Each each) {
        ++at_;  // '[' or '{'
        if (next(close)) {
            return true;
        }
        do {
            if (!each()) {
                return false;
            }
        } while (next(','));
        return next(close);
    }

    bool array(json* out, int depth) {
        json::array_t* items = nullptr;
        if (out != nullptr) {
            if (!out->is_array()) {
                *out = json::array();
            }
            items = &out->get_ref<json::array_t&>();
        }
        std::size_t count = 0;
        const bool read = elements(']', [&] {
            if (items == nullptr) {
                return value(nullptr, depth);
            }
            if (count == items->size()) {
                items->emplace_back();
            }
            return value(&(*items)[count++], depth);
        });
        if (read && items != nullptr) {
            items->resize(count);
        }
        return read;
    }

    // Merged into what `out` holds (sorted_fields_merge.h); only checked, in the same key order,
    // when there is no `out`.
    bool object(json* out, int depth) {
        std::optional<SortedFieldsMerge> merge;
        if (out != nullptr) {
            merge.emplace(*out);
        }
        std::optional<std::string_view> before;
        const bool read = elements('}', [&] {
            std::string_view key;
            if (at_ == end_ || *at_ != '"' || !text(key) || !next(':')) {
                return false;
            }
            json* slot = nullptr;
            if (merge) {
                slot = merge->slot(key);
                if (slot == nullptr) {
                    return false;
                }
            } else if (before && !(*before < key)) {
                return false;
            }
            before = key;
            return value(slot, depth);
        });
        if (read && merge) {
            merge->finish();
        }
        return read;
    }

    const char* at_;
    const char* end_;
};

bool read(std::string_view text, json* out) {
    if (text.empty() || text.front() != '{') {
        return false;
    }
    Reader reader(text);
    return reader.value(out, 0) && reader.atEnd();
}

}  // namespace

bool readCanonicalBody(std::string_view text, json& out) {
    return read(text, &out);
}

bool isCanonicalObject(std::string_view text) {
    return read(text, nullptr);
}

}  // namespace pitlink::journal
