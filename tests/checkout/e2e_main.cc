// main() of the checkout end-to-end test binaries: the binary re-executed as a killed child
// (tests/checkout/kill_child.h) runs its flow instead of the tests.
#include <gtest/gtest.h>

#include "tests/checkout/kill_child.h"

int main(int argc, char** argv) {
  balcao::checkout::e2e::RunKillChildIfAsked(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
