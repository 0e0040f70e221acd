// pitlinkd: the table controller daemon. Its main() is runPitlinkd() (pitlinkd_main.h), shared
// with the test build whose journal can lose its power (tests/integration/pitlinkd_power_cut.cpp).
#include "daemon/app/pitlinkd_main.h"

int main(int argc, char** argv) {
    return pitlink::app::runPitlinkd(argc, argv);
}
