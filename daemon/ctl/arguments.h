#pragma once
// Command-line options of a pitlinkctl subcommand: "--name value" pairs and "--flag"s.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace pitlink::ctl {

// A usage error: pitlinkctl prints it with the subcommand's usage and exits 2.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class Arguments {
public:
    // `valued`: options that take a value; `flags`: options that do not. Anything else is a UsageError.
    Arguments(const std::vector<std::string>& args, const std::set<std::string>& valued,
              const std::set<std::string>& flags);

    [[nodiscard]] std::optional<std::string> value(const std::string& name) const;
    [[nodiscard]] bool flag(const std::string& name) const { return flags_.count(name) != 0; }
    // An integer option in [min, max], or `fallback` when absent.
    [[nodiscard]] std::int64_t integer(const std::string& name, std::int64_t fallback, std::int64_t min,
                                       std::int64_t max) const;

private:
    std::map<std::string, std::string> values_;
    std::set<std::string> flags_;
};

}  // namespace pitlink::ctl
