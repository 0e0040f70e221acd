#include "tests/unit/fixtures.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "daemon/config/paytable_loader.h"
#include "daemon/game/third_card_rule.h"

namespace pitlink::test {

std::filesystem::path sourceDir() {
    return PITLINK_SOURCE_DIR;
}

nlohmann::json loadJsonFixture(const std::string& relativePath) {
    std::ifstream in(std::filesystem::path(PITLINK_FIXTURES_DIR) / relativePath);
    if (!in) {
        throw std::runtime_error("missing fixture " + relativePath);
    }
    return nlohmann::json::parse(in);
}

game::Paytable shippedPaytable(const std::string& id) {
    return config::loadPaytableFile(sourceDir() / "etc" / "paytables" / (id + ".yaml"));
}

std::vector<game::Card> cards(const std::string& text) {
    std::istringstream in(text);
    std::vector<game::Card> out;
    std::string word;
    while (in >> word) {
        const auto card = game::parseCard(word);
        if (!card) {
            throw std::invalid_argument("bad card in test: " + word);
        }
        out.push_back(*card);
    }
    return out;
}

game::Coup coupFromDeal(const std::string& text) {
    const auto list = cards(text);
    std::size_t next = 0;
    game::Coup coup = game::dealCoup([&] {
        if (next == list.size()) {
            throw std::invalid_argument("coupFromDeal: not enough cards in '" + text + "'");
        }
        return list[next++];
    });
    if (next != list.size()) {
        throw std::invalid_argument("coupFromDeal: cards left over in '" + text + "'");
    }
    return coup;
}

game::Coup coupOfHands(const std::string& player, const std::string& banker) {
    game::Coup coup;
    for (const auto c : cards(player)) {
        coup.player.add(c);
    }
    for (const auto c : cards(banker)) {
        coup.banker.add(c);
    }
    return coup;
}

}  // namespace pitlink::test
