#pragma once
// A typed record: one struct per record kind, its fields named once. The struct says its kind
// (`static constexpr std::string_view kKind`), and next to it, in the same file, the two functions
// that are the only place its body's field names are written:
//   nlohmann::json toBody(const R&)                               the body it is stored as
//   R fromBody(const nlohmann::json&, std::type_identity<R>)      read back (BodyError if it does not fit)
// A writer fills the struct and hands it to JournalTransaction::add; a reader gets the struct from
// journal::recordOf (a fact of this process: the struct as written; a stored one: read from its
// body). A field renamed in a struct fails the build of every writer and reader; a name changed in
// toBody but not in fromBody fails the round trip of tests/unit/typed_records_test.cpp. Canonical
// JSON stays the stored form: the bodies these functions make are the bodies of before, byte for
// byte (tests/integration/test_release_journals.py).
#include <nlohmann/json.hpp>

#include <concepts>
#include <string_view>
#include <type_traits>

namespace pitlink::journal {

template <typename R>
concept TypedRecord = std::copyable<R> && requires(const R& record) {
    { R::kKind } -> std::convertible_to<std::string_view>;
    { toBody(record) } -> std::same_as<nlohmann::json>;
};

// A kind whose body other parts of the daemon read back.
template <typename R>
concept ReadableRecord = TypedRecord<R> && requires(const nlohmann::json& body) {
    { fromBody(body, std::type_identity<R>{}) } -> std::same_as<R>;
};

// The record read from a stored body; BodyError (a json::exception) when it does not fit.
template <ReadableRecord R>
[[nodiscard]] R readBody(const nlohmann::json& body) {
    return fromBody(body, std::type_identity<R>{});
}

}  // namespace pitlink::journal
