// Debian's Chromium (/usr/bin/chromium, deploy/install-deps.sh) as every browser test launches
// it through playwright-core: headless (Playwright passes --headless itself), no sandbox (tests
// run as root in containers and chroots), nothing that reaches out on its own (updates, sync,
// QUIC), and /tmp rather than /dev/shm (containers often have a tiny one). Shared by the
// touchscreen's tests of this folder and the hub's fleet test (tests/hub/browser/run.sh copies
// this file beside fleet.test.js).
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');

const LAUNCH = {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
};

// A browser for several contexts (the till's and the customer's phone at once).
function launch() {
  return chromium.launch(LAUNCH);
}

// Runs `run(context)` in a browser of its own on a fresh profile (a persistent context, as a
// store's screen keeps one), with `options` for the context (viewport, locale, timezone...);
// closes it and removes the profile however `run` ends. `prefix` names the profile's temp dir.
async function withProfile(prefix, options, run) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const context = await chromium.launchPersistentContext(profile, { ...LAUNCH, ...options });
  try {
    return await run(context);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

// The page a persistent context opens with.
async function firstPage(context) {
  return context.pages()[0] || await context.newPage();
}

module.exports = { launch, withProfile, firstPage };
