#pragma once
// Why the journal cannot be used. Thrown at start-up and by the store; the writer thread turns it
// into a failed commit (the table tilts) instead of letting it escape.
#include <stdexcept>
#include <string>

namespace pitlink::journal {

class JournalError : public std::runtime_error {
public:
    explicit JournalError(const std::string& what, int sqliteCode = 0)
        : std::runtime_error(what), sqliteCode_(sqliteCode) {}
    // The SQLite result code (extended) when SQLite reported it, else 0.
    [[nodiscard]] int sqliteCode() const { return sqliteCode_; }

private:
    int sqliteCode_;
};

}  // namespace pitlink::journal
