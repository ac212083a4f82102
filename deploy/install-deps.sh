#!/usr/bin/env bash
# Installs everything Balcão needs to build, run and test, from Debian 12 packages
# (plus the npm test tools, installed by the test script). Idempotent.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive

PACKAGES=(
  g++ cmake ninja-build ccache lld pkg-config git
  libboost-dev libboost-system-dev libcurl4-openssl-dev nlohmann-json3-dev libssl-dev openssl
  libsqlite3-dev sqlite3 libqrencode-dev libpng-dev libsecp256k1-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libsodium-dev  # Argon2id for operator PINs
  zbar-tools qrencode poppler-utils wrk curl ca-certificates chromium
  # the serve tests read /metrics with the reference Prometheus text parser (/usr/bin/python3)
  python3-prometheus-client
  dpkg-dev   # dpkg-shlibdeps: the Debian package's library Depends (deploy/package.sh, CPack)
  file       # CPack's DEB generator finds the ELF files to strip and to scan with it
  lintian    # deploy/package-check.sh: the package must have no lintian error
  adduser    # balcao's Depends (postinst creates the balcao user): dpkg -i in package-check
  tzdata     # balcao's Depends (the settlement timer's America/Sao_Paulo): same
  strace     # package-check: serve's and settle's system calls against the units' filter
  iproute2   # package-check: `ip link set lo up` in the install check's network namespace
  faketime   # the fault suite: `balcao serve` with its clock 10 minutes off, against a sandbox on time
  # the chain's hub (hub/, docs/hub.md): JetStream between hub and boxes (server, C client),
  # the hub's state in PostgreSQL (server for the tests, libpq to build), Caddy in front of it
  nats-server libnats-dev postgresql-15 libpq-dev caddy
  libcrypt-dev  # the hub: bcrypt hashes of the lanes' NATS passwords (hub/enrolment.cc)
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js and npm run the compatibility tests with the bank's official SDK. A machine
# with a NodeSource nodejs already has npm inside it (Debian's npm package conflicts).
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all packages present"
fi
