// The touchscreen of `balcao serve` in a real browser (Debian's Chromium, headless): a Pix
// sale rung up on the keypad and paid by the sandbox's simulated payer, then a card sale
// typed into the form and approved. Waits on selectors only (no fixed sleeps).
'use strict';
const { test } = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');

const URL = process.env.BALCAO_URL;
const SHOTS = process.env.SCREENSHOT_DIR || '.';
const WAIT = { timeout: 15000 };

async function typeAmount(page, digits) {
  for (const d of digits) await page.click(`.keypad button[data-key="${d}"]`);
}

test('a Pix sale and a card sale on the touchscreen', { timeout: 60000 }, async () => {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'balcao-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync',
           '--disable-dev-shm-usage'],  // containers often have a tiny /dev/shm
    viewport: { width: 900, height: 1100 },
  });
  try {
    const page = context.pages()[0] || await context.newPage();
    await page.goto(URL, WAIT);
    await page.waitForSelector('#sandbox-badge:not([hidden])', WAIT);

    // Pix: R$ 25,90 on the keypad, the QR with its countdown, the customer pays.
    await typeAmount(page, ['2', '5', '9', '0']);
    assert.strictEqual(await page.textContent('#amount-display'), 'R$ 25,90');
    await page.click('#charge');
    await page.waitForSelector('#screen-method:not([hidden])', WAIT);
    assert.strictEqual(await page.isVisible('#customer-form'), false);  // only once Boleto is chosen
    await page.click('#method-pix');
    await page.waitForSelector('#screen-qr:not([hidden])', WAIT);
    await page.waitForFunction(() => document.querySelector('#qr-image').naturalWidth > 0, null, WAIT);
    await page.waitForFunction(() => /Expira em \d+:\d\d/.test(document.querySelector('#qr-countdown').textContent),
                               null, WAIT);
    await page.screenshot({ path: path.join(SHOTS, 'touchscreen-pix.png') });
    await page.click('#simulate');
    await page.waitForSelector('#screen-outcome:not([hidden])', WAIT);
    await page.waitForFunction(() => document.querySelector('#outcome-title').textContent === 'Pago', null, WAIT);
    assert.match(await page.textContent('#receipt'), /PIX RECEBIDO/);

    // Card: R$ 120,00 in 3 installments, typed into the form.
    await page.click('#new-sale');
    await typeAmount(page, ['1', '2', '0', '0', '0']);
    await page.click('#charge');
    await page.waitForSelector('#screen-method:not([hidden])', WAIT);
    await page.click('#method-card');
    await page.waitForSelector('#screen-card:not([hidden])', WAIT);
    await page.fill('#card-number', '4242424242424242');
    await page.fill('#card-expiry', '1234');
    await page.fill('#card-cvv', '123');
    await page.fill('#card-holder', 'MARIA SOUZA');
    await page.selectOption('#card-installments', '3');
    await page.click('#card-submit');
    await page.waitForSelector('#screen-outcome:not([hidden])', WAIT);
    await page.waitForFunction(() => document.querySelector('#outcome-title').textContent === 'Pago', null, WAIT);
    const receipt = await page.textContent('#receipt');
    assert.match(receipt, /424242\*{6}4242/);
    assert.doesNotMatch(receipt, /4242424242424242/);
    assert.strictEqual(await page.inputValue('#card-number'), '');  // the form was cleared
    assert.strictEqual(await page.inputValue('#card-cvv'), '');
    await page.screenshot({ path: path.join(SHOTS, 'touchscreen-card.png') });

    // Today's sales: both paid.
    await page.click('#nav-sales');
    await page.waitForFunction(() => document.querySelectorAll('#sales-table tbody tr').length === 2, null, WAIT);
    const badges = await page.$$eval('#sales-table .badge', (els) => els.map((e) => e.textContent));
    assert.deepStrictEqual(badges, ['Paga', 'Paga']);
    await page.screenshot({ path: path.join(SHOTS, 'touchscreen-sales.png') });
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});
