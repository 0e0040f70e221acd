#include "tests/sim/checker_credit_types.h"

#include <algorithm>

namespace pitlink::sim {

namespace {

std::int64_t part(const nlohmann::json& body, const char* name) {
    return body.value(name, std::int64_t{0});
}

std::string at(std::int64_t seq, std::int64_t station) {
    return "record " + std::to_string(seq) + " (station " + std::to_string(station) + "): ";
}

}  // namespace

void CreditTypesChecker::credit(std::int64_t seq, std::int64_t station, const nlohmann::json& body,
                                const Problem& problem) {
    StationCreditTypes& s = stations_[station];
    const std::string why = body.value("reason", "");
    const std::int64_t amount = body.value("amount", std::int64_t{0});
    const std::int64_t r = part(body, "restricted");
    const std::int64_t n = part(body, "nonrestricted");
    const std::int64_t cashable = amount - r - n;
    const std::string where = at(seq, station) + why + " ";
    if (why == "bet") {
        // Restricted first, then non-restricted, then cashable.
        const std::int64_t stake = -amount;
        const std::int64_t takeR = std::min(stake, s.restricted);
        const std::int64_t takeN = std::min(stake - takeR, s.nonrestricted);
        if (r != -takeR || n != -takeN) {
            problem(where + "of " + std::to_string(stake) + " took " + std::to_string(-r) + " restricted and " +
                    std::to_string(-n) + " non-restricted; held " + std::to_string(s.restricted) + " and " +
                    std::to_string(s.nonrestricted) + ", so " + std::to_string(takeR) + " and " +
                    std::to_string(takeN));
        }
        s.stakedRestricted -= r;
        s.stakedNonrestricted -= n;
    } else if (why == "bet_return") {
        s.stakedRestricted -= r;
        s.stakedNonrestricted -= n;
    } else if (why == "settlement") {
        const std::int64_t wagedR = part(body, "wagered_restricted");
        const std::int64_t wagedN = part(body, "wagered_nonrestricted");
        if (r < 0 || n < 0 || r > wagedR || n > wagedN) {
            problem(where + "gave back " + std::to_string(r) + " restricted and " + std::to_string(n) +
                    " non-restricted of stakes that took " + std::to_string(wagedR) + " and " + std::to_string(wagedN));
        }
        s.stakedRestricted -= wagedR;
        s.stakedNonrestricted -= wagedN;
        s.restrictedPlayed += wagedR;
        s.nonrestrictedPlayed += wagedN;
    } else if (why == "ticket_in" || why == "handpay" || why == "jackpot" || why == "tip" || why == "legacy_bonus") {
        if (r != 0 || n != 0) {
            problem(where + "moved promotional credits (" + std::to_string(r) + ", " + std::to_string(n) + ")");
        }
    } else if (why == "bonus_handpay") {
        // A bonus jackpot at the jackpot limit leaves as it came, in its own transaction: the
        // negation of the bonus credit with the same ref, which must come just before it.
        const std::string ref = body.value("ref", "");
        const auto it = ref.rfind("aft ", 0) == 0 ? credited_.find(ref.substr(4)) : credited_.end();
        if (it == credited_.end() || handpaid_.contains(ref) ||
            it->second != std::array<std::int64_t, 3>{-cashable, -r, -n} || lastCredit_[station] != ref) {
            problem(where + "with ref '" + ref + "' of " + std::to_string(cashable) + ", " + std::to_string(r) + ", " +
                    std::to_string(n) + ": not the negation of the bonus credited just before");
        }
        handpaid_.insert(ref);
        s.bonusHandpaid -= amount;
    } else if (why == "restricted_expired") {
        // Restricted credits gone at their expiry: restricted only, never a stake in play (checked
        // below: what is held of the type may not go below zero).
        if (amount >= 0 || r != amount || n != 0) {
            problem(where + "of " + std::to_string(amount) + " with parts " + std::to_string(r) + ", " +
                    std::to_string(n) + ": not restricted credits only");
        }
    } else if (why == "ticket_out") {
        if (r != 0 || n > 0) {
            problem(where + "took " + std::to_string(-r) + " restricted credits (a cashable ticket takes none)");
        }
    } else if (why == "transfer_in" || why == "bonus" || why == "transfer_out") {
        const int sign = why == "transfer_out" ? -1 : 1;
        if (sign * r < 0 || sign * n < 0 || sign * cashable < 0 || (why == "bonus" && r != 0)) {
            problem(where + "with parts " + std::to_string(cashable) + ", " + std::to_string(r) + ", " +
                    std::to_string(n));
        }
        const std::array<std::int64_t, 3> moved{sign * cashable, sign * r, sign * n};
        if (why == "bonus") {
            s.bonus[0] += moved[0];
            s.bonus[1] += moved[2];
            s.bonusCount[0] += moved[0] > 0 ? 1 : 0;
            s.bonusCount[1] += moved[2] > 0 ? 1 : 0;
        } else {
            auto& sum = why == "transfer_in" ? s.transferIn : s.transferOut;
            auto& count = why == "transfer_in" ? s.transferInCount : s.transferOutCount;
            for (std::size_t i = 0; i < 3; ++i) {
                sum[i] += moved[i];
                count[i] += moved[i] > 0 ? 1 : 0;
            }
        }
        const std::string ref = body.value("ref", "");
        if (ref.rfind("aft ", 0) != 0 || credited_.contains(ref.substr(4))) {
            problem(where + "with ref '" + ref + "': not one transfer's (or its second credit)");
        } else {
            credited_[ref.substr(4)] = moved;
        }
    }
    lastCredit_[station] = why == "bonus" ? body.value("ref", "") : std::string();
    s.restricted += r;
    s.nonrestricted += n;
    std::int64_t& credits = credits_[station];
    credits += amount;
    if (s.restricted < 0 || s.nonrestricted < 0 || credits - s.restricted - s.nonrestricted < 0 ||
        s.stakedRestricted < 0 || s.stakedNonrestricted < 0) {
        problem(where + "leaves a type below zero: restricted " + std::to_string(s.restricted) + ", non-restricted " +
                std::to_string(s.nonrestricted) + ", cashable " +
                std::to_string(credits - s.restricted - s.nonrestricted) + ", staked " +
                std::to_string(s.stakedRestricted) + " and " + std::to_string(s.stakedNonrestricted));
    }
}

void CreditTypesChecker::transfer(std::int64_t seq, std::int64_t station, const nlohmann::json& body,
                                  const Problem& problem) {
    const std::string id = body.value("id", "");
    const std::int64_t status = body.value("status", std::int64_t{-1});
    CheckedTransfer& t = transfers_[id];
    if (t.endings > 0) {
        problem(at(seq, station) + "transfer '" + id + "' journaled again after its end");
    }
    t.station = station;
    t.status = status;
    lastTransfer_[station] = id;
    if (status == 64) {
        return;
    }
    ++t.endings;
    const nlohmann::json moved = body.value("moved", nlohmann::json::object());
    t.moved = {part(moved, "cashable"), part(moved, "restricted"), part(moved, "nonrestricted")};
    const bool success = status == 0 || status == 1;
    if (!success && t.moved != std::array<std::int64_t, 3>{}) {
        problem(at(seq, station) + "transfer '" + id + "' ended with status " + std::to_string(status) +
                " and moved credits");
    }
}

void CreditTypesChecker::finish(const Problem& problem) const {
    for (const auto& [id, t] : transfers_) {
        const bool last = lastTransfer_.at(t.station) == id;
        if (t.endings == 0 && !last) {
            problem("transfer '" + id + "' of station " + std::to_string(t.station) + " left pending");
        }
        const bool moves = (t.status == 0 || t.status == 1) && t.moved != std::array<std::int64_t, 3>{};
        const auto it = credited_.find(id);
        if (moves && (it == credited_.end() || it->second != t.moved)) {
            problem("transfer '" + id + "' of station " + std::to_string(t.station) +
                    " ended successfully without the credit that moved what it says");
        }
        if (!moves && it != credited_.end() && t.endings > 0) {
            problem("transfer '" + id + "' of station " + std::to_string(t.station) + " ended with status " +
                    std::to_string(t.status) + " but credits moved for it");
        }
    }
    for (const auto& [id, moved] : credited_) {
        if (!transfers_.contains(id)) {
            problem("credits moved for transfer '" + id + "', which the journal never records");
        }
    }
}

}  // namespace pitlink::sim
