#include <gtest/gtest.h>

#include "daemon/game/random_source.h"
#include "daemon/game/scoreboard.h"
#include "tests/unit/fixtures.h"

namespace pitlink::game {
namespace {

Scoreboard board(const std::string& results, int rows = 6) {
    Scoreboard s(1, ScoreboardLayout{rows, 24});
    const auto rounds = parseResults(results);
    for (const RoundMarks& m : rounds.value()) {
        s.add(m);
    }
    return s;
}

std::string marks(const DerivedRoad& road) {
    std::string out;
    for (const auto& c : road.cells()) {
        out += colourLetter(c.colour);
    }
    return out;
}

std::string probeLetter(const std::optional<RoadColour>& c) {
    return c ? std::string(1, colourLetter(*c)) : "null";
}
std::string jsonLetter(const nlohmann::json& j) {
    return j.is_null() ? "null" : j.get<std::string>();
}

// Every case of roads_standard_rule_vectors.json: columns, tie counts, the three derived
// roads, and probing.
TEST(Roads, StandardRuleVectors) {
    const auto vectors = test::loadJsonFixture("baccarat/roads_standard_rule_vectors.json");
    ASSERT_GE(vectors["cases"].size(), 18U);
    for (const auto& c : vectors["cases"]) {
        const std::string name = c["name"];
        const Scoreboard s = board(c["sequence"]);
        const BigRoad& road = s.bigRoad();
        std::vector<std::string> columns;
        for (const auto& cell : road.cells()) {
            if (cell.row == 0) {
                columns.push_back(std::string(1, winnerLetter(cell.side)) +
                                  std::to_string(road.columnLengths()[static_cast<std::size_t>(cell.column)]));
            }
        }
        EXPECT_EQ(columns, c["bigRoadColumns"].get<std::vector<std::string>>()) << name;
        EXPECT_EQ(road.leadingTies(), c["leadingTies"].get<int>()) << name;
        std::vector<int> ties;
        for (const auto& cell : road.cells()) {
            ties.push_back(cell.ties);
        }
        EXPECT_EQ(ties, c["tiesPerCell"].get<std::vector<int>>()) << name;
        EXPECT_EQ(marks(s.derived(1)), c["bigEye"].get<std::string>()) << name;
        EXPECT_EQ(marks(s.derived(2)), c["small"].get<std::string>()) << name;
        EXPECT_EQ(marks(s.derived(3)), c["cockroach"].get<std::string>()) << name;
        const Probe p = s.probe();
        const std::array<const char*, 3> keys{"bigEye", "small", "cockroach"};
        for (std::size_t k = 0; k < 3; ++k) {
            EXPECT_EQ(probeLetter(p.banker[k]), jsonLetter(c["askNext"]["B"][keys[k]])) << name << " ask B " << keys[k];
            EXPECT_EQ(probeLetter(p.player[k]), jsonLetter(c["askNext"]["P"][keys[k]])) << name << " ask P " << keys[k];
        }
    }
}

TEST(Roads, LeadingTiesAreCountedOnTheFirstCellAndFlagged) {
    const Scoreboard s = board("TTBTP");
    ASSERT_EQ(s.bigRoad().cells().size(), 2U);
    EXPECT_TRUE(s.bigRoad().cells()[0].tieFirst);
    EXPECT_EQ(s.bigRoad().cells()[0].ties, 3);  // nine-road-lab: first_cell_tieCount 3
    EXPECT_FALSE(s.bigRoad().cells()[1].tieFirst);
    EXPECT_EQ(board("TTT").bigRoad().leadingTies(), 3);
    EXPECT_TRUE(board("TTT").bigRoad().cells().empty());
}

TEST(Roads, NineRoadLabBeadPlateAndBigRoad) {
    const auto fx = test::loadJsonFixture("baccarat/nine-road-lab_fixtures.json");
    const auto& bead = fx["bead_plate"][0];
    const Scoreboard beads = board(bead["sequence"]);
    for (std::size_t i = 0; i < bead["cells"].size(); ++i) {
        const GridCell cell = beads.beadCell(static_cast<int>(i));
        EXPECT_EQ(cell.row, bead["cells"][i][0].get<int>()) << i;
        EXPECT_EQ(cell.column, bead["cells"][i][1].get<int>()) << i;
    }
    const auto& big = fx["big_road"][0];
    const Scoreboard s = board(big["sequence"]);
    ASSERT_EQ(s.bigRoad().cells().size(), big["cells"].size());
    for (std::size_t i = 0; i < big["cells"].size(); ++i) {
        const BigRoadCell& cell = s.bigRoad().cells()[i];
        EXPECT_EQ(cell.drawn.row, big["cells"][i][0].get<int>()) << i;
        EXPECT_EQ(cell.drawn.column, big["cells"][i][1].get<int>()) << i;
        EXPECT_EQ(std::string(1, winnerLetter(cell.side)), big["cells"][i][2].get<std::string>()) << i;
    }
    const auto& tail = fx["big_road"][1];
    const Scoreboard eight = board(tail["sequence"]);
    const auto& cells = eight.bigRoad().cells();
    for (std::size_t i = 0; i < 3; ++i) {
        const GridCell c = cells[cells.size() - 3 + i].drawn;
        EXPECT_EQ(c.row, tail["last_three_cells"][i][0].get<int>());
        EXPECT_EQ(c.column, tail["last_three_cells"][i][1].get<int>());
    }
    for (const auto& eye : fx["big_eye_boy"]) {
        if (eye.contains("expected")) {
            std::string expected;
            for (const auto& colour : eye["expected"]) {
                expected += colour.get<std::string>() == "red" ? 'R' : 'B';
            }
            EXPECT_EQ(marks(board(eye["sequence"]).derived(1)), expected) << eye["sequence"];
        } else {
            EXPECT_EQ(marks(board(eye["sequence"]).derived(1)), marks(board(eye["expected_same_as"]).derived(1)));
        }
    }
}

std::vector<GridCell> drawn(const Scoreboard& s) {
    std::vector<GridCell> out;
    for (const auto& c : s.bigRoad().cells()) {
        out.push_back(c.drawn);
    }
    return out;
}

TEST(Roads, DragonTailAlongTheBottomRow) {
    const auto cells = drawn(board("BBBBBBBBB"));
    for (int i = 0; i < 6; ++i) {
        EXPECT_EQ(cells[static_cast<std::size_t>(i)], (GridCell{0, i}));
    }
    EXPECT_EQ(cells[6], (GridCell{1, 5}));
    EXPECT_EQ(cells[8], (GridCell{3, 5}));
}

// docs/rules.md: a run meeting an earlier tail turns above it and keeps its row even after it has
// passed the end of the older tail (the baccarat-engine [B*9, P*10] case, our convention).
TEST(Roads, SecondTailTurnsAboveTheFirstAndKeepsItsRow) {
    const auto cells = drawn(board("BBBBBBBBBPPPPPPPPPP"));
    // P run: column 1 rows 0-4, then right along row 4 to column 6.
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(cells[static_cast<std::size_t>(9 + i)], (GridCell{1, i}));
    }
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(cells[static_cast<std::size_t>(14 + i)], (GridCell{2 + i, 4})) << i;  // columns 4-6 pass B's tail end
    }
    // The next Banker run starts at the top of column 2 (right of P's first column).
    EXPECT_EQ(drawn(board("BBBBBBBBBPPPPPPPPPPB")).back(), (GridCell{2, 0}));
}

TEST(Roads, RunThatBendsAtRowZeroAndAStartThatMovesRight) {
    // Two rows: B B B B makes a tail on row 1; P P P starts at column 1, cannot go down, turns on row 0.
    const auto cells = drawn(board("BBBBPPPB", 2));
    EXPECT_EQ(cells[3], (GridCell{2, 1}));
    EXPECT_EQ(cells[4], (GridCell{1, 0}));
    EXPECT_EQ(cells[5], (GridCell{2, 0}));
    EXPECT_EQ(cells[6], (GridCell{3, 0}));
    // The next run's top cell (column 2) is taken by P's tail: first free top cell is column 4.
    EXPECT_EQ(cells[7], (GridCell{4, 0}));
}

TEST(Roads, ScrollingShowsTheNewestColumns) {
    const Scoreboard s = board("BPBPBPBPBPBPBPBPBPBPBPBPBPBPBP");  // 30 single-cell columns
    EXPECT_EQ(s.bigRoad().grid().columns(), 30);
    EXPECT_EQ(s.bigRoad().grid().firstVisibleColumn(24), 6);
    EXPECT_EQ(board("BPB").bigRoad().grid().firstVisibleColumn(24), 0);
}

// Road k's start offset: the number of big-road entries before its first mark. The first mark
// is at column k+1 row 2 (1-based), or column k+2 row 1 when column k+1 has one entry: either
// way the entries of columns 1..k plus one. -1 while neither cell exists.
int startOffset(int k, const std::vector<int>& lengths) {
    const auto columns = static_cast<int>(lengths.size());
    if (columns <= k || (lengths[static_cast<std::size_t>(k)] < 2 && columns <= k + 1)) {
        return -1;
    }
    int before = 0;
    for (int c = 0; c <= k - 1; ++c) {
        before += lengths[static_cast<std::size_t>(c)];
    }
    return before + 1;
}

TEST(Roads, PropertiesOverTenThousandRandomShoes) {
    SeededRandom random(2026);
    for (int shoe = 0; shoe < 10'000; ++shoe) {
        Scoreboard s;
        const int rounds = 40 + static_cast<int>(uniformBelow(random, 50));
        for (int i = 0; i < rounds; ++i) {
            const auto r = uniformBelow(random, 100);
            RoundMarks m;
            m.winner = r < 46 ? Winner::Banker : r < 91 ? Winner::Player : Winner::Tie;
            m.playerPair = uniformBelow(random, 13) == 0;
            m.bankerPair = uniformBelow(random, 13) == 0;
            m.natural = uniformBelow(random, 3) == 0 ? 9 : 0;
            s.add(m);
            const Probe p = s.probe();
            for (std::size_t k = 0; k < 3; ++k) {
                ASSERT_EQ(p.banker[k].has_value(), p.player[k].has_value()) << shoe;
                if (p.banker[k]) {
                    ASSERT_NE(*p.banker[k], *p.player[k]) << shoe;
                }
            }
        }
        const auto& road = s.bigRoad();
        const int entries = static_cast<int>(road.cells().size());
        for (int k = 1; k <= 3; ++k) {
            const int offset = startOffset(k, road.columnLengths());
            const int expected = offset < 0 ? 0 : entries - offset;
            ASSERT_EQ(static_cast<int>(s.derived(k).cells().size()), expected) << "shoe " << shoe << " k " << k;
        }
        const ShoeStatistics& st = s.statistics();
        ASSERT_EQ(st.rounds, rounds);
        ASSERT_EQ(st.playerWins + st.bankerWins + st.ties, rounds);
        ASSERT_EQ(st.playerWins + st.bankerWins, entries);
        int ties = road.cells().empty() ? road.leadingTies() : 0;
        int columnsTotal = 0;
        for (const auto& cell : road.cells()) {
            ties += cell.ties;
        }
        for (const int l : road.columnLengths()) {
            columnsTotal += l;
        }
        ASSERT_EQ(ties, st.ties);
        ASSERT_EQ(columnsTotal, entries);
        ASSERT_EQ(static_cast<int>(s.beads().size()), rounds);
    }
}

TEST(Roads, ParseResultsRefusesOtherLetters) {
    EXPECT_FALSE(parseResults("BPX").has_value());
    EXPECT_EQ(parseResults("bpt")->size(), 3U);
}

}  // namespace
}  // namespace pitlink::game
