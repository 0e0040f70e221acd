#pragma once
// The checker's own following of credit types and cashless transfers (issue 36), from the journal
// as schema/README.md "Credit types" and the `aft.transfer` record describe them, sharing nothing
// with the daemon's ledger:
// - each station's restricted and non-restricted credits held, and of its stakes in play, from the
//   `restricted` / `nonrestricted` parts of every credit; no type ever below zero;
// - the rules of each reason: a bet takes restricted credits first, then non-restricted; what a
//   settlement gives back of its stakes' types is at most what they took; a win, a ticket in, a
//   hand-pay, a jackpot and a tip move cashable credits only; a ticket out takes no restricted
//   credits; a bonus none; a transfer in only adds and a transfer out only takes; an expiry
//   (restricted_expired) takes restricted credits only, never more than are held (not staked);
// - the AFT meters by type and count (SAS 00A0-00BD), 0019/001A (the promotional parts played)
//   and 001B (restricted held and staked), as a host reads them;
// - every `aft.transfer` ends once (the last one of a station may still be pending), and one that
//   moved credits has the `credit` (ref "aft ID") that moved exactly that.
#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>

namespace pitlink::sim {

// One station's credit types and cashless meters by the checker's sums.
struct StationCreditTypes {
    std::int64_t restricted = 0;     // held (of the credits)
    std::int64_t nonrestricted = 0;  // held
    std::int64_t stakedRestricted = 0;
    std::int64_t stakedNonrestricted = 0;
    std::int64_t restrictedPlayed = 0;     // 0019
    std::int64_t nonrestrictedPlayed = 0;  // 001A
    // Cashable, restricted, non-restricted (cents) and how many transfers moved each type.
    std::array<std::int64_t, 3> transferIn{};
    std::array<std::int64_t, 3> transferInCount{};
    std::array<std::int64_t, 3> transferOut{};
    std::array<std::int64_t, 3> transferOutCount{};
    std::array<std::int64_t, 2> bonus{};  // cashable, non-restricted
    std::array<std::int64_t, 2> bonusCount{};
    std::int64_t bonusHandpaid = 0;  // bonus jackpots taken off for a hand-pay (0021)
    [[nodiscard]] std::int64_t currentRestricted() const { return restricted + stakedRestricted; }  // 001B
};

// A transfer as the journal ends it.
struct CheckedTransfer {
    std::int64_t station = 0;
    std::int64_t status = 64;             // 64: still pending
    std::array<std::int64_t, 3> moved{};  // cashable, restricted, non-restricted
    int endings = 0;
};

class CreditTypesChecker {
public:
    using Problem = std::function<void(const std::string&)>;

    // A `credit` record of `station` (the balance chain is checked elsewhere).
    void credit(std::int64_t seq, std::int64_t station, const nlohmann::json& body, const Problem& problem);
    // An `aft.transfer` record.
    void transfer(std::int64_t seq, std::int64_t station, const nlohmann::json& body, const Problem& problem);
    // What only the whole journal can say: every transfer but each station's last has ended, and
    // every successful one was credited.
    void finish(const Problem& problem) const;

    [[nodiscard]] const std::map<std::int64_t, StationCreditTypes>& stations() const { return stations_; }
    [[nodiscard]] const std::map<std::string, CheckedTransfer>& transfers() const { return transfers_; }

private:
    std::map<std::int64_t, StationCreditTypes> stations_;
    std::map<std::int64_t, std::int64_t> credits_;  // each station's balance, for its cashable part
    std::map<std::string, CheckedTransfer> transfers_;
    std::map<std::int64_t, std::string> lastTransfer_;  // station -> its last transfer's ID
    // ID -> the moved amounts its credit carried, before or after its final record.
    std::map<std::string, std::array<std::int64_t, 3>> credited_;
    std::set<std::string> handpaid_;                  // refs of the bonus jackpots taken off for a hand-pay
    std::map<std::int64_t, std::string> lastCredit_;  // by station: the ref of its last credit if a bonus
};

}  // namespace pitlink::sim
