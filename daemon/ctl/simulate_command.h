#pragma once
// pitlinkctl simulate: deals real shoes and compares realised returns with the exact odds.

#include <ostream>
#include <string>
#include <vector>

namespace pitlink::ctl {

int runSimulate(const std::vector<std::string>& args, std::ostream& out);

}  // namespace pitlink::ctl
