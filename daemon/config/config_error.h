#pragma once
// A configuration or paytable file that cannot be used: names the file, line, column and key.

#include <stdexcept>
#include <string>

namespace pitlink::config {

class ConfigError : public std::runtime_error {
public:
    ConfigError(std::string file, int line, int column, std::string key, const std::string& problem)
        : std::runtime_error(file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                             (key.empty() ? std::string() : "'" + key + "': ") + problem),
          file_(std::move(file)),
          line_(line),
          column_(column),
          key_(std::move(key)) {}

    [[nodiscard]] const std::string& file() const { return file_; }
    [[nodiscard]] int line() const { return line_; }      // 1-based
    [[nodiscard]] int column() const { return column_; }  // 1-based
    [[nodiscard]] const std::string& key() const { return key_; }

private:
    std::string file_;
    int line_;
    int column_;
    std::string key_;
};

}  // namespace pitlink::config
