#pragma once
// Journal records as rows of PostgreSQL's COPY text format (PostgreSQL 15 documentation, COPY,
// "Text Format"): columns separated by a tab, rows ended by a newline, NULL as \N, and in a
// value a backslash, tab, newline and carriage return written as \\, \t, \n and \r. The hash
// goes as bytea's hex form (\x..., its backslash doubled). The body is copied byte for byte: it
// is the canonical text the link was computed over. Pure.
#include <cstdint>
#include <string>
#include <string_view>

#include "daemon/journal/store/record.h"

namespace pitlink::ship {

// The columns, in the order the rows have them.
inline constexpr std::string_view kCopyColumns =
    "table_name, journal_id, seq, at_ms, kind, round_id, station, body, hash";

// Appends one row for `record` of the table's journal.
void appendCopyRow(std::string& out, std::string_view table, std::int64_t journalId,
                   const journal::JournalRecord& record);

// One value escaped for the text format.
void appendCopyText(std::string& out, std::string_view value);

}  // namespace pitlink::ship
