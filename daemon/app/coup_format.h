#pragma once
// Human-readable one-line descriptions of coups, shared by pitlinkd logs and pitlinkctl.

#include <string>

#include "daemon/game/hand.h"
#include "daemon/game/outcome.h"

namespace pitlink::app {

std::string describeHand(const game::Hand& hand);  // "9D 5C (4)"
std::string describeCoup(const game::Coup& coup, const game::Outcome& outcome);

}  // namespace pitlink::app
