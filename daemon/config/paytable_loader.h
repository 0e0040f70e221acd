#pragma once
// Loads a paytable YAML file (etc/paytables/*.yaml) into game::Paytable. Every payout is an
// exact ratio string ("19/20", "8") or `push`; anything else is refused with file, line and key.

#include <filesystem>
#include <istream>
#include <string>

#include "daemon/game/paytable.h"

namespace pitlink::config {

game::Paytable loadPaytable(std::istream& in, const std::string& sourceName);
game::Paytable loadPaytableFile(const std::filesystem::path& path);

}  // namespace pitlink::config
