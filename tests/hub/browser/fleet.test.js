// The hub's fleet page in Debian's headless Chromium (docs/hub.md, "The fleet page"), driven by
// HubFleetBrowser (tests/hub/hub_fleet_browser_test.cc), which runs the hub behind Caddy with
// three lanes (two up, one never seen) and a paid sale. In pt-BR and en-US (chosen with the
// page's language switch, and from the browser's Accept-Language alone), at 1024x768 and 800x480:
// sign in, read the fleet (the stores, the lanes, today's totals, the silent lane flagged), the
// header one row, nothing wider than the screen, every button at least 44 px, and no text of the
// other language (every string of i18n.js's dictionary, both ways). A screenshot of each in
// SCREENSHOT_DIR (docs/screens/fleet-*.png keeps a copy). Waits on selectors only.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { withProfile, firstPage, waitForText } = require('./chromium.js');

const URL = process.env.BALCAO_HUB_URL;  // https://127.0.0.1:<caddy>/fleet/
const USER = process.env.BALCAO_HUB_USER;
const PASSWORD = process.env.BALCAO_HUB_PASSWORD;
const SHOTS = process.env.SCREENSHOT_DIR || '.';
const WAIT = { timeout: 30000 };

const SIZES = [{ width: 1024, height: 768 }, { width: 800, height: 480 }];
const TEXT = {
  'pt-BR': { collected: 'R$ 23,45', silent: '1 silencioso(s)', never: 'NUNCA VISTO', column: 'Impressora' },
  'en-US': { collected: 'R$ 23.45', silent: '1 silent', never: 'NEVER SEEN', column: 'Printer' },
};

function browse(size, locale, run) {
  const options = {
    viewport: size,
    locale,
    timezoneId: 'America/Sao_Paulo',
    ignoreHTTPSErrors: true,  // Caddy's `tls internal` CA, the test's own
  };
  return withProfile('balcao-fleet-', options, async (context) => {
    const page = await firstPage(context);
    await page.goto(URL, WAIT);
    await page.waitForSelector('#login #name', WAIT);
    await run(page);
  });
}

async function signIn(page) {
  await page.fill('#name', USER);
  await page.fill('#password', PASSWORD);
  await page.click('#login button[type="submit"]');
  await page.waitForSelector('#stores .store tbody tr', WAIT);
}

// What the page shows now, as a reader at this size sees it.
async function checkPage(page, lang, size, name, whole = []) {
  const facts = await page.evaluate(({ lang, whole }) => {
    const visible = (el) => el && el.checkVisibility() && el.getClientRects().length > 0;
    const pairs = Array.from(FLEET_EN_US.entries()).filter(([pt, en]) => pt !== en);
    const foreign = new Set(pairs.map(([pt, en]) => (lang === 'en-US' ? pt : en)));
    const texts = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.nodeValue.trim();
      if (text && visible(node.parentElement) && !node.parentElement.closest('#language-switch')) texts.push(text);
    }
    const small = Array.from(document.querySelectorAll('button')).filter(visible)
      .map((b) => ({ text: b.textContent.trim(), r: b.getBoundingClientRect() }))
      .filter((b) => b.r.height < 44 || b.r.width < 44)
      .map((b) => `${b.text} ${Math.round(b.r.width)}x${Math.round(b.r.height)}`);
    const header = document.querySelector('header');
    return {
      lang: document.documentElement.lang,
      title: document.title,
      foreign: texts.filter((t) => foreign.has(t)),
      texts,
      small,
      header: header.getBoundingClientRect().height,
      headerCut: header.scrollWidth > header.clientWidth + 1,
      pageWide: document.documentElement.scrollWidth > window.innerWidth + 1,
      cut: whole.filter((sel) => {
        const r = document.querySelector(sel).getBoundingClientRect();
        return r.top < 0 || r.left < 0 || r.bottom > window.innerHeight || r.right > window.innerWidth;
      }),
    };
  }, { lang, whole });
  const where = `${name} at ${size.width}x${size.height} in ${lang}`;
  assert.strictEqual(facts.lang, lang, where);
  assert.deepStrictEqual(facts.foreign, [], `${where}: text of the other language`);
  assert.ok(facts.header <= 64, `${where}: the header is one row (${facts.header} px)`);
  assert.ok(!facts.headerCut, `${where}: the header's row is wider than the screen`);
  assert.ok(!facts.pageWide, `${where}: the page is wider than the screen`);
  assert.deepStrictEqual(facts.small, [], `${where}: buttons under 44 px`);
  assert.deepStrictEqual(facts.cut, [], `${where}: outside the screen without scrolling`);
  await page.screenshot({ path: path.join(SHOTS, `fleet-${lang}-${size.width}x${size.height}-${name}.png`) });
  return facts;
}

// The fleet as the hub's API has it: the sale of loja-1/caixa-1, the lane never started flagged.
async function checkFleet(page, lang, size) {
  const t = TEXT[lang];
  await waitForText(page, '#today-collected', t.collected, WAIT);
  const facts = await checkPage(page, lang, size, 'fleet', ['#today-collected', '#silent-pill', '#logout']);
  assert.strictEqual(await page.textContent('#silent-pill'), t.silent);
  assert.strictEqual(await page.textContent('#lane-count'), '3');
  assert.strictEqual(await page.textContent('#today-sales'), '1');
  assert.ok(facts.texts.includes(t.never), `${lang}: the lane never seen is flagged`);
  assert.ok(facts.texts.includes(t.column), `${lang}: the lanes' columns`);
  assert.strictEqual(await page.locator('#stores .store').count(), 2);
  assert.strictEqual(await page.locator('#stores tbody tr').count(), 3);
  assert.strictEqual(await page.locator('#stores tr.silent').count(), 1);
}

for (const size of SIZES) {
  for (const lang of ['pt-BR', 'en-US']) {
    test(`the fleet at ${size.width}x${size.height} in ${lang}, chosen on the page`, { timeout: 120000 }, () =>
      browse(size, lang === 'en-US' ? 'pt-BR' : 'en-US', async (page) => {
        // The browser asks for the other language; the switch wins and the page comes back in it.
        await page.click(`#language-switch button[data-language="${lang}"]`);
        await page.waitForFunction((l) => document.documentElement.lang === l, lang, WAIT);
        await page.waitForSelector('#login #name', WAIT);
        await checkPage(page, lang, size, 'login', ['#name', '#password', '#login button[type="submit"]']);
        await signIn(page);
        await checkFleet(page, lang, size);
      }));
  }
}

test('the browser\'s Accept-Language alone chooses the page\'s language', { timeout: 120000 }, () =>
  browse(SIZES[0], 'en-US', async (page) => {
    assert.strictEqual(await page.evaluate(() => document.documentElement.lang), 'en-US');
    assert.strictEqual(await page.title(), 'Balcão — the fleet');
    await signIn(page);
    await checkFleet(page, 'en-US', SIZES[0]);
  }));

test('a signed-in user\'s choice follows them to another browser', { timeout: 120000 }, async () => {
  await browse(SIZES[0], 'pt-BR', async (page) => {
    await signIn(page);
    await page.click('#language-switch button[data-language="en-US"]');
    await page.waitForFunction(() => document.documentElement.lang === 'en-US', null, WAIT);
    await checkFleet(page, 'en-US', SIZES[0]);
  });
  await browse(SIZES[0], 'pt-BR', async (page) => {
    assert.strictEqual(await page.evaluate(() => document.documentElement.lang), 'pt-BR');
    await page.fill('#name', USER);
    await page.fill('#password', PASSWORD);
    await page.click('#login button[type="submit"]');
    await page.waitForFunction(() => document.documentElement.lang === 'en-US', null, WAIT);
    await checkFleet(page, 'en-US', SIZES[0]);
  });
});
