#pragma once
// The slot accounting host of the simulation tier: a host on the SAS links of some stations,
// written from docs/sas.md and protocols/sas/README.md (its own CRC, BCD and layouts, in
// sim_sas_line.h and here), not from the daemon's code. It polls the links in turn (a general
// poll, after a poll to another address when the link needs it) and acts on what it reads:
// - 57: reads the cash-out (LP 57) and validates it with a number of its own (LP 58), denies it
//   (system ID 00) or lets it time out; 3D: reads the printed ticket's record (LP 4D 00) and
//   adds the ticket to its database once (a record read again after a restart is known);
// - 67: reads the ticket in escrow (LP 70), accepts it (LP 71 with the amount its database
//   holds) when it is outstanding, else rejects it; or lets it time out; 68: asks the final
//   status (LP 71 FF): redeemed on 00, outstanding again on a refusal, pending while unknown;
// - 51: reads the hand-pay (LP 1B);
// and on demand LP 94 resets, LP 7F clock sets (read back with LP 7E), LP 1A and LP 2F meters.
// Now and then a poll goes out with a broken CRC (no answer allowed) or is sent again as if its
// answer was lost (an implied NACK: the very same bytes must come back, nothing done twice).
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace pitlink::sim {

struct HostStats {
    std::int64_t generalPolls = 0;
    std::int64_t longPolls = 0;
    std::int64_t exceptions = 0;
    std::int64_t cashoutsValidated = 0;
    std::int64_t cashoutsDenied = 0;
    std::int64_t ticketsPrinted = 0;  // records read with LP 4D, new to the host
    std::int64_t ticketsAccepted = 0;
    std::int64_t ticketsRejected = 0;
    std::int64_t ticketsRedeemed = 0;  // final status 00
    std::int64_t handpaysRead = 0;
    std::int64_t clockSets = 0;
    std::int64_t clockRefusals = 0;
    std::int64_t resends = 0;        // implied NACKs, answered with the same bytes
    std::int64_t badCrcs = 0;        // polls broken on purpose, left unanswered
    std::int64_t gamesSelected = 0;  // 8C, each followed by LP 55
    std::int64_t gameReads = 0;      // LP 52 and B0 2F reads of one game's or one denomination's play
};

class SimAccountingHost {
public:
    // Writes one poll to a station's port and returns what the station answered.
    using Wire = std::function<std::vector<std::uint8_t>(std::int64_t station, const std::vector<std::uint8_t>&)>;
    using Fail = std::function<void(const std::string&)>;

    SimAccountingHost(std::vector<std::int64_t> stations, std::mt19937_64& random, Wire wire, Fail fail);

    // Every poll goes out here (the link's rules: a poll to another address first when the link
    // must resynchronise or the head would repeat; now and then a broken CRC or a lost answer).
    std::vector<std::uint8_t> send(std::int64_t station, const std::vector<std::uint8_t>& frame);
    // Exceptions this host does not act on itself (AFT's, for SimAftHost).
    void onOtherException(std::function<void(std::int64_t station, std::uint8_t code)> handler) {
        other_ = std::move(handler);
    }

    [[nodiscard]] const std::vector<std::int64_t>& stations() const { return stations_; }
    [[nodiscard]] bool linked(std::int64_t station) const;

    // The daemon restarted: every link must be synchronised again.
    void restarted();
    // One link in turn: a general poll, and what the exception it reads asks for.
    void pollNext();
    // Polls every link until it has no exception left to report (at the end of a run); false
    // when none had any.
    bool drain();

    // A ticket for a player to insert at a station: mostly one the host holds outstanding (a cage
    // ticket, or one printed at a station), sometimes one pending elsewhere, already redeemed or
    // unknown. `amount` is what the ticket says (the host's amount for its own tickets).
    std::string ticketToInsert(std::int64_t& amount);

    // LP 94: the answer code, nullopt when malformed (reported as a failure).
    std::optional<std::uint8_t> remoteHandpayReset(std::int64_t station);
    // LP 8A: a legacy bonus of `credits` with its tax status; true when taken (ACK), false when
    // busy (`addr 00`), nullopt when the answer was wrong (reported as a failure).
    std::optional<bool> legacyBonus(std::int64_t station, std::int64_t credits, std::uint8_t taxStatus);
    // LP 9A for game 0: the legacy bonuses paid, in credits (deductible + non-deductible + wager match).
    std::optional<std::int64_t> legacyBonusMeters(std::int64_t station);
    // LP 1A: current credits.
    // LP 2E: no new game at the station for `tenths` x 100 ms (0 ends a delay); true when ACKed.
    bool delayGame(std::int64_t station, int tenths);
    std::optional<std::int64_t> currentCredits(std::int64_t station);
    // LP 2F for game 0: meter code -> value (4 BCD, or 5 for the cents meters 0D and 0E).
    std::optional<std::map<std::uint8_t, std::int64_t>> meters(std::int64_t station,
                                                               const std::vector<std::uint8_t>& codes);
    // LP 52 for game N: {coin in, coin out, jackpot, games played}.
    std::optional<std::array<std::int64_t, 4>> gameMeters(std::int64_t station, int game);
    // LP 2F for game 0 at one denomination (Table C-4 code), under the B0 preamble: the same four
    // meters (00, 01, 02, 05).
    std::optional<std::array<std::int64_t, 4>> denominationMeters(std::int64_t station, std::uint8_t code);
    // The game of the station's last 8C, read with LP 55 (1 until one came).
    [[nodiscard]] int selectedGame(std::int64_t station) const;
    // LP 7F with the casino's local time `hostUtcMs` (ms since the epoch), then LP 7E to see
    // whether the station took it: within `toleranceS` of the station's clock it must, beyond
    // it must not.
    void setClock(std::int64_t station, std::int64_t hostUtcMs, std::int64_t stationUtcMs, std::int64_t toleranceS);

    // What the host decided, for the simulation's reconciliation with the journal.
    // validation (18 digits) -> amount, for every ticket it accepted with LP 71.
    [[nodiscard]] const std::map<std::string, std::int64_t>& accepted() const { return accepted_; }
    // validation (18 digits) -> (station, amount), for every cash-out it validated with LP 58.
    [[nodiscard]] const std::map<std::string, std::pair<std::int64_t, std::int64_t>>& validated() const {
        return validated_;
    }
    [[nodiscard]] const std::set<std::string>& redeemed() const { return redeemed_; }
    // A printed ticket the host has read the record of (LP 4D), in whatever state it is now.
    [[nodiscard]] bool knows(const std::string& validation) const {
        return outstanding_.contains(validation) || pending_.contains(validation) || redeemed_.contains(validation);
    }
    [[nodiscard]] const HostStats& stats() const { return stats_; }

private:
    struct Link {
        bool synced = false;
        std::vector<std::uint8_t> lastHead;  // address and command (or the general poll's byte) last sent
    };

    bool pollStation(std::int64_t station);  // false when it had nothing to report
    void onException(std::int64_t station, std::uint8_t code);
    void validateCashout(std::int64_t station);
    void readPrintedTicket(std::int64_t station);
    void redeemInserted(std::int64_t station);
    void finalStatus(std::int64_t station);
    void readHandpay(std::int64_t station);
    void readSelectedGame(std::int64_t station);
    // Reads a redemption answer (LP 71): status and validation; nullopt when malformed.
    std::optional<std::pair<std::uint8_t, std::string>> redemptionAnswer(std::int64_t station,
                                                                         const std::vector<std::uint8_t>& answer);
    bool wellFormed(std::int64_t station, std::uint8_t command, const std::vector<std::uint8_t>& answer,
                    std::size_t size);
    int percent() { return std::uniform_int_distribution<int>(0, 99)(random_); }

    std::vector<std::int64_t> stations_;
    std::mt19937_64& random_;
    Wire wire_;
    Fail fail_;
    std::function<void(std::int64_t, std::uint8_t)> other_;
    std::map<std::int64_t, Link> links_;
    std::map<std::int64_t, int> selected_;  // LP 55 after each 8C
    std::size_t next_ = 0;
    std::int64_t nextNumber_ = 1;  // the host's validation numbers
    // The ticket database.
    std::map<std::string, std::int64_t> outstanding_;                       // may be redeemed
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> pending_;  // accepted: station, amount
    std::set<std::string> redeemed_;
    std::map<std::string, std::int64_t> accepted_;
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> validated_;
    HostStats stats_;
};

}  // namespace pitlink::sim
