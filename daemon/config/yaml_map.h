#pragma once
// Reads one YAML mapping into typed values with ranges, and refuses what it does not know:
// every error is a ConfigError with file, line, column and the dotted key path.

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <istream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "daemon/config/config_error.h"

namespace pitlink::config {

// Parses a whole document; a YAML syntax error becomes a ConfigError at its position.
YAML::Node parseYaml(std::istream& in, const std::string& file);

class YamlMap {
public:
    // `node` must be a mapping (or null, read as empty); `path` is its dotted key ("" at the top).
    YamlMap(const YAML::Node& node, std::string path, std::string file);

    [[nodiscard]] bool has(const std::string& key) const;
    std::int64_t integer(const std::string& key, std::int64_t fallback, std::int64_t min, std::int64_t max);
    bool boolean(const std::string& key, bool fallback);
    std::string string(const std::string& key, const std::string& fallback);
    std::string requiredString(const std::string& key);
    YamlMap map(const std::string& key);                     // a missing key reads as an empty mapping
    std::optional<YAML::Node> node(const std::string& key);  // marks the key as read; nullopt when absent
    [[nodiscard]] std::vector<std::string> keys() const;     // in document order

    // Refuses every key that was never read: a typo must not be silently ignored.
    void rejectUnknownKeys() const;

    [[nodiscard]] ConfigError error(const YAML::Node& at, const std::string& key, const std::string& problem) const;
    [[nodiscard]] ConfigError error(const std::string& key, const std::string& problem);
    [[nodiscard]] std::string keyPath(const std::string& key) const {
        return path_.empty() || key.empty() ? path_ + key : path_ + "." + key;
    }
    [[nodiscard]] const std::string& file() const { return file_; }

private:
    std::optional<YAML::Node> scalar(const std::string& key);

    YAML::Node node_;
    std::string path_;
    std::string file_;
    std::set<std::string> read_;
};

// Each item of the list at `key` (absent: none) as a mapping named "key[i]"; not a list: an error.
template <typename Read>
void forEachItem(YamlMap& map, const std::string& key, Read read) {
    const auto list = map.node(key);
    if (!list) {
        return;
    }
    if (!list->IsSequence()) {
        throw map.error(*list, key, "expected a list");
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
        read(YamlMap((*list)[i], map.keyPath(key) + "[" + std::to_string(i) + "]", map.file()));
    }
}

}  // namespace pitlink::config
