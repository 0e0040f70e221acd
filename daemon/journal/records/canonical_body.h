#pragma once
// The bodies the daemon writes, read without a general JSON parser. canonicalJson writes every
// body as one object with sorted keys, no white space, integers only and (nearly always) plain
// ASCII text. Most are 20-100 bytes; for such a text, simdjson's set-up for each document cost
// more than the reading itself, and the inspector's audit reads tens of millions of them.
//
// Only a text that is valid JSON and that nlohmann reads to the very value built here is taken:
//   - an object at the root, its keys in strictly increasing order (no key twice);
//   - text of the bytes 0x20-0x7E without an escape ('"' and '\' end it or refuse it);
//   - integers written without a sign on zero, a fraction or an exponent, of at most 18 digits
//     (non-negative ones unsigned, negative ones signed, as nlohmann makes them);
//   - true, false, null, arrays, objects nested at most kDeepest deep;
//   - no white space anywhere.
// Anything else (a byte above 0x7E, an escape, a float, "-0", a long number, white space) is
// refused here and read by BodyParser's general path. tests/fuzz/fuzz_body_parser.cpp compares
// the outcome with nlohmann's on any input.
#include <nlohmann/json.hpp>

#include <string_view>

namespace pitlink::journal {

// Makes `out` the value of `text` and returns true when the text is written as above; false
// otherwise (what `out` holds then is unspecified). `out`'s storage is reused where it has the
// same keys: a body like the one before it is read without allocating.
[[nodiscard]] bool readCanonicalBody(std::string_view text, nlohmann::json& out);

// True when `text` is an object written as above; false when it is not, or is written otherwise.
[[nodiscard]] bool isCanonicalObject(std::string_view text);

}  // namespace pitlink::journal
