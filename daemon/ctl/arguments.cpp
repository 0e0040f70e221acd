#include "daemon/ctl/arguments.h"

#include <charconv>

namespace pitlink::ctl {

Arguments::Arguments(const std::vector<std::string>& args, const std::set<std::string>& valued,
                     const std::set<std::string>& flags) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (valued.count(a) != 0) {
            if (i + 1 == args.size()) {
                throw UsageError(a + " needs a value");
            }
            values_[a] = args[++i];
        } else if (flags.count(a) != 0) {
            flags_.insert(a);
        } else {
            throw UsageError("unknown option '" + a + "'");
        }
    }
}

std::optional<std::string> Arguments::value(const std::string& name) const {
    const auto it = values_.find(name);
    return it == values_.end() ? std::nullopt : std::optional(it->second);
}

std::int64_t Arguments::integer(const std::string& name, std::int64_t fallback, std::int64_t min,
                                std::int64_t max) const {
    const auto text = value(name);
    if (!text) {
        return fallback;
    }
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
    if (ec != std::errc{} || end != text->data() + text->size() || v < min || v > max) {
        throw UsageError(name + " expects an integer from " + std::to_string(min) + " to " + std::to_string(max) +
                         ", got '" + *text + "'");
    }
    return v;
}

}  // namespace pitlink::ctl
