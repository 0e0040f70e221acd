#include "daemon/journal/read/tip_report.h"

#include <stdexcept>

#include "daemon/journal/records/body_fields.h"
#include "daemon/journal/records/record_kinds.h"

namespace pitlink::journal {

namespace {

void addTips(JournalStore& store, std::int64_t fromMs, std::int64_t toMs, std::int64_t periodMs,
             const std::optional<GameOfRounds>& game, std::map<std::int64_t, TipPeriod>& periods) {
    auto tips = store.connection().prepare(
        "SELECT at_ms, station, body FROM record WHERE kind = ?1 AND at_ms >= ?2 AND at_ms < ?3 AND (?4 IS NULL OR "
        "json_extract(body, '$.game') = ?4 OR (?5 AND json_extract(body, '$.game') IS NULL)) ORDER BY seq");
    tips.bind(1, kind::kTip);
    tips.bind(2, fromMs);
    tips.bind(3, toMs);
    if (game) {
        tips.bind(4, std::string_view(game->name)).bind(5, static_cast<std::int64_t>(game->first ? 1 : 0));
    } else {
        tips.bind(4, std::nullopt).bind(5, static_cast<std::int64_t>(0));
    }
    while (tips.step()) {
        const std::int64_t at = tips.integer(0);
        const std::int64_t start = at - (((at % periodMs) + periodMs) % periodMs);  // floor, also before 1970
        TipPeriod& p = periods[start];
        p.startMs = start;
        p.endMs = start + periodMs;
        const game::Money amount = integerField(nlohmann::json::parse(tips.text(2)), "amount", 0, kMaxBodyMoney);
        const std::int64_t station = tips.integer(1);
        TipTotal& mine = p.byStation[station];
        // A forged journal could hold sums beyond 64 bits: refused, never wrapped.
        if (__builtin_add_overflow(p.total.amount, amount, &p.total.amount) ||
            __builtin_add_overflow(mine.amount, amount, &mine.amount)) {
            throw std::runtime_error("the tips of the period from " + std::to_string(start) +
                                     " ms add up beyond 64 bits: the journal is not sound");
        }
        ++p.total.count;
        ++mine.count;
    }
}

}  // namespace

std::vector<TipPeriod> tipReport(SegmentedJournal& journal, std::int64_t fromMs, std::int64_t toMs,
                                 std::int64_t periodMs, const std::optional<GameOfRounds>& game) {
    if (periodMs <= 0) {
        throw std::invalid_argument("a report period is a positive number of milliseconds");
    }
    std::map<std::int64_t, TipPeriod> periods;
    for (std::size_t i = 0; i < journal.size(); ++i) {
        const auto [first, last] = journal.timeRange(i);
        if (last < fromMs || first >= toMs) {
            continue;  // a segment wholly outside the period is not read
        }
        addTips(journal.segment(i), fromMs, toMs, periodMs, game, periods);
    }
    std::vector<TipPeriod> out;
    out.reserve(periods.size());
    for (auto& [start, period] : periods) {
        out.push_back(std::move(period));
    }
    return out;
}

}  // namespace pitlink::journal
