#!/usr/bin/env bash
# Builds the Debian package of a store box (docs/adr/0003-debian-package-with-cpack.md):
# <build>/package/balcao_<version>-<release>_amd64.deb (stripped binary, units, config,
# maintainer scripts) and balcao-dbgsym_<version>-<release>_amd64.ddeb (the binary's debug
# symbols). The LAST line of stdout is the .deb's absolute path.
# BUILD_DIR (default build) is configured exactly as deploy/test.sh does, so that a test run
# packs the binary it has just tested, without building anything twice.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(nproc)}
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/balcao-ccache}

cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBALCAO_WERROR=ON >/dev/null
cmake --build "$BUILD_DIR" -j "$JOBS" --target balcao balcao_package_files

# The version is project(VERSION) in CMakeLists.txt, as the binary reports it; the package
# adds the Debian revision. The changelog must have an entry for exactly that.
version=$("$BUILD_DIR/terminal/balcao" --version | awk '{print $2}')
release=$(sed -n 's/^BALCAO_PACKAGE_RELEASE:STRING=//p' "$BUILD_DIR/CMakeCache.txt")
changelog_version=$(sed -n '1s/^balcao (\([^)]*\)).*/\1/p' deploy/package/changelog)
if [ "$changelog_version" != "$version-$release" ]; then
  echo "package.sh: the package is $version-$release but deploy/package/changelog's first entry" \
       "is '$changelog_version': add an entry for $version-$release" >&2
  exit 1
fi

(cd "$BUILD_DIR" && cpack -G DEB)
deb="$BUILD_DIR/package/balcao_${version}-${release}_$(dpkg --print-architecture).deb"
if [ ! -f "$deb" ]; then
  echo "package.sh: cpack did not write $deb" >&2
  exit 1
fi
realpath "$deb"
