#pragma once
// pitlinkctl commands that read a journal file directly (read-only), for inspectors and for a
// table whose daemon is stopped: audit verify, audit export, recall. With the control socket
// (issue 5) the same commands ask the running daemon.
#include <ostream>
#include <string>
#include <vector>

namespace pitlink::ctl {

// audit verify --journal FILE [--key FILE] [--json]          exit 0 clean, 1 problems found
// audit export --journal FILE [--key FILE] [--rounds A-B] [--from-ms T] [--to-ms T] [--format jsonl|csv]
int runAudit(const std::vector<std::string>& args, std::ostream& out);
// recall --journal FILE [--key FILE] [--station N] [--last N] [--round ID] [--json]
int runRecall(const std::vector<std::string>& args, std::ostream& out);

}  // namespace pitlink::ctl
