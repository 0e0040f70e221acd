#pragma once
// Rows of a CSV file of tests/fixtures (these files have no quoted commas), header skipped.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace pitlink::test {

inline std::vector<std::vector<std::string>> fixtureCsv(const std::string& relativePath) {
    std::ifstream in(std::string(PITLINK_FIXTURES_DIR) + "/" + relativePath);
    std::vector<std::vector<std::string>> rows;
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::istringstream cellStream(line);
        std::string cell;
        while (std::getline(cellStream, cell, ',')) {
            cells.push_back(cell);
        }
        rows.push_back(std::move(cells));
    }
    return rows;
}

}  // namespace pitlink::test
