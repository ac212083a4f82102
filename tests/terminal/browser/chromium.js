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

// Uncaught exceptions in any page a test opened (Playwright's 'pageerror'): a script that throws
// may leave the screen looking right while a button does nothing, so every test fails on one.
const pageErrors = [];

function watchPages(context) {
  const watch = (page) => page.on('pageerror', (e) => pageErrors.push(`${page.url()}: ${e.message}`));
  context.pages().forEach(watch);
  context.on('page', watch);
  return context;
}

// Throws when a page threw: called when a test's browser closes.
function assertNoPageErrors() {
  if (pageErrors.length > 0) throw new Error(`a page threw:\n${pageErrors.splice(0).join('\n')}`);
}

// A browser for several contexts (the till's and the customer's phone at once); each context it
// makes is watched for uncaught exceptions, and closing it fails when a page threw.
async function launch() {
  const browser = await chromium.launch(LAUNCH);
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => watchPages(await newContext(options));
  const close = browser.close.bind(browser);
  browser.close = async () => {
    await close();
    assertNoPageErrors();
  };
  return browser;
}

// Runs `run(context)` in a browser of its own on a fresh profile (a persistent context, as a
// store's screen keeps one), with `options` for the context (viewport, locale, timezone...);
// fails when a page threw; closes it and removes the profile however `run` ends. `prefix` names
// the profile's temp dir.
async function withProfile(prefix, options, run) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const context = watchPages(await chromium.launchPersistentContext(profile, { ...LAUNCH, ...options }));
  try {
    const result = await run(context);
    assertNoPageErrors();
    return result;
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

// The page a persistent context opens with.
async function firstPage(context) {
  return context.pages()[0] || await context.newPage();
}

// Waits until the text of `selector` in `page` is `want` (a string) or matches it (a RegExp). An
// element not there yet (a view drawn after sign-in or a language switch) is "not yet", not the
// TypeError a bare querySelector(...).textContent predicate would end the wait with.
async function waitForText(page, selector, want, options) {
  const expected = want instanceof RegExp ? { source: want.source, flags: want.flags } : { text: want };
  await page.waitForFunction(({ selector, expected }) => {
    const text = document.querySelector(selector)?.textContent ?? '';
    return expected.source === undefined ? text === expected.text
                                         : new RegExp(expected.source, expected.flags).test(text);
  }, { selector, expected }, options);
}

module.exports = { launch, withProfile, firstPage, waitForText };
