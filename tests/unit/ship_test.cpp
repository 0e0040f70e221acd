// pitlink-ship's pure parts: the COPY text rows decode (by PostgreSQL's own rules, written here)
// back to the record byte for byte; the chain follower takes a chain and refuses a gap, a wrong
// link and a seal that names another record; the configuration refuses what it cannot use.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "daemon/config/config_error.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/store/chain_hasher.h"
#include "daemon/ship/chain_follower.h"
#include "daemon/ship/copy_rows.h"
#include "daemon/ship/floor_client.h"
#include "daemon/ship/ship_config.h"
#include "tests/unit/fixtures.h"

namespace pitlink::ship {
namespace {

// PostgreSQL's COPY text format, read back: fields split at tabs, \N is NULL, and a backslash
// escapes the next character (\t \n \r \\ as such, \b \f \v too; \x.. hex and octal are not
// written by the encoder, so any other escape fails the test).
std::vector<std::optional<std::string>> decodeRow(const std::string& row) {
    EXPECT_FALSE(row.empty());
    EXPECT_EQ(row.back(), '\n');
    std::vector<std::optional<std::string>> fields;
    std::string field;
    std::string written;  // the field as written, to tell \N from NULL's look-alikes
    for (std::size_t i = 0; i + 1 < row.size(); ++i) {
        const char c = row[i];
        if (c == '\t') {
            fields.push_back(written == "\\N" ? std::nullopt : std::optional(field));
            field.clear();
            written.clear();
            continue;
        }
        EXPECT_NE(c, '\n') << "a raw newline inside a row";
        EXPECT_NE(c, '\r') << "a raw carriage return inside a row";
        written += c;
        if (c != '\\') {
            field += c;
            continue;
        }
        const char next = row.at(++i);
        written += next;
        switch (next) {
            case 't':
                field += '\t';
                break;
            case 'n':
                field += '\n';
                break;
            case 'r':
                field += '\r';
                break;
            case '\\':
                field += '\\';
                break;
            case 'N':
                break;
            default:
                ADD_FAILURE() << "an escape the encoder should not write: \\" << next;
        }
    }
    fields.push_back(written == "\\N" ? std::nullopt : std::optional(field));
    return fields;
}

TEST(CopyRows, EveryByteOfTheBodyComesBackAsItWas) {
    journal::JournalRecord r;
    r.seq = 42;
    r.atMs = 1'795'000'000'123;
    r.kind = "bet.accepted";
    r.roundId = 7;
    r.station = std::nullopt;
    for (int b = 1; b < 256; ++b) {
        r.body += static_cast<char>(b);
    }
    r.body += "\\N";  // a body that happens to hold backslash N is not NULL
    for (std::size_t i = 0; i < r.hash.size(); ++i) {
        r.hash[i] = static_cast<std::uint8_t>(0xF0 + i);
    }
    std::string out;
    appendCopyRow(out, "pit\t3\\table", 1'790'000'000'000, r);
    const auto fields = decodeRow(out);
    ASSERT_EQ(fields.size(), 9U);
    EXPECT_EQ(fields[0], "pit\t3\\table");
    EXPECT_EQ(fields[1], "1790000000000");
    EXPECT_EQ(fields[2], "42");
    EXPECT_EQ(fields[3], "1795000000123");
    EXPECT_EQ(fields[4], "bet.accepted");
    EXPECT_EQ(fields[5], "7");
    EXPECT_EQ(fields[6], std::nullopt);
    EXPECT_EQ(fields[7], r.body);
    // bytea's hex input form, \x and the hash's 64 hex digits.
    EXPECT_EQ(fields[8], "\\xf0f1f2f3f4f5f6f7f8f9fafbfcfdfeff000102030405060708090a0b0c0d0e0f");
}

// Records chained as the journal chains them (ChainHasher is the journal's own; the follower
// must agree with it, and tests/integration checks both against an independent verifier).
std::vector<journal::JournalRecord> chain(journal::ChainHasher& hasher, std::int64_t n) {
    std::vector<journal::JournalRecord> records;
    journal::Digest previous{};
    for (std::int64_t seq = 1; seq <= n; ++seq) {
        journal::JournalRecord r;
        r.seq = seq;
        r.atMs = 1'795'000'000'000 + seq;
        r.kind = "credit";
        r.station = 1;
        r.body = R"({"amount":)" + std::to_string(seq) + "}";
        r.hash = hasher.link(previous, journal::canonicalBytes(r));
        previous = r.hash;
        records.push_back(r);
    }
    return records;
}

TEST(ChainFollower, TakesTheChainAndRefusesAGapOrAWrongLink) {
    journal::ChainHasher hasher;
    const auto records = chain(hasher, 5);
    ChainFollower follower("sha256", 0, journal::kGenesisDigest);
    EXPECT_TRUE(follower.linksChecked());
    EXPECT_EQ(follower.follow(records[0]), std::nullopt);
    EXPECT_EQ(follower.follow(records[1]), std::nullopt);
    const auto gap = follower.follow(records[3]);
    ASSERT_TRUE(gap);
    EXPECT_NE(gap->find("does not follow record 2"), std::string::npos);
    journal::JournalRecord edited = records[2];
    edited.body = R"({"amount":300})";
    const auto wrong = follower.follow(edited);
    ASSERT_TRUE(wrong);
    EXPECT_NE(wrong->find("its link"), std::string::npos);
    EXPECT_EQ(follower.lastSeq(), 2);  // a refusal does not move the head
    EXPECT_EQ(follower.follow(records[2]), std::nullopt);

    // From a head in the middle (the server's), the next link must follow that head's hash.
    ChainFollower resumed("sha256", 3, records[2].hash);
    EXPECT_EQ(resumed.follow(records[3]), std::nullopt);
    ChainFollower forged("sha256", 3, records[0].hash);
    EXPECT_TRUE(forged.follow(records[3]));
}

TEST(ChainFollower, AnHmacJournalIsCheckedForItsOrderOnlyWithoutTheKey) {
    journal::ChainHasher signer(std::vector<std::uint8_t>(32, 7));
    auto records = chain(signer, 3);
    ChainFollower follower("hmac-sha256", 0, journal::kGenesisDigest);
    EXPECT_FALSE(follower.linksChecked());
    records[1].body = R"({"amount":999})";  // not detectable without the key: verify_chain is the inspector's
    EXPECT_EQ(follower.follow(records[0]), std::nullopt);
    EXPECT_EQ(follower.follow(records[1]), std::nullopt);
    EXPECT_TRUE(follower.follow(records[1]));  // a repeat is still refused
}

TEST(ChainFollower, ASealMustNameTheRecordBeforeIt) {
    journal::ChainHasher hasher;
    const auto records = chain(hasher, 2);
    const auto sealed = [&](const std::string& body) {
        journal::JournalRecord r;
        r.seq = 3;
        r.atMs = 1'795'000'000'003;
        r.kind = std::string(journal::kind::kSegmentSealed);
        r.body = body;
        r.hash = hasher.link(records[1].hash, journal::canonicalBytes(r));
        return r;
    };
    const std::string hex = journal::toHex(records[1].hash);
    for (const std::string& bad :
         {R"({"last_seq":1,"last_hash":")" + hex + "\"}", std::string(R"({"last_seq":2,"last_hash":"00"})"),
          R"({"last_seq":"2","last_hash":")" + hex + "\"}", std::string("[]"), std::string("not json")}) {
        ChainFollower follower("sha256", 2, records[1].hash);
        EXPECT_TRUE(follower.follow(sealed(bad))) << bad;
    }
    ChainFollower follower("sha256", 2, records[1].hash);
    EXPECT_EQ(follower.follow(sealed(R"({"last_hash":")" + hex + R"(","last_seq":2})")), std::nullopt);
}

TEST(RangeDigest, IsTheSha256OfEachRecordsCanonicalBytesAndHashInOrder) {
    journal::ChainHasher hasher;
    const auto records = chain(hasher, 3);
    std::string bytes;
    for (const auto& r : records) {
        bytes += std::to_string(r.seq) + "\t" + std::to_string(r.atMs) + "\t" + r.kind + "\t\t1\t" + r.body;
        bytes.append(reinterpret_cast<const char*>(r.hash.data()), r.hash.size());
    }
    EXPECT_EQ(rangeDigest(records), journal::toHex(journal::sha256(bytes)));
    EXPECT_NE(rangeDigest(std::span(records).first(2)), rangeDigest(records));
}

TEST(ShipConfig, TheShippedExampleLoadsAndMistakesAreNamed) {
    std::ifstream example(test::sourceDir() / "etc" / "pitlink-ship.yaml");
    const ShipConfig c = loadShipConfig(example, "pitlink-ship.yaml");
    EXPECT_EQ(c.table, "pit3-table1");
    EXPECT_EQ(c.poll.count(), 250);
    EXPECT_EQ(c.batchRecords, 5000U);
    EXPECT_NE(c.server.find("sslmode=verify-full"), std::string::npos);

    const auto error = [](const std::string& yaml) {
        std::istringstream in(yaml);
        try {
            (void)loadShipConfig(in, "ship.yaml");
        } catch (const config::ConfigError& e) {
            return std::string(e.what());
        }
        return std::string("loaded");
    };
    EXPECT_NE(error("server: host=x\n").find("'table'"), std::string::npos);
    EXPECT_NE(error("table: t\nserver: postgresql://x/y\n").find("not a URI"), std::string::npos);
    EXPECT_NE(error("table: t\nserver: host=x\npoll_ms: 5\n").find("'poll_ms'"), std::string::npos);
    EXPECT_NE(error("table: t\nserver: host=x\nbatch: 5\n").find("'batch'"), std::string::npos);  // unknown key
    EXPECT_NE(error("table: t\nserver: host=x\narchive_dirs: /a\n").find("a list"), std::string::npos);
    EXPECT_EQ(error("table: t\nserver: host=x\narchive_dirs: [/a, /b]\n"), "loaded");
}

TEST(ShipConfig, TheConnectionStringGetsThePassFileAndTheTimeOuts) {
    ShipConfig c;
    c.server = "host=db user=ship";
    const std::string plain = connectionString(c, nullptr);
    EXPECT_NE(plain.find("connect_timeout=10"), std::string::npos);
    EXPECT_NE(plain.find("tcp_user_timeout=20000"), std::string::npos);
    EXPECT_EQ(plain.find("passfile"), std::string::npos);
    c.passfile = "/etc/it's\\here";
    EXPECT_NE(connectionString(c, nullptr).find(R"(passfile='/etc/it\'s\\here')"), std::string::npos);
    c.server = "host=db connect_timeout=3";
    EXPECT_EQ(connectionString(c, nullptr).find("connect_timeout=10"), std::string::npos);  // the operator's stands
}

// connect_timeout read as libpq reads it, before any connection is tried (port 1 of this host
// would refuse one): a value that is not an integer is refused with libpq's message.
TEST(FloorClientConnect, AConnectTimeoutThatIsNoIntegerIsRefusedAsLibpqRefusesIt) {
    for (const char* value : {"abc", "10s", "99999999999"}) {
        try {
            FloorClient client(std::string("host=127.0.0.1 port=1 connect_timeout=") + value);
            ADD_FAILURE() << value << " was taken";
        } catch (const FloorError& error) {
            EXPECT_NE(std::string(error.what())
                          .find("invalid integer value \"" + std::string(value) +
                                "\" for connection option \"connect_timeout\""),
                      std::string::npos)
                << error.what();
        }
    }
    // A value libpq takes goes on to connecting, which port 1 refuses: another message.
    try {
        FloorClient client("host=127.0.0.1 port=1 connect_timeout= 3 ");
        ADD_FAILURE() << "port 1 answered";
    } catch (const FloorError& error) {
        EXPECT_EQ(std::string(error.what()).find("invalid integer value"), std::string::npos) << error.what();
    }
}

}  // namespace
}  // namespace pitlink::ship
