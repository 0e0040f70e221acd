#pragma once
// pitlinkctl commands on the journal: recall and audit verify ask the running daemon (which
// reads its journal off the logic thread), or with --journal FILE read a file directly
// (read-only: for inspectors with a copy, or a table whose daemon is stopped); audit export reads
// a file; resettle asks the daemon (an operator action, journaled with the user).
#include <ostream>
#include <string>
#include <vector>

namespace pitlink::ctl {

// audit verify --journal FILE [--key FILE] [--json]          exit 0 clean, 1 problems found
// audit export --journal FILE [--key FILE] [--rounds A-B] [--from-ms T] [--to-ms T] [--format jsonl|csv]
int runAudit(const std::vector<std::string>& args, std::ostream& out);
// recall [--journal FILE [--key FILE] [--station N] [--last N] [--round ID] [--json]
int runRecall(const std::vector<std::string>& args, std::ostream& out);
// tips --journal FILE [--key FILE] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--period day|hour] [--json]
// the dealer tips by period (UTC) and station, from the journal's tip records
int runTips(const std::vector<std::string>& args, std::ostream& out);
// journal archive --journal FILE --to DIR [--older-than-days N] [--key FILE] [--json]
// the oldest sealed segments (last record older than N days, default 0: every sealed one) checked,
// copied into DIR with a MANIFEST.jsonl line each, then removed from the journal (schema/README.md
// "Segments"). Run it with pitlinkd stopped or running; never on the only copy of a journal.
int runJournal(const std::vector<std::string>& args, std::ostream& out);
// resettle ROUND --cards "P1 B1 P2 B2 [P3] [B3]" --reason TEXT [--json]   (operator)
int runResettle(const std::vector<std::string>& args, std::ostream& out);

}  // namespace pitlink::ctl
