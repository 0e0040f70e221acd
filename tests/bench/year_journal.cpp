#include "tests/bench/year_journal.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <vector>

#include "daemon/app/segment_carry.h"
#include "daemon/config/paytable_loader.h"
#include "daemon/game/random_source.h"
#include "daemon/game/shoe.h"
#include "daemon/game/third_card_rule.h"
#include "daemon/journal/journal.h"
#include "daemon/journal/records/paytable_codec.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/records/settlement_records.h"
#include "daemon/journal/segments/segment_rotation.h"
#include "daemon/journal/store_sink.h"

namespace pitlink::bench {

namespace {

namespace fs = std::filesystem;
namespace kind = journal::kind;
namespace reason = journal::reason;
using nlohmann::json;

constexpr std::int64_t kStations = 8;
constexpr std::int64_t kRoundMs = 30'000;
constexpr std::int64_t kRoundsPerDay = 2880;

json exception(int code, std::uint64_t serial) {
    return json{{"code", code}, {"serial", serial}};
}

class Maker {
public:
    Maker(const std::string& path, std::int64_t segmentBytes, std::uint64_t seed)
        : path_(path),
          segmentBytes_(segmentBytes),
          random_(seed),
          table_(config::loadPaytableFile(std::string(PITLINK_SOURCE_DIR) + "/etc/paytables/standard.yaml")),
          sha_(journal::paytableSha256(table_)) {
        open(journal::Ledger{});
    }

    YearJournalStats make(std::int64_t rounds) {
        at_ = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
                  .count() -
              rounds * kRoundMs;
        startDaemon();
        for (std::int64_t round = 1; round <= rounds; ++round) {
            at_ += kRoundMs;
            if (round % kRoundsPerDay == 0) {
                startDaemon();
                clockSet();
            }
            if (!shoe_ || shoe_->cutCardOut()) {
                newShoe();
            }
            playRound(round);
            floorEvents(round);
            if (segmentBytes_ > 0 && journal_->segments().segmentBytes >= segmentBytes_) {
                rotate();
            }
            if (round % 100'000 == 0) {
                std::cerr << "  " << round << " rounds, " << stats_.records << " records, " << stats_.segments
                          << " segments\n";
            }
        }
        stats_.rounds = rounds;
        store_->connection().exec("PRAGMA wal_checkpoint(TRUNCATE)");
        return stats_;
    }

private:
    void open(journal::Ledger ledger) {
        if (!store_) {
            store_ = std::make_unique<journal::JournalStore>(path_, journal::StoreOptions{});
        }
        store_->connection().exec("PRAGMA synchronous = OFF");  // only while making the fixture
        sink_ = std::make_unique<journal::StoreSink>(*store_);
        journal_ = std::make_unique<journal::Journal>(
            *sink_, std::move(ledger), [this] { return at_; }, 2000);
        journal_->setSegmentPolicy(journal::SegmentPolicy{0, segmentBytes_}, at_, 0);
    }

    void submit(journal::JournalTransaction tx) {
        stats_.records += static_cast<std::int64_t>(tx.facts().size());
        journal_->submit(std::move(tx));
    }

    void rotate() {
        const auto start = std::chrono::steady_clock::now();
        journal::SegmentRotation rotation(path_, {}, app::carryOver);
        const journal::Ledger ledger = journal_->committed();
        const std::vector<journal::PendingRecord> opening{{at_, std::string(kind::kMetersSnapshot), std::nullopt,
                                                           std::nullopt, journal::canonicalJson(ledger.toJson())}};
        journal::AppendResult result;
        store_ = rotation.rotate(store_, opening, result);
        stats_.records += result.lastSeq - result.firstSeq + 1;
        ++stats_.segments;
        open(ledger);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        stats_.rotationMaxMs = std::max(stats_.rotationMaxMs, ms);
        rotationTotalMs_ += ms;
        stats_.rotationMeanMs = rotationTotalMs_ / static_cast<double>(stats_.segments - 1);
    }

    // A restart of the daemon as pitlinkd journals it, with its SAS queues.
    void startDaemon() {
        journal::JournalTransaction tx = journal_->begin();
        tx.add(kind::kJournalChecked, std::nullopt, std::nullopt,
               json{{"quick_check", "ok"},
                    {"chain_from", 1},
                    {"chain_records", 0},
                    {"snapshots_compared", 1},
                    {"actions", json::array()}});
        tx.add(kind::kDaemonStarted, std::nullopt, std::nullopt, json{{"version", "0.1.0"}, {"table", "table-1"}});
        tx.add(kind::kConfigLoaded, std::nullopt, std::nullopt,
               json{{"file", "/etc/pitlink/pitlink.yaml"}, {"sha256", std::string(64, 'a')}});
        tx.add(kind::kPaytableLoaded, std::nullopt, std::nullopt,
               json{{"id", table_.id},
                    {"file", "/etc/pitlink/paytables/standard.yaml"},
                    {"sha256", sha_},
                    {"content", journal::paytableToJson(table_)}});
        for (std::int64_t s = 1; s <= kStations; ++s) {
            tx.add(kind::kSasQueue, std::nullopt, s, json{{"pending", json::array()}});
        }
        submit(std::move(tx));
    }

    void clockSet() {
        journal::JournalTransaction tx = journal_->begin();
        tx.add(kind::kClockSet, std::nullopt, 1, json{{"from_ms", at_}, {"to_ms", at_ + 1200}, {"offset_ms", 1200}});
        submit(std::move(tx));
    }

    void newShoe() {
        journal::JournalTransaction tx = journal_->begin();
        const std::uint32_t number = shoe_ ? shoe_->number() + 1 : 1;
        if (shoe_) {
            tx.add(kind::kShoeEnded, std::nullopt, std::nullopt,
                   json{{"shoe", shoe_->number()}, {"rounds", roundInShoe_}, {"cards_left", 14}});
        }
        shoe_ = std::make_unique<game::Shoe>(game::ShoeConfig{}, random_, number);
        roundInShoe_ = 0;
        tx.add(kind::kShoeStarted, std::nullopt, std::nullopt,
               json{{"shoe", number},
                    {"decks", 8},
                    {"source", "rng"},
                    {"cards", 416},
                    {"cut_from_end", 14},
                    {"burn_card", "5H"},
                    {"burned", 5}});
        submit(std::move(tx));
    }

    std::uint64_t pick(std::uint64_t n) { return random_.next64() % n; }

    void topUp(journal::JournalTransaction& tx, std::int64_t station) {
        if (tx.balance(station) < 100'000) {
            ++stats_.ticketsIn;
            const std::string validation = "30" + std::to_string(1'000'000'000'000'000 + stats_.ticketsIn);
            tx.add(kind::kTicketRedeemed, std::nullopt, station,
                   json{{"validation", validation}, {"amount", 5'000'000}, {"host", true}});
            tx.credit(station, 5'000'000, reason::kTicketIn, std::nullopt, {.ref = validation});
            tx.add(kind::kSasException, std::nullopt, station, exception(0x67, ++serial_[station]));
        }
    }

    void playRound(std::int64_t round) {
        ++roundInShoe_;
        journal::JournalTransaction open = journal_->begin();
        open.add(kind::kRoundOpened, round, std::nullopt,
                 json{{"shoe", shoe_->number()},
                      {"round_in_shoe", roundInShoe_},
                      {"paytable", table_.id},
                      {"paytable_sha256", sha_},
                      {"settle", "spot"}});
        submit(std::move(open));

        std::vector<journal::RoundBet> bets;
        const std::uint64_t players = 2 + pick(3);
        for (std::uint64_t p = 0; p < players; ++p) {
            const std::int64_t station = 1 + static_cast<std::int64_t>((round + p * 3) % kStations);
            journal::JournalTransaction bet = journal_->begin();
            topUp(bet, station);
            const game::BetType spot = pick(2) == 0 ? game::BetType::Banker : game::BetType::Player;
            const game::Money stake = 100 * static_cast<game::Money>(1 + pick(20));
            const std::int64_t index = static_cast<std::int64_t>(bets.size()) + 1;
            bet.add(kind::kBetAccepted, round, station,
                    json{{"bet", index}, {"spot", game::betTypeName(spot)}, {"stake", stake}, {"action", "bet"}});
            bet.credit(station, -stake, reason::kBet, round);
            submit(std::move(bet));
            bets.push_back({index, station, spot, stake, "bet"});
        }

        journal::JournalTransaction close = journal_->begin();
        json wagered = json::object();
        for (const auto& b : bets) {
            wagered[std::to_string(b.station)] = wagered.value(std::to_string(b.station), 0) + b.stake;
        }
        close.add(kind::kRoundClosed, round, std::nullopt, json{{"wagered", wagered}});
        for (const auto& [station, stake] : wagered.items()) {
            const std::int64_t s = std::stoll(station);
            close.add(kind::kSasException, std::nullopt, s, exception(0x7E, ++serial_[s]));
        }
        submit(std::move(close));

        int position = 0;
        const game::Coup coup = game::dealCoup([&] {
            const game::Card card = shoe_->draw();
            journal::JournalTransaction dealt = journal_->begin();
            dealt.add(kind::kCardDealt, round, std::nullopt,
                      json{{"position", ++position}, {"card", card.toString()}, {"source", "rng"}, {"rescans", 0}});
            submit(std::move(dealt));
            return card;
        });

        journal::JournalTransaction settle = journal_->begin();
        journal::addSettlement(settle, round, coup, bets,
                               journal::settleBets(coup, bets, table_, game::SettleRule::PerSpot), table_, sha_);
        for (const auto& [station, stake] : wagered.items()) {
            const std::int64_t s = std::stoll(station);
            settle.add(kind::kSasException, std::nullopt, s, exception(0x7F, ++serial_[s]));
        }
        submit(std::move(settle));

        // The host reads and acknowledges them over the next polls.
        for (const auto& [station, stake] : wagered.items()) {
            const std::int64_t s = std::stoll(station);
            journal::JournalTransaction acked = journal_->begin();
            acked.add(kind::kSasAcked, std::nullopt, s,
                      json{{"acked", json::array({exception(0x7E, serial_[s] - 1), exception(0x7F, serial_[s])})}});
            submit(std::move(acked));
        }
    }

    // Between rounds: a cash-out every 40 rounds or so, an attendant call, a rare jackpot lock.
    void floorEvents(std::int64_t round) {
        if (pick(40) == 0) {
            const std::int64_t station = 1 + static_cast<std::int64_t>(pick(kStations));
            const game::Money credits = journal_->projected().credits(station);
            if (credits > 0) {
                ++stats_.ticketsOut;
                journal::JournalTransaction tx = journal_->begin();
                const std::string validation = "01" + std::to_string(2'000'000'000'000'000 + stats_.ticketsOut);
                tx.add(kind::kTicketIssued, std::nullopt, station,
                       json{{"validation", validation},
                            {"amount", credits},
                            {"machine_id", 1193046},
                            {"sequence", stats_.ticketsOut}});
                tx.credit(station, -credits, reason::kTicketOut, std::nullopt, {.ref = validation});
                tx.add(kind::kSasException, std::nullopt, station, exception(0x3D, ++serial_[station]));
                submit(std::move(tx));
                journal::JournalTransaction read = journal_->begin();
                read.add(kind::kSasAcked, std::nullopt, station,
                         json{{"acked", json::array({exception(0x3D, serial_[station])})}});
                read.add(kind::kSasRecordRead, std::nullopt, station, json{{"validation", validation}});
                submit(std::move(read));
            }
        }
        if (pick(300) == 0) {
            const std::int64_t station = 1 + static_cast<std::int64_t>(pick(kStations));
            journal::JournalTransaction call = journal_->begin();
            call.add(kind::kAttendantCalled, std::nullopt, station, json{{"by", "station"}});
            submit(std::move(call));
            journal::JournalTransaction clear = journal_->begin();
            clear.add(kind::kAttendantCleared, std::nullopt, station, json{{"by", "floor"}});
            submit(std::move(clear));
        }
        if (round % 5000 == 0) {
            const std::int64_t station = 1 + static_cast<std::int64_t>(pick(kStations));
            const game::Money credits = journal_->projected().credits(station);
            if (credits > 0) {
                journal::JournalTransaction lock = journal_->begin();
                lock.add(kind::kHandpayPending, std::nullopt, station,
                         json{{"amount", credits}, {"kind", "cancelled_credit"}, {"why", "above the ticket limit"}});
                submit(std::move(lock));
                journal::JournalTransaction reset = journal_->begin();
                reset.add(kind::kHandpayReset, std::nullopt, station,
                          json{{"amount", credits}, {"kind", "cancelled_credit"}, {"by", "floor"}});
                reset.credit(station, -credits, reason::kHandpay);
                submit(std::move(reset));
            }
        }
    }

    std::string path_;
    std::int64_t segmentBytes_;
    game::SeededRandom random_;
    game::Paytable table_;
    std::string sha_;
    std::int64_t at_ = 0;
    std::unique_ptr<journal::JournalStore> store_;
    std::unique_ptr<journal::StoreSink> sink_;
    std::unique_ptr<journal::Journal> journal_;
    std::unique_ptr<game::Shoe> shoe_;
    std::int64_t roundInShoe_ = 0;
    std::map<std::int64_t, std::uint64_t> serial_;
    YearJournalStats stats_;
    double rotationTotalMs_ = 0;
};

}  // namespace

YearJournalStats makeYearJournal(const std::string& path, std::int64_t rounds, std::int64_t segmentBytes,
                                 std::uint64_t seed) {
    for (const std::string& leftover : {path, path + "-wal", path + "-shm"}) {
        fs::remove(leftover);
    }
    fs::remove_all(path + ".segments");
    Maker maker(path, segmentBytes, seed);
    return maker.make(rounds);
}

}  // namespace pitlink::bench
