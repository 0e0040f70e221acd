// SIGHUP at the table: the settings that may change between two rounds, journaled, applied when
// the next round opens (a round in progress keeps the rules its bets were accepted under).
#include "daemon/journal/records/start_records.h"
#include "daemon/table/table.h"

namespace pitlink::table {

void Table::reconfigure(const TableSettings& fresh, journal::ConfigLoadedRecord record,
                        std::vector<std::string> restartNeeded, Respond respond) {
    const TableSettings& now = nextSettings_ ? *nextSettings_ : settings_;
    TableSettings next = now;
    std::vector<std::string> applied;
    auto take = [&](const char* key, auto TableSettings::*field) {
        if (!(fresh.*field == now.*field)) {
            next.*field = fresh.*field;
            applied.emplace_back(key);
        }
    };
    take("rounds.bets_open_ms", &TableSettings::betsOpen);
    take("rounds.last_bets_ms", &TableSettings::lastBets);
    take("bets", &TableSettings::bets);
    take("cashier.ticket_limit", &TableSettings::ticketLimit);
    take("cashier.jackpot_limit", &TableSettings::jackpotLimit);
    take("cashier.ticket_in_max", &TableSettings::ticketInMax);
    take("table.rescan_attempts", &TableSettings::rescanAttempts);
    take("table.reserve_minutes", &TableSettings::reserveTimeout);
    take("rounds.confirm_bets", &TableSettings::confirmBets);
    take("table.reader_timeout_ms", &TableSettings::readerTimeout);
    take("table.naturals_on_big_road", &TableSettings::naturalsOnBigRoad);
    auto keep = [&](const char* key, auto TableSettings::*field) {
        if (!(fresh.*field == now.*field)) {
            restartNeeded.emplace_back(key);
        }
    };
    keep("table.name", &TableSettings::name);
    keep("table.source", &TableSettings::source);
    keep("table.decks/cut_card_from_end", &TableSettings::shoe);
    keep("table.stations", &TableSettings::stations);
    keep("rounds.start", &TableSettings::startOnDeal);
    keep("table.denomination", &TableSettings::denomination);
    keep("table.denominations", &TableSettings::denominations);
    keep("cashier.ticket_in_local", &TableSettings::ticketInLocal);
    keep("protection", &TableSettings::protection);
    record.applied = applied;
    record.restartNeeded = restartNeeded;
    record.trigger = "SIGHUP";
    journal::JournalTransaction tx = journal_.begin();
    tx.add(record);
    if (!applied.empty()) {
        if (phase_ == RoundPhase::Idle) {
            settings_ = std::move(next);
            nextSettings_.reset();
        } else {
            nextSettings_ = std::move(next);  // openRound takes it
        }
    }
    commit(std::move(tx), std::move(respond), Reply::accepted(ReconfigureAnswer{applied, restartNeeded}));
}

}  // namespace pitlink::table
