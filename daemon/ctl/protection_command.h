#pragma once
// pitlinkctl protection (docs/protection.md): a game's protection as it stands, its edges and
// reports as they come (--follow), or a shoe's from the journal (--shoe N), as text, JSON or a
// picture (--svg FILE, with --station S's side-bet stakes).
#include <ostream>
#include <string>
#include <vector>

namespace pitlink::ctl {

int runProtection(const std::vector<std::string>& args, std::ostream& out);

}  // namespace pitlink::ctl
