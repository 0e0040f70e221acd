// BodyParser against the readers it stands in for, on any input: each body its parse() gives must
// be nlohmann's value of the same text, type for type (a signed or an unsigned integer, a float);
// isObject() nlohmann's verdict; and memberAsSqlText(), where it answers, SQLite's json_extract.
// The input is one to four bodies separated by 0x01 (a byte no JSON text holds unescaped), parsed
// one after the other by one parser: each reuses what the one before left.
#include <sqlite3.h>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "daemon/journal/records/body_parser.h"
#include "tests/support/json_same_value.h"

namespace {

using nlohmann::json;

// SQLite's json_extract(text, '$.game'): the text, nullopt for NULL; nothing to compare (the outer
// nullopt) when it is another type or SQLite refuses the text.
std::optional<std::optional<std::string>> sqliteGame(std::string_view text) {
    static sqlite3* db = [] {
        sqlite3* opened = nullptr;
        if (sqlite3_open(":memory:", &opened) != SQLITE_OK) {
            std::abort();
        }
        return opened;
    }();
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT typeof(json_extract(?1, '$.game')), json_extract(?1, '$.game')", -1, &statement,
                           nullptr) != SQLITE_OK) {
        std::abort();
    }
    sqlite3_bind_text(statement, 1, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
    std::optional<std::optional<std::string>> out;
    if (sqlite3_step(statement) == SQLITE_ROW) {
        const std::string_view type = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
        if (type == "null") {
            out.emplace();
        } else if (type == "text") {
            out.emplace(std::string(reinterpret_cast<const char*>(sqlite3_column_text(statement, 1)),
                                    static_cast<std::size_t>(sqlite3_column_bytes(statement, 1))));
        } else {
            out.emplace("<" + std::string(type) + ">");
        }
    }
    sqlite3_finalize(statement);
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static pitlink::journal::BodyParser parser;  // kept across inputs too: what each left is reused
    std::string_view rest(reinterpret_cast<const char*>(data), size);
    for (int i = 0; i < 4 && !rest.empty(); ++i) {
        const std::size_t end = std::min(rest.find('\x01'), rest.size());
        const std::string_view text = rest.substr(0, end);
        rest.remove_prefix(std::min(end + 1, rest.size()));

        const json expected = json::parse(text, nullptr, false);
        if (!pitlink::test::sameJsonValue(parser.parse(text), expected)) {
            std::abort();
        }
        if (parser.isObject(text) != expected.is_object()) {
            std::abort();
        }
        if (const auto game = parser.memberAsSqlText(text, "game")) {
            const auto sqlite = sqliteGame(text);
            if (!sqlite || *sqlite != *game) {
                std::abort();  // answered where SQLite refuses, or otherwise than SQLite
            }
        }
    }
    return 0;
}
