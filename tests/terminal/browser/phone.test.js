// The card paid on the customer's own phone (docs/adr/0009-card-on-the-customer-phone.md), in
// Debian's headless Chromium with two contexts: the touchscreen (a desktop at 1024×768) starts a
// card sale and shows a QR, which is decoded with zbarimg from a screenshot; the phone (a real
// Android Chrome user agent, 360×740, touch, pt-BR, America/Sao_Paulo) opens the decoded URL,
// fills the form through its autofill fields and posts the purchase straight to the bank (the
// embedded sandbox). Cases: a 3-D Secure challenge passed on the phone (the touchscreen turns
// paid within 2 s of the bank's approval), a decline then a second QR paid by debit, a challenge
// failed, a session that expires (back to the method choice, nothing collected). Then the
// sandbox's record of the purchase route shows only the phone (its user agent, language,
// timezone, address), nothing signed by the box, and no card number is anywhere in the data
// dir (databases, WAL), the log or the receipts. The phone-only card screen and the 3-D Secure
// wait are checked at 800x480 and 1024x768 and the customer's page at 360x740, in pt-BR and in
// en-US (screen_check.js: whole, not scrolled, no text of the other language; screenshots
// <lang>-<size>-qr|challenge|phone-page.png). Waits on selectors (no fixed sleeps).
'use strict';
const { test } = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { launch, waitForText } = require('./chromium.js');
const { checkScreen } = require('./screen_check.js');

const URL = process.env.BALCAO_URL;
const SHOTS = process.env.SCREENSHOT_DIR || '.';
const DATA = process.env.BALCAO_DATA;
const WAIT = { timeout: 20000 };
const PHONE_AGENT = 'Mozilla/5.0 (Linux; Android 13; moto g(30)) AppleWebKit/537.36 (KHTML, like Gecko) ' +
  'Chrome/119.0.0.0 Mobile Safari/537.36';

// A Luhn-valid Visa number of this run (the sandbox approves any number it has no scenario for),
// so that a search for its digits finds only what this test typed.
function freshCard() {
  const body = '4' + String(Date.now()).slice(-9) + String(Math.floor(Math.random() * 1e5)).padStart(5, '0');
  for (let check = 0; check < 10; check++) {
    const n = body + check;
    let sum = 0;
    for (let i = 0; i < n.length; i++) {
      let d = +n[n.length - 1 - i];
      if (i % 2) { d *= 2; if (d > 9) d -= 9; }
      sum += d;
    }
    if (sum % 10 === 0) return n;
  }
  throw new Error('no check digit');
}
const APPROVED = freshCard();
const CHALLENGE = '5500000000000004';
const DECLINED = '4000000000000002';
const TYPED = [APPROVED, CHALLENGE, DECLINED];
// What each screen must show without scrolling: the phone's QR with the amount, the countdown
// and the way out; the 3-D Secure wait with the amount and the way out.
const QR_PARTS = ['#phone-qr', '#screen-card .sale-amount', '#phone-countdown', '#screen-card .cancel-sale'];
const CHALLENGE_PARTS = ['#qr-title', '#screen-qr .sale-amount', '#screen-qr .cancel-sale'];
// The counter screens (800x480, the common 7" panel, and 1024x768) and the phone.
const COUNTER_SIZES = [{ width: 800, height: 480 }, { width: 1024, height: 768 }];
const PHONE_SIZE = { width: 360, height: 740 };
const TEXT = {
  'pt-BR': { expires: /Expira em \d+:\d\d/, waiting: /Aguardando o celular do cliente/, challenge: /celular/,
             amount: 'R$ 120,00', paid: 'Pago' },
  'en-US': { expires: /Expires in \d+:\d\d/, waiting: /Waiting for the customer's phone/, challenge: /phone/,
             amount: 'R$ 120.00', paid: 'Paid' },
};

function phoneContext(browser, locale) {
  return browser.newContext({
    userAgent: PHONE_AGENT, viewport: PHONE_SIZE, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale,
    timezoneId: 'America/Sao_Paulo',
  });
}

// Signs the cashier in; `lang` chosen first with the login screen's switch, when given.
async function login(page, lang) {
  await page.goto(URL, WAIT);
  await page.waitForSelector('#screen-login:not([hidden])', WAIT);
  if (lang) {
    await page.click(`#language-switch button[data-language="${lang}"]`);
    await page.waitForFunction((l) => document.documentElement.lang === l, lang, WAIT);
    await page.waitForSelector('#screen-login:not([hidden])', WAIT);
  }
  await page.fill('#login-operator', process.env.BALCAO_CASHIER);
  for (const d of process.env.BALCAO_CASHIER_PIN) await page.click(`#login-pad button[data-digit="${d}"]`);
  await page.click('#login-pad button[data-pin="enter"]');
  await page.waitForSelector('#screen-keypad:not([hidden])', WAIT);
}
// A card sale of `digits` cents on the touchscreen, up to the phone's QR; its URL, decoded.
async function startCardSale(till, digits, lang) {
  for (const d of digits) await till.click(`.keypad button[data-key="${d}"]`);
  await till.click('#charge');
  await till.waitForSelector('#screen-method:not([hidden])', WAIT);
  await till.click('#method-card');
  return phoneQr(till, '', lang);
}
async function phoneQr(till, previous, lang = 'pt-BR') {
  await till.waitForSelector('#screen-card:not([hidden])', WAIT);
  await till.waitForFunction((old) => {
    const img = document.querySelector('#phone-qr');
    const url = document.querySelector('#phone-url').textContent;
    return img.naturalWidth > 0 && url && url !== old;
  }, previous || '', WAIT);
  await waitForText(till, '#phone-countdown', TEXT[lang].expires, WAIT);
  assert.match(await till.textContent('#phone-wait'), TEXT[lang].waiting);
  assert.strictEqual(await till.isVisible('#card-form'), false, 'keyed entry is off: no card form');
  const shot = path.join(SHOTS, 'phone-qr-' + Date.now() + '.png');
  await (await till.$('#phone-qr')).screenshot({ path: shot });
  const url = execFileSync('zbarimg', ['--raw', '-q', shot]).toString().trim();
  assert.strictEqual(url, (await till.textContent('#phone-url')).trim());
  assert.match(url, /\/pay\/[0-9a-f]{32}$/);
  return url;
}
async function openOnPhone(phone, url) {
  const page = await phone.newPage();
  await page.goto(url, WAIT);
  await page.waitForSelector('#card:not([hidden])', WAIT);
  assert.strictEqual(await page.textContent('#store'), 'PADARIA DO ZE');
  return page;
}
// Fills the form by its autofill tokens, as the phone's saved card and address would.
async function fillByAutofill(page, number) {
  const fields = {
    'cc-number': number.replace(/(\d{4})(?=\d)/g, '$1 '), 'cc-exp': '12/34', 'cc-csc': '123', 'cc-name': 'MARIA SOUZA',
    email: 'maria@example.com', tel: '(11) 98765-4321', 'street-address': 'Rua Augusta, 1500',
    'address-level2': 'São Paulo', 'address-level1': 'SP', 'postal-code': '01304-001', country: 'BR',
  };
  for (const [token, value] of Object.entries(fields)) await page.fill(`[autocomplete="${token}"]`, value);
}
// The touchscreen at both counter sizes (screen_check.js), back to 1024x768 after.
async function onCounterScreens(till, lang, name, selectors) {
  for (const size of COUNTER_SIZES) {
    await till.setViewportSize(size);
    await checkScreen(till, lang, size, name, selectors);
  }
  await till.setViewportSize(COUNTER_SIZES[1]);
}
// The customer's page as it opens on the phone: the store, the amount and where to start typing
// on screen, all in the phone's language; a screenshot of the whole page.
async function checkPhonePage(page, lang) {
  await checkScreen(page, lang, PHONE_SIZE, 'phone-page', ['#store', '#amount', '#countdown', '#cc-number'],
                    { fullPage: true });
}
async function tillOutcome(till) {
  await till.waitForSelector('#screen-outcome:not([hidden])', WAIT);
  return till.textContent('#outcome-title');
}
async function newSale(till) {
  await till.click('#new-sale');
  await till.waitForSelector('#screen-keypad:not([hidden])', WAIT);
}

test('card paid on the customer\'s phone: challenge, decline and a second QR, challenge failed, expiry', { timeout: 240000 }, async () => {
  const browser = await launch();
  try {
    const counter = await browser.newContext({ viewport: COUNTER_SIZES[1], locale: 'pt-BR' });
    const phone = await phoneContext(browser, 'pt-BR');
    const till = await counter.newPage();
    await login(till);
    const status = await till.evaluate(() => fetch('/api/status').then((r) => r.json()));
    assert.strictEqual(status.keyed_entry, false, 'keyed entry is off as shipped');
    const sandbox = status.sandbox_url;

    // 1. R$ 120,00 in 3 installments by credit, through the issuer's challenge on the phone.
    const url1 = await startCardSale(till, ['1', '2', '0', '0', '0']);
    await till.screenshot({ path: path.join(SHOTS, 'phone-touchscreen-qr.png') });
    await onCounterScreens(till, 'pt-BR', 'qr', QR_PARTS);
    const p1 = await openOnPhone(phone, url1);
    await checkPhonePage(p1, 'pt-BR');
    assert.strictEqual(await p1.textContent('#amount'), 'R$ 120,00');
    assert.deepStrictEqual(await p1.$$eval('input[name=funding]', (r) => r.map((x) => x.value)), ['credit', 'debit']);
    assert.deepStrictEqual(await p1.$$eval('#installments option', (o) => o.map((x) => +x.value)), [1, 2, 3]);
    assert.ok((await p1.evaluate(() => performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation'))
      .reduce((n, e) => n + (e.transferSize || e.encodedBodySize || 0), 0))) <= 60 * 1024, 'page ≤ 60 KB');
    // Luhn and brand as typed.
    await p1.fill('[autocomplete="cc-number"]', '5500 0000 0000 0005');
    await p1.locator('[autocomplete="cc-number"]').blur();
    assert.strictEqual(await p1.getAttribute('#cc-number', 'aria-invalid'), 'true');
    await fillByAutofill(p1, CHALLENGE);
    assert.strictEqual(await p1.textContent('#brand'), 'Mastercard');
    await p1.selectOption('#installments', '3');
    assert.match(await p1.textContent('#plan'), /3x de R\$ 40,00/);
    await p1.screenshot({ path: path.join(SHOTS, 'phone-form.png'), fullPage: true });
    await p1.click('#pay');
    await p1.waitForURL(/\/sandbox\/challenge\//, WAIT);  // the phone goes to the bank's page itself
    await waitForText(till, '#qr-title', /celular/, WAIT);
    await onCounterScreens(till, 'pt-BR', 'challenge', CHALLENGE_PARTS);
    // Both moments on the machine's clock, as the pages saw them (not when this script's
    // polling noticed): the bank's answer to the phone's confirmation, the touchscreen's turn.
    await till.evaluate(() => {
      window.paidShownAt = 0;
      new MutationObserver(() => {
        if (!window.paidShownAt && !document.querySelector('#screen-outcome').hidden) window.paidShownAt = Date.now();
      }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['hidden'] });
    });
    await p1.click('button:text("Confirm")');
    await p1.waitForSelector('text=Purchase confirmed', WAIT);
    assert.strictEqual(await tillOutcome(till), 'Pago');
    const approvedAt = await p1.evaluate(() => performance.timeOrigin + performance.getEntriesByType('navigation')[0].responseStart);
    const lag = Math.round((await till.evaluate(() => window.paidShownAt)) - approvedAt);
    console.log(`the touchscreen turned paid ${lag} ms after the bank's approval`);
    assert.ok(lag <= 2000, `the touchscreen turned paid ${lag} ms after the bank's approval`);
    assert.match(await till.textContent('#receipt'), /0004/);
    await till.screenshot({ path: path.join(SHOTS, 'phone-touchscreen-paid.png') });

    // 2. Declined on the phone: the reason on the touchscreen, a new QR in one tap, paid by debit.
    await newSale(till);
    const url2 = await startCardSale(till, ['4', '5', '5', '0']);
    const p2 = await openOnPhone(phone, url2);
    await fillByAutofill(p2, DECLINED);
    await p2.click('#pay');
    await waitForText(p2, '#status', /recusou/, WAIT);
    await till.waitForSelector('#screen-method:not([hidden])', WAIT);
    await waitForText(till, '#decline', /recusad/i, WAIT);
    await till.click('#retry');
    const url3 = await phoneQr(till, url2);
    assert.notStrictEqual(url3, url2, 'a new session, a new QR');
    const stale = await phone.newPage();
    await stale.goto(url2, WAIT);
    await waitForText(stale, '#status', /não é \(mais\) válido/, WAIT);
    const p3 = await openOnPhone(phone, url3);
    await p3.check('input[name=funding][value=debit]');
    assert.strictEqual(await p3.isVisible('#installments'), false, 'debit takes no installments');
    await fillByAutofill(p3, APPROVED);
    await p3.click('#pay');
    await waitForText(p3, '#status', /aprovado/, WAIT);
    assert.strictEqual(await p3.inputValue('#cc-number'), '', 'the page forgot the card');
    assert.strictEqual(await tillOutcome(till), 'Pago');
    assert.match(await till.textContent('#receipt'), /D[ÉE]BITO/i);

    // 3. The challenge failed on the phone: declined, nothing collected.
    await newSale(till);
    const url4 = await startCardSale(till, ['9', '9', '0']);
    const p4 = await openOnPhone(phone, url4);
    await fillByAutofill(p4, CHALLENGE);
    await p4.click('#pay');
    await p4.waitForURL(/\/sandbox\/challenge\//, WAIT);
    await p4.click('button:text("Decline")');
    await till.waitForSelector('#screen-method:not([hidden])', WAIT);
    await waitForText(till, '#decline', /recusad/i, WAIT);

    // 4. The session expires unpaid: back to the method choice, and the phone's page says so.
    await till.click('#method-card');
    const url5 = await phoneQr(till, url4);
    const p5 = await openOnPhone(phone, url5);
    await waitForText(till, '#decline', /tempo para pagar com o cartão acabou/, { timeout: 90000 });
    assert.strictEqual(await till.isVisible('#screen-method'), true);
    await waitForText(p5, '#status', /expirou/, { timeout: 30000 });
    const sales = await till.evaluate(() => fetch('/api/sales').then((r) => r.json()));
    const open = sales.sales.find((s) => s.amount === 990);
    assert.strictEqual(open.collected, 0, 'no money for the expired sale');

    // The bank's record of the purchase route: the phone, never the box.
    const record = await (await fetch(sandbox + '/sandbox/purchase-requests')).json();
    assert.ok(record.requests.length >= 4, JSON.stringify(record));
    for (const r of record.requests) {
      assert.strictEqual(r.signed, false, 'the box sent no purchase: ' + JSON.stringify(r));
      assert.strictEqual(r.userAgent, PHONE_AGENT);
      assert.strictEqual(r.sourceAddress, '127.0.0.1');
      assert.strictEqual(r.metadata.userAgent, PHONE_AGENT);
      assert.strictEqual(r.metadata.language, 'pt-BR');
      assert.strictEqual(r.metadata.timezoneOffset, 180);  // America/Sao_Paulo, UTC-3
      assert.strictEqual(r.metadata.userIp, '127.0.0.1');
      assert.match(r.metadata.screen, /^360x740$/);
    }
  } finally {
    await browser.close();
  }
});

// The same screens in English, chosen with the login screen's switch, and the phone page on a
// phone set to English: every text in that language, money as it writes it, each screen whole.
test('in en-US: the phone\'s QR, the 3-D Secure wait and the customer\'s page', { timeout: 120000 }, async () => {
  const lang = 'en-US';
  const browser = await launch();
  try {
    const counter = await browser.newContext({ viewport: COUNTER_SIZES[1], locale: lang });
    const phone = await phoneContext(browser, lang);
    const till = await counter.newPage();
    await login(till, lang);
    const url = await startCardSale(till, ['1', '2', '0', '0', '0'], lang);
    await onCounterScreens(till, lang, 'qr', QR_PARTS);
    const page = await openOnPhone(phone, url);
    assert.strictEqual(await page.textContent('#amount'), TEXT[lang].amount);
    await checkPhonePage(page, lang);
    await fillByAutofill(page, CHALLENGE);
    await page.click('#pay');
    await page.waitForURL(/\/sandbox\/challenge\//, WAIT);
    await waitForText(till, '#qr-title', TEXT[lang].challenge, WAIT);
    await onCounterScreens(till, lang, 'challenge', CHALLENGE_PARTS);
    await page.click('button:text("Confirm")');
    assert.strictEqual(await tillOutcome(till), TEXT[lang].paid);
  } finally {
    await browser.close();
  }
});

// After both: no card number anywhere the box writes (databases and their WAL, the log, the receipts).
test('no card number typed on the phones is anywhere in the box\'s data dir or log', () => {
  const files = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p); else files.push(p);
    }
  };
  walk(DATA);
  assert.ok(files.some((f) => f.endsWith('-wal')), 'the WAL files were searched too: ' + files.join(' '));
  for (const f of files) {
    const bytes = fs.readFileSync(f);
    for (const digits of TYPED) {
      assert.strictEqual(bytes.indexOf(digits), -1, `${digits} found in ${f}`);
      assert.strictEqual(bytes.indexOf(Buffer.from(digits, 'utf16le')), -1, `${digits} (UTF-16) found in ${f}`);
    }
  }
});
