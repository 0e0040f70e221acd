#pragma once
// The benches' command lines: `--key value` pairs, each read with its default; a key no bench
// reads is an error (a typo must not run a different benchmark than the one asked for).
#include <map>
#include <set>
#include <stdexcept>
#include <string>

namespace pitlink::test {

class CommandLine {
public:
    CommandLine(int argc, char** argv) {
        for (int i = 1; i < argc; i += 2) {
            if (i + 1 >= argc) {
                throw std::invalid_argument(std::string("no value after ") + argv[i]);
            }
            values_[argv[i]] = argv[i + 1];
        }
    }
    int integer(const std::string& key, int fallback) { return has(key) ? std::stoi(values_[key]) : fallback; }
    double number(const std::string& key, double fallback) { return has(key) ? std::stod(values_[key]) : fallback; }
    std::string text(const std::string& key, const std::string& fallback) { return has(key) ? values_[key] : fallback; }
    void rejectUnknown() const {
        for (const auto& [key, value] : values_) {
            if (!read_.contains(key)) {
                throw std::invalid_argument("unknown option " + key);
            }
        }
    }

private:
    bool has(const std::string& key) {
        read_.insert(key);
        return values_.contains(key);
    }
    std::map<std::string, std::string> values_;
    std::set<std::string> read_;
};

}  // namespace pitlink::test
