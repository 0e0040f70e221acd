#include "daemon/config/yaml_map.h"

#include <charconv>

namespace pitlink::config {

namespace {
ConfigError errorAt(const std::string& file, const YAML::Mark& mark, const std::string& key,
                    const std::string& problem) {
    const bool known = mark.line >= 0;
    return ConfigError(file, known ? mark.line + 1 : 0, known ? mark.column + 1 : 0, key, problem);
}
}  // namespace

YAML::Node parseYaml(std::istream& in, const std::string& file) {
    try {
        return YAML::Load(in);
    } catch (const YAML::Exception& e) {
        throw errorAt(file, e.mark, "", "not valid YAML: " + e.msg);
    }
}

YamlMap::YamlMap(const YAML::Node& node, std::string path, std::string file)
    : node_(node), path_(std::move(path)), file_(std::move(file)) {
    if (node_ && !node_.IsNull() && !node_.IsMap()) {
        throw errorAt(file_, node_.Mark(), path_, "expected a mapping of keys to values");
    }
}

bool YamlMap::has(const std::string& key) const {
    const YAML::Node& self = node_;
    return self && self.IsMap() && self[key].IsDefined();
}

std::vector<std::string> YamlMap::keys() const {
    std::vector<std::string> out;
    if (node_ && node_.IsMap()) {
        for (const auto& kv : node_) {
            out.push_back(kv.first.Scalar());
        }
    }
    return out;
}

std::optional<YAML::Node> YamlMap::node(const std::string& key) {
    read_.insert(key);
    const YAML::Node& self = node_;
    return has(key) ? std::optional(self[key]) : std::nullopt;
}

std::optional<YAML::Node> YamlMap::scalar(const std::string& key) {
    auto n = node(key);
    if (n && !n->IsScalar()) {
        throw error(*n, key, "expected a single value");
    }
    return n;
}

std::int64_t YamlMap::integer(const std::string& key, std::int64_t fallback, std::int64_t min, std::int64_t max) {
    const auto n = scalar(key);
    if (!n) {
        return fallback;
    }
    const std::string& text = n->Scalar();
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    const std::string range = "an integer from " + std::to_string(min) + " to " + std::to_string(max);
    if (ec != std::errc{} || end != text.data() + text.size()) {
        throw error(*n, key, "expected " + range + ", got '" + text + "'");
    }
    if (value < min || value > max) {
        throw error(*n, key, std::to_string(value) + " is out of range: expected " + range);
    }
    return value;
}

bool YamlMap::boolean(const std::string& key, bool fallback) {
    const auto n = scalar(key);
    if (!n) {
        return fallback;
    }
    const std::string& text = n->Scalar();
    if (text == "true") {
        return true;
    }
    if (text == "false") {
        return false;
    }
    throw error(*n, key, "expected true or false, got '" + text + "'");
}

std::string YamlMap::string(const std::string& key, const std::string& fallback) {
    const auto n = scalar(key);
    return n ? n->Scalar() : fallback;
}

std::string YamlMap::requiredString(const std::string& key) {
    const auto n = scalar(key);
    if (!n || n->Scalar().empty()) {
        throw error(key, "is required");
    }
    return n->Scalar();
}

YamlMap YamlMap::map(const std::string& key) {
    return {node(key).value_or(YAML::Node()), keyPath(key), file_};
}

void YamlMap::rejectUnknownKeys() const {
    if (!node_ || !node_.IsMap()) {
        return;
    }
    for (const auto& kv : node_) {
        const std::string& key = kv.first.Scalar();
        if (read_.count(key) == 0) {
            throw errorAt(file_, kv.first.Mark(), keyPath(key), "unknown key");
        }
    }
}

ConfigError YamlMap::error(const YAML::Node& at, const std::string& key, const std::string& problem) const {
    return errorAt(file_, at.Mark(), keyPath(key), problem);
}

ConfigError YamlMap::error(const std::string& key, const std::string& problem) {
    const YAML::Node& self = node_;
    const YAML::Node at = has(key) ? self[key] : self;
    return errorAt(file_, at ? at.Mark() : YAML::Mark::null_mark(), keyPath(key), problem);
}

}  // namespace pitlink::config
