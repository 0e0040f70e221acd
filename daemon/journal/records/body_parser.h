#pragma once
// Journal bodies parsed fast, into the very values nlohmann::json::parse makes of them. The
// inspector's audit reads every body of a year's journal (tens of millions): nlohmann's parser
// alone took a third of its time. simdjson (Debian's libsimdjson) validates and parses a body
// several times faster; its values are then copied into the nlohmann value that every body reader
// reads, so that each field's rule stays written once (body_fields.h, the typed records).
//
// A body written as the daemon writes them (canonical_body.h) is read first without simdjson,
// whose set-up for each document costs more than reading one of 20-100 bytes.
//
// The outcome is nlohmann's, exactly: a body simdjson does not take (a byte order mark, an
// integer beyond 64 bits) or whose values it would give otherwise (any number with a fraction or
// an exponent, "-0", which nlohmann keeps as a signed integer) is handed to nlohmann itself.
// tests/fuzz/fuzz_body_parser.cpp compares both on any input.
#include <nlohmann/json.hpp>

#include <memory>
#include <string_view>

namespace pitlink::journal {

class BodyParser {
public:
    BodyParser();
    ~BodyParser();
    BodyParser(BodyParser&&) noexcept;
    BodyParser& operator=(BodyParser&&) noexcept;
    BodyParser(const BodyParser&) = delete;
    BodyParser& operator=(const BodyParser&) = delete;

    // What nlohmann::json::parse(text, nullptr, false) returns: the value, or a discarded one.
    // It is kept here until the next parse of the same `shape`, which reuses its storage: a
    // record's kind, whose bodies mostly have the same keys (a few kinds: each is kept).
    [[nodiscard]] const nlohmann::json& parse(std::string_view text, std::string_view shape = {});
    // Whether nlohmann::json::parse(text) would return a JSON object (without building it).
    [[nodiscard]] bool isObject(std::string_view text);

    // What SQLite's json_extract(text, '$.<key>') gives, where it gives text or SQL NULL: the
    // member's text, or nullopt for NULL (no such member, or JSON null). A member that repeats is
    // its first. Not known (the outer nullopt) where SQLite may give anything else or read the
    // text otherwise: a value of another type, an escape anywhere in the text (SQLite compares
    // keys as written), a NUL, deep nesting, or a text simdjson does not take.
    using SqlText = std::optional<std::string>;
    [[nodiscard]] std::optional<SqlText> memberAsSqlText(std::string_view text, std::string_view key);

    // How many bodies were handed to nlohmann (for tests and benchmarks).
    [[nodiscard]] std::uint64_t handedOver() const { return handedOver_; }

private:
    struct Simd;
    std::unique_ptr<Simd> simd_;
    std::uint64_t handedOver_ = 0;
};

}  // namespace pitlink::journal
