#include "daemon/journal/read/journal_export.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <ctime>

#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/store/chain_verifier.h"

namespace pitlink::journal {

using nlohmann::json;

std::string formatUtc(std::int64_t atMs) {
    const std::time_t seconds = static_cast<std::time_t>(atMs / 1000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[40];
    const std::size_t n = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
    std::string out(text, n);
    char millis[8];
    std::snprintf(millis, sizeof millis, ".%03dZ", static_cast<int>(atMs % 1000));
    return out + millis;
}

namespace {

std::string csvField(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        out += c;
        if (c == '"') {
            out += '"';
        }
    }
    return out + "\"";
}

std::string optionalText(const std::optional<std::int64_t>& value) {
    return value ? std::to_string(*value) : "";
}

// The seq range of the rounds asked for: first record of the first round to the last of the last.
std::pair<std::int64_t, std::int64_t> seqRangeOfRounds(JournalStore& store, const ExportRange& range) {
    SqliteStatement bounds =
        store.connection().prepare("SELECT min(seq), max(seq) FROM record WHERE round_id BETWEEN ? AND ?");
    bounds.bind(1, range.fromRound.value_or(0)).bind(2, range.toRound.value_or(INT64_MAX));
    bounds.step();
    if (bounds.isNull(0)) {
        return {1, 0};
    }
    return {bounds.integer(0), bounds.integer(1)};
}

// The game a record's body names ("" where none, or where the body is not an object).
std::string gameNamedBy(const json& body) {
    if (!body.is_object()) {
        return "";
    }
    const auto game = body.find("game");
    return game != body.end() && game->is_string() ? game->get<std::string>() : "";
}

bool ofGame(const JournalRecord& record, const std::string& named, const std::optional<GameOfRounds>& game) {
    if (!game) {
        return true;
    }
    if (!named.empty()) {
        return named == game->name;
    }
    return game->first && kind::namesItsGame(record.kind, record.roundId.has_value());
}

// Records from..to (those of this segment), each with the link before it.
std::int64_t exportSegment(JournalStore& store, std::int64_t from, std::int64_t to, const ExportRange& range,
                           ExportFormat format, std::ostream& out) {
    from = std::max(from, store.firstSeq());
    std::int64_t written = 0;
    Digest previous = kGenesisDigest;
    if (from == store.firstSeq() && from > 1) {
        previous = sealedLink(store, from).value_or(kGenesisDigest);
    } else if (from > 1) {
        if (const auto before = store.record(from - 1)) {
            previous = before->hash;
        }
    }
    store.forEach(from, to, [&](const JournalRecord& record) {
        const bool inTime =
            (!range.fromMs || record.atMs >= *range.fromMs) && (!range.toMs || record.atMs < *range.toMs);
        const json body = inTime ? json::parse(record.body, nullptr, false) : json();
        const std::string game = gameNamedBy(body);
        if (inTime && ofGame(record, game, range.game)) {
            if (format == ExportFormat::JsonLines) {
                json line{{"seq", record.seq},
                          {"at_ms", record.atMs},
                          {"at_utc", formatUtc(record.atMs)},
                          {"kind", record.kind},
                          {"round_id", record.roundId ? json(*record.roundId) : json(nullptr)},
                          {"station", record.station ? json(*record.station) : json(nullptr)},
                          {"body", body},
                          {"hash", toHex(record.hash)},
                          {"prev_hash", toHex(previous)},
                          {"game", game.empty() ? json(nullptr) : json(game)}};
                out << line.dump(-1, ' ', false, json::error_handler_t::replace) << '\n';
            } else {
                out << record.seq << ',' << formatUtc(record.atMs) << ',' << record.kind << ','
                    << optionalText(record.roundId) << ',' << optionalText(record.station) << ','
                    << csvField(record.body) << ',' << toHex(record.hash) << ',' << toHex(previous) << ','
                    << (game.empty() ? "" : csvField(game)) << '\n';
            }
            ++written;
        }
        previous = record.hash;
        return true;
    });
    return written;
}

}  // namespace

std::int64_t exportJournal(SegmentedJournal& journal, const ExportRange& range, ExportFormat format,
                           std::ostream& out) {
    if (format == ExportFormat::Csv) {
        out << "seq,at_utc,kind,round_id,station,body,hash,prev_hash,game\n";
    }
    // Rounds asked for: from the first record of the first to the last of the last, in whichever
    // segments they lie (a re-settlement may be segments after its round).
    std::int64_t from = 1;
    std::int64_t to = INT64_MAX;
    if (range.fromRound || range.toRound) {
        from = INT64_MAX;
        to = 0;
        for (std::size_t i = 0; i < journal.size(); ++i) {
            const auto [first, last] = seqRangeOfRounds(journal.segment(i), range);
            if (first <= last) {
                from = std::min(from, first);
                to = std::max(to, last);
            }
        }
    }
    std::int64_t written = 0;
    for (std::size_t i = 0; i < journal.size() && from <= to; ++i) {
        if (range.fromMs || range.toMs) {
            const auto [first, last] = journal.timeRange(i);
            if ((range.toMs && first >= *range.toMs) || (range.fromMs && last < *range.fromMs)) {
                continue;  // a segment wholly outside the time asked for is not read
            }
        }
        JournalStore& store = journal.segment(i);
        if (store.tipSeq() < from || store.firstSeq() > to) {
            continue;
        }
        written += exportSegment(store, from, to, range, format, out);
    }
    return written;
}

}  // namespace pitlink::journal
