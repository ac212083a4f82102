// What a screen shows a person, checked one way for every page (layout.test.js: the cashier's
// flow; phone.test.js: the phone-only card screen, the 3-D Secure screen and the customer's
// phone page): each selector's box inside the viewport (none cut, none below the fold), the page
// not scrolled, a page-wide header one row, every visible button at least 44 px and its words
// whole, no text cut short by an ellipsis, and no string of the other language. The other
// language's strings are the page's own dictionary: the touchscreen's i18n.js (EN_US, pt-BR
// text → English) or the phone page's pay.js (PAY_TEXT, the same keys in both languages).
// A screenshot of each check lands in SCREENSHOT_DIR as <lang>-<width>x<height>-<name>.png.
'use strict';
const assert = require('node:assert');
const path = require('node:path');

const SHOTS = process.env.SCREENSHOT_DIR || '.';

// In the page: the facts checkScreen asserts.
function screenFacts({ selectors, lang }) {
  const visible = (el) => el && el.checkVisibility() && el.getClientRects().length > 0;
  const inView = (sel) => {
    const el = Array.from(document.querySelectorAll(sel)).find(visible);
    if (!el) return { sel, found: false };
    const r = el.getBoundingClientRect();
    return { sel, found: true, top: r.top, bottom: r.bottom, left: r.left, right: r.right };
  };
  // Too small for a finger, or its words cut (a button squeezed by its row).
  const small = Array.from(document.querySelectorAll('button')).filter(visible)
    .map((b) => ({ text: b.textContent.trim() || b.getAttribute('aria-label'), r: b.getBoundingClientRect(),
                   cut: b.scrollWidth > b.clientWidth + 1 }))
    .filter((b) => b.r.height < 44 || b.r.width < 44 || b.cut)
    .map((b) => b.text + ' ' + Math.round(b.r.width) + 'x' + Math.round(b.r.height) + (b.cut ? ' cut' : ''));
  // Words the page shortened with "…" because their box was too narrow.
  const ellipsed = Array.from(document.querySelectorAll('body *')).filter(visible)
    .filter((el) => getComputedStyle(el).textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1)
    .map((el) => (el.id ? '#' + el.id : el.tagName.toLowerCase()) + ' "' + el.textContent.trim() + '"');
  // The page's dictionary as [pt-BR, en-US] pairs (words both languages write alike left out).
  const pairs = typeof EN_US !== 'undefined'
    ? Array.from(EN_US.entries())  // eslint-disable-line no-undef
    : Object.keys(PAY_TEXT['pt-BR']).filter((k) => typeof PAY_TEXT['pt-BR'][k] === 'string')  // eslint-disable-line no-undef
      .map((k) => [PAY_TEXT['pt-BR'][k].trim(), PAY_TEXT['en-US'][k].trim()]);  // eslint-disable-line no-undef
  const foreign = new Set(pairs.filter(([pt, en]) => pt !== en).map(([pt, en]) => (lang === 'en-US' ? pt : en)));
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue.trim();
    if (text && visible(node.parentElement) && !node.parentElement.closest('#language-switch')) texts.push(text);
  }
  document.querySelectorAll('input, select, img').forEach((el) => {
    if (!visible(el)) return;
    if (el.placeholder) texts.push(el.placeholder);
    if (el.alt) texts.push(el.alt);
  });
  const whole = texts.join('\n');
  const seen = texts.filter((t) => foreign.has(t))
    .concat(Array.from(foreign).filter((f) => f.length >= 14 && whole.includes(f)));
  const header = document.querySelector('body > header');
  const health = document.querySelector('#health');
  return {
    boxes: selectors.map(inView), scrollY: window.scrollY, small, ellipsed, foreign: Array.from(new Set(seen)),
    header: header && { height: header.getBoundingClientRect().height, cut: header.scrollWidth > header.clientWidth + 1 },
    health: visible(health) ? health.getBoundingClientRect().toJSON() : null,
    lang: document.documentElement.lang,
  };
}

// Checks the page as it is now at `size` (its viewport) in `lang` and takes its screenshot
// (`fullPage` for a page a phone scrolls, such as the customer's form).
async function checkScreen(page, lang, size, name, selectors, { fullPage = false } = {}) {
  // A page that has just come back in another language may not have run its scripts yet, and
  // its dictionary is what the check reads: wait for the whole page.
  await page.waitForFunction(() => document.readyState === 'complete' &&
    (typeof EN_US !== 'undefined' || typeof PAY_TEXT !== 'undefined'), null, { timeout: 30000 });  // eslint-disable-line no-undef
  const facts = await page.evaluate(screenFacts, { selectors, lang });
  const where = `${name} at ${size.width}x${size.height} in ${lang}`;
  assert.strictEqual(facts.lang, lang, where);
  assert.strictEqual(facts.scrollY, 0, `${where}: the screen opens at its top`);
  if (facts.header) {
    assert.ok(facts.header.height <= 64, `${where}: the header is one row (${facts.header.height} px)`);
    assert.ok(!facts.header.cut, `${where}: the header's row is wider than the screen`);
  }
  if (facts.health) assert.ok(facts.health.height <= 32 && facts.health.bottom <= size.height, `${where}: health line`);
  for (const box of facts.boxes) {
    assert.ok(box.found, `${where}: ${box.sel} is shown`);
    assert.ok(box.top >= 0 && box.bottom <= size.height && box.left >= 0 && box.right <= size.width,
              `${where}: ${box.sel} inside the viewport (${JSON.stringify(box)})`);
  }
  assert.deepStrictEqual(facts.small, [], `${where}: buttons under 44 px`);
  assert.deepStrictEqual(facts.ellipsed, [], `${where}: text cut short`);
  assert.deepStrictEqual(facts.foreign, [], `${where}: text of the other language`);
  await page.screenshot({ path: path.join(SHOTS, `${lang}-${size.width}x${size.height}-${name}.png`), fullPage });
}

module.exports = { checkScreen };
