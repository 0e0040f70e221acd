#pragma once
// The accounting host's cashless side in the simulation tier (SAS AFT, issue 36), written from
// docs/sas.md "AFT" and protocols/sas/README.md "AFT" with its own layouts (not the daemon's
// code). It keeps a player-account wallet per station and a transaction log, and on its own
// initiative registers stations (LP 73), locks them (LP 74, racing the stations' bets and
// cash-outs), moves money to them by credit type and back (LP 72, full and partial, now and then
// more than the station holds or the limit allows, or from another restricted pool), awards
// bonuses, and cashes a locked station out to the host with exactly LP 74's balances.
//
// Every transaction ID is resolved to one final status: a request without an answer (its
// record not yet durable, the poll lost) is sent again with the same ID; 40 is followed by
// 72 FF until the status is final; a final status is interrogated (72 FF) and the next poll
// acknowledges it. A final status, once seen, never changes. After a restart a transfer it saw
// pending ends 9F with nothing moved. The cumulative meters of a successful answer are the
// host's own sums of its direction.
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace pitlink::sim {

// What the host knows of a station's AFT lock when a bet or a cash-out is sent: locked for sure
// (it must be refused), free for sure (it must not be refused for the lock), or neither.
enum class LockView : std::uint8_t { Free, Locked, Unsure };

// Cashable, restricted, non-restricted (cents).
using AftParts = std::array<std::int64_t, 3>;

struct AftOutcome {
    std::int64_t station = 0;
    std::uint8_t type = 0;
    std::uint8_t code = 0;
    AftParts asked{};
    AftParts moved{};
    std::uint8_t status = 0x40;
    bool journaled = true;  // C0 and C1 are answered without a record
};

// The host's sums of one station's successful transfers (as the AFT meters count them).
struct AftSums {
    AftParts in{};  // in house to the station
    AftParts inCount{};
    AftParts out{};  // to the host
    AftParts outCount{};
    std::array<std::int64_t, 2> bonus{};  // cashable, non-restricted
    std::array<std::int64_t, 2> bonusCount{};
};

struct AftHostStats {
    std::int64_t requests = 0;         // new transaction IDs sent
    std::int64_t unanswered = 0;       // requests sent again after no answer (not durable yet, or lost)
    std::int64_t repeatsAnswered = 0;  // a repeated request answered with its status
    std::int64_t pendingSeen = 0;      // 40 answered
    std::int64_t full = 0;
    std::int64_t partial = 0;
    std::int64_t refused = 0;
    std::int64_t unexpected = 0;  // 9F: cut by a restart
    std::int64_t notCompatible = 0;
    std::int64_t locksAsked = 0;
    std::int64_t locked = 0;                   // lock requests or interrogations that found the station locked
    std::int64_t lockedCashouts = 0;           // cash-outs to the host under a lock, with exactly LP 74's balances
    std::int64_t registrations = 0;            // LP 73 register and unregister
    std::int64_t registrationsUnanswered = 0;  // LP 73 changes sent again after no answer (not durable yet)
    std::int64_t registrationsAnswered = 0;    // LP 73 change requests answered (00, 01, 80), and LP B7's
    std::int64_t assetsSet = 0;                // LP B7: a new asset number answered before a registration
    std::int64_t historyReads = 0;             // LP 72 FF of a history position that held a transfer
    std::int64_t balanceChecks = 0;            // LP 74 balances compared with the journal
    std::int64_t hostCashoutsTaken = 0;        // 6A answered by a transfer to the host
    std::int64_t bonusJackpotsHandpaid = 0;    // bonus jackpots (11) at the jackpot limit taken
    std::int64_t hardOffersRaced = 0;          // hard host cash-outs (6A) raced before the host took them
    std::int64_t hardOffersEmpty = 0;          // of them, nothing left to take when the host came to it
};

class SimAftHost {
public:
    // Sends one poll through the accounting host's line (its link rules) and returns the answer.
    using Poll = std::function<std::vector<std::uint8_t>(std::int64_t station, const std::vector<std::uint8_t>&)>;
    using Fail = std::function<void(const std::string&)>;

    // `jackpotLimit`: the table's; a bonus jackpot (11) from it on is hand-paid, whatever the
    // transfer limit.
    SimAftHost(std::vector<std::int64_t> stations, std::int64_t transferLimit, std::int64_t jackpotLimit,
               std::mt19937_64& random, Poll poll, Fail fail);

    // One act at a station on the host's initiative (none while its last transaction is open).
    void act(std::int64_t station, std::int64_t nowMs);
    // Each host turn: every open transaction moves on by one poll.
    void advance(std::int64_t nowMs);
    // An exception the general poll read: 69 (a transfer ended), 6F (locked), 6D/6E (registration).
    void onException(std::int64_t station, std::uint8_t code, std::int64_t nowMs);
    // The daemon restarted: every lock is released.
    void restarted();
    // The table tilted: a lock may have been released.
    void tilted();
    // A hard host cash-out offered (6A): `race(station)` may race it (a re-settlement, a bet),
    // and returns true when it did; the host then takes the offer a moment later.
    void onHardOffer(std::function<bool(std::int64_t station)> race) { raceHardOffer_ = std::move(race); }

    // LP 74 interrogation: the balances that can move, nullopt when the answer was wrong.
    std::optional<AftParts> balances(std::int64_t station, std::int64_t nowMs);

    [[nodiscard]] LockView lockView(std::int64_t station, std::int64_t nowMs) const;
    [[nodiscard]] bool open() const;
    [[nodiscard]] bool open(std::int64_t station) const { return stations_.at(station).open.has_value(); }
    [[nodiscard]] std::string openIds() const;
    [[nodiscard]] const std::map<std::string, AftOutcome>& log() const { return log_; }
    [[nodiscard]] AftSums sums(std::int64_t station) const { return stations_.at(station).sums; }
    [[nodiscard]] const AftHostStats& stats() const { return stats_; }
    [[nodiscard]] const std::vector<std::int64_t>& stationList() const { return order_; }

private:
    enum class Phase : std::uint8_t { Requesting, Interrogating, Acknowledging };
    enum class Lock : std::uint8_t { None, Pending, Locked };
    struct Open {
        std::string id;
        AftOutcome outcome;
        std::vector<std::uint8_t> frame;  // the request, sent again as it is until answered
        Phase phase = Phase::Requesting;
        bool answered = false;     // the request was answered once: a later answer is to a repeat
        bool underLock = false;    // a cash-out to the host of LP 74's balances under its lock
        bool hostCashout = false;  // the answer to a 6A (a player's cash-out offered to the host)
    };
    // An LP 73 change under way: its requests (00 then 01, or 80; now and then an LP B7 setting a
    // new asset number first), each sent again as it is until answered (a station answers a
    // change once it is durable).
    struct Registering {
        std::vector<std::vector<std::uint8_t>> frames;
    };
    struct Station {
        std::optional<std::uint32_t> asset;
        std::optional<std::uint32_t> assetTold;        // the asset number the station answered LP B7 with
        std::map<std::string, std::uint32_t> assetOf;  // transaction ID -> the asset number it was asked under
        // By the host's last LP 73 answer: transfers then carry its key. Nullopt: never read.
        std::optional<bool> registered;
        std::optional<Registering> registering;  // no transfer is opened meanwhile
        std::optional<Open> open;
        Lock lock = Lock::None;
        std::int64_t lockUntilMs = 0;               // its time-out
        bool lockDisturbed = false;                 // a tilt or a transfer since it was granted: released or not
        bool cashOutWhenLocked = false;             // the lock was asked to cash the station out to the host
        std::uint8_t hostCashout = 0;               // LP 74's host cash-out status, as last read
        std::optional<std::int64_t> takeOfferAtMs;  // a raced hard offer (6A) the host takes then
        std::int64_t nextId = 1;
        AftSums sums;
    };
    struct Answer {  // a long LP 72 answer, as the host reads it
        std::uint8_t position = 0;
        std::uint8_t status = 0;
        std::uint8_t type = 0;
        AftParts amounts{};
        std::string id;
        std::vector<AftParts> cumulative;  // empty while pending
    };

    std::vector<std::uint8_t> request(std::int64_t station, std::uint8_t code, std::uint8_t type,
                                      const AftParts& amounts, std::uint8_t flags, std::uint16_t pool,
                                      const std::string& id);
    void start(std::int64_t station, std::uint8_t code, std::uint8_t type, const AftParts& amounts, std::uint8_t flags,
               std::uint16_t pool, bool underLock);
    void step(std::int64_t station);
    void ended(std::int64_t station, const Answer& answer);
    std::optional<Answer> interrogate(std::int64_t station, std::uint8_t index, bool& nothing);
    std::optional<Answer> parse(std::int64_t station, const std::vector<std::uint8_t>& frame, bool& shortForm);
    bool readRegistration(std::int64_t station);
    void registerStation(std::int64_t station, bool on);
    void stepRegistration(std::int64_t station);
    void askLock(std::int64_t station, std::int64_t nowMs);
    void cashOutUnderLock(std::int64_t station, std::int64_t nowMs);
    void readHistory(std::int64_t station);
    void takeOffer(std::int64_t station, std::int64_t nowMs);
    void noteLockAnswer(Station& s, std::uint8_t status);
    int percent() { return std::uniform_int_distribution<int>(0, 99)(random_); }
    std::int64_t cents(std::int64_t most) { return std::uniform_int_distribution<std::int64_t>(0, most)(random_); }

    std::vector<std::int64_t> order_;
    std::map<std::int64_t, Station> stations_;
    std::int64_t transferLimit_;
    std::int64_t jackpotLimit_;
    std::mt19937_64& random_;
    Poll poll_;
    Fail fail_;
    std::map<std::string, AftOutcome> log_;
    AftHostStats stats_;
    std::function<bool(std::int64_t station)> raceHardOffer_;
};

}  // namespace pitlink::sim
