#include "daemon/ship/copy_rows.h"

namespace pitlink::ship {

void appendCopyText(std::string& out, std::string_view value) {
    for (const char c : value) {
        switch (c) {
            case '\\':
                out += "\\\\";
                break;
            case '\t':
                out += "\\t";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            default:
                out += c;
        }
    }
}

void appendCopyRow(std::string& out, std::string_view table, std::int64_t journalId,
                   const journal::JournalRecord& record) {
    const auto optional = [&out](const std::optional<std::int64_t>& v) {
        out += v ? std::to_string(*v) : std::string("\\N");
    };
    appendCopyText(out, table);
    out += '\t';
    out += std::to_string(journalId);
    out += '\t';
    out += std::to_string(record.seq);
    out += '\t';
    out += std::to_string(record.atMs);
    out += '\t';
    appendCopyText(out, record.kind);
    out += '\t';
    optional(record.roundId);
    out += '\t';
    optional(record.station);
    out += '\t';
    appendCopyText(out, record.body);
    out += "\t\\\\x";
    out += journal::toHex(record.hash);
    out += '\n';
}

}  // namespace pitlink::ship
