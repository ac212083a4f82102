// The one translation unit that compiles Asio's and Beast's out-of-line code
// (BOOST_ASIO_SEPARATE_COMPILATION / BOOST_BEAST_SEPARATE_COMPILATION).
// <utility> must come first (the Asio sources use std::exchange), hence no sorting here.
// clang-format off
#include <utility>
#include <boost/asio/impl/src.hpp>
#include <boost/asio/ssl/impl/src.hpp>
#include <boost/beast/src.hpp>
// clang-format on
