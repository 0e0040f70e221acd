#pragma once
// Helpers shared by the unit tests: fixture files, shipped paytables, cards from text.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "daemon/config/config.h"
#include "daemon/config/config_error.h"
#include "daemon/game/card.h"
#include "daemon/game/hand.h"
#include "daemon/game/paytable.h"

namespace pitlink::test {

std::filesystem::path sourceDir();
nlohmann::json loadJsonFixture(const std::string& relativePath);
game::Paytable shippedPaytable(const std::string& id);  // etc/paytables/<id>.yaml

// "9D KS 2H" -> cards; throws on a bad card.
std::vector<game::Card> cards(const std::string& text);
// Builds a coup by dealing the cards in order through the drawing rules.
game::Coup coupFromDeal(const std::string& text);
// A coup with these hands as given, not checked against the drawing rules (settlement fixtures).
game::Coup coupOfHands(const std::string& player, const std::string& banker);

// The ConfigError that loading throws; a test failure (and an empty error) when it loads.
template <class Load>
config::ConfigError configErrorOf(Load&& load, const std::string& input) {
    try {
        (void)load(input);
    } catch (const config::ConfigError& e) {
        return e;
    }
    ADD_FAILURE() << "no error for:\n" << input;
    return config::ConfigError("", 0, 0, "", "");
}

// pitlink.yaml's `text`, loaded as the file /etc/pitlink/pitlink.yaml; and the error it gives.
inline config::Config loadConfigText(const std::string& text) {
    std::istringstream in(text);
    return config::loadConfig(in, "/etc/pitlink/pitlink.yaml");
}
inline config::ConfigError configTextError(const std::string& text) {
    return configErrorOf(loadConfigText, text);
}

}  // namespace pitlink::test
