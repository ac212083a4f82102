// Every screen of the cashier's flow as store screens show it (issue 27): at 800x480 (the 7"
// panel) and 1024x768 (the POS monitor), in pt-BR and in en-US (chosen with the login screen's
// language switch), each screen opens at its top with its main action and the amount inside
// the viewport without scrolling; the header is one row; every button a finger can touch is at
// least 44 px; and no text of the other language is on screen (every string of i18n.js's
// dictionary, both ways). On the way: a sale starts clean (the card form of the sale after a
// debit one offers credit and installments again), a partial refund shows in the list and on
// the sale ("Paga — R$ 20,00 estornado"), the queue says "Fila vazia". A screenshot of each
// screen per size and language lands in SCREENSHOT_DIR (docs/screens/ keeps a copy).
// The card screen's phone QR is checked here; the phone-only card screen (keyed entry off, as
// shipped), the 3-D Secure screen and the customer's phone page in phone.test.js, at both sizes
// and in both languages, by the same checks (screen_check.js; it also refuses text cut short).
// Waits on selectors only (no fixed sleeps).
'use strict';
const { test } = require('node:test');
const assert = require('node:assert');
const { withProfile, firstPage, waitForText } = require('./chromium.js');
const { checkScreen } = require('./screen_check.js');

const URL = process.env.BALCAO_URL;
const WAIT = { timeout: 15000 };
const CASHIER = process.env.BALCAO_CASHIER;
const CASHIER_PIN = process.env.BALCAO_CASHIER_PIN;
const SUPERVISOR = process.env.BALCAO_SUPERVISOR;
const SUPERVISOR_PIN = process.env.BALCAO_SUPERVISOR_PIN;

const SIZES = [{ width: 800, height: 480 }, { width: 1024, height: 768 }];
const LANGUAGES = ['pt-BR', 'en-US'];
const TEXT = {
  'pt-BR': { paid: 'Pago', refunded: /^Paga — R\$ 20,00 estornado$/, empty: /^Fila vazia/, amount: 'R$ 49,90' },
  'en-US': { paid: 'Paid', refunded: /^Paid — R\$ 20\.00 refunded$/, empty: /^Queue empty/, amount: 'R$ 49.90' },
};

async function tapPin(page, pad, pin) {
  for (const d of pin) await page.click(`${pad} button[data-digit="${d}"]`);
}
async function login(page, name, pin) {
  await page.fill('#login-operator', name);
  await tapPin(page, '#login-pad', pin);
  await page.click('#login-pad button[data-pin="enter"]');
  await page.waitForSelector('#screen-keypad:not([hidden])', WAIT);
}

function session(size, run) {
  return withProfile('balcao-layout-', { viewport: size, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' },
    async (context) => {
      const page = await firstPage(context);
      await page.goto(URL, WAIT);
      await page.waitForSelector('#screen-login:not([hidden])', WAIT);
      await run(page);
    });
}

for (const size of SIZES) {
  for (const lang of LANGUAGES) {
    test(`every screen whole at ${size.width}x${size.height} in ${lang}`, { timeout: 120000 }, () => session(size, async (page) => {
      const t = TEXT[lang];
      // The language switch on the login screen: the page comes back in that language.
      await page.click(`#language-switch button[data-language="${lang}"]`);
      await page.waitForFunction((l) => document.documentElement.lang === l, lang, WAIT);
      await page.waitForSelector('#screen-login:not([hidden])', WAIT);
      await checkScreen(page, lang, size, 'login', ['#login-operator', '#login-pad button[data-pin="enter"]',
                                                    '#login-pad button[data-digit="0"]']);
      await login(page, CASHIER, CASHIER_PIN);

      // The keypad: the amount and Cobrar together.
      for (const d of '4990') await page.click(`.keypad button[data-key="${d}"]`);
      assert.strictEqual(await page.textContent('#amount-display'), t.amount);
      await checkScreen(page, lang, size, 'keypad', ['#amount-display', '#charge', '.keypad button[data-key="0"]']);
      await page.click('#charge');
      await page.waitForSelector('#screen-method:not([hidden])', WAIT);
      await checkScreen(page, lang, size, 'method', ['#screen-method .sale-amount', '#method-card', '#method-pix',
                                                     '#method-invoice', '#screen-method .cancel-sale']);
      await page.click('#method-invoice');  // the invoice's customer form opens under the methods
      await checkScreen(page, lang, size, 'method-invoice', ['#screen-method .sale-amount', '#customer-name',
                                                             '#customer-submit']);

      // Pix: the QR with its code to copy, the countdown and the actions.
      await page.click('#method-pix');
      await page.waitForSelector('#screen-qr:not([hidden])', WAIT);
      await page.waitForFunction(() => document.querySelector('#qr-image').naturalWidth > 0, null, WAIT);
      await page.waitForSelector('#pix-code:not([hidden])', WAIT);
      assert.match(await page.inputValue('#pix-code-text'), /^000201/);  // a BR Code
      await checkScreen(page, lang, size, 'pix', ['#qr-image', '#screen-qr .sale-amount', '#qr-countdown',
                                                  '#pix-code-copy', '#print-code', '#screen-qr .cancel-sale']);
      await page.click('#simulate');
      await waitForText(page, '#outcome-title', t.paid, WAIT);
      await checkScreen(page, lang, size, 'outcome', ['#outcome-title', '#screen-outcome .sale-amount', '#new-sale']);

      // A partial refund, approved by the supervisor in the dialog: R$ 20 of R$ 49,90.
      await page.click('#nav-sales');
      await page.waitForSelector('#screen-sales:not([hidden]) #sales-table tbody tr', WAIT);
      const row = '#sales-table tbody tr:first-child';
      await page.click(`${row} button.refund`);
      await page.waitForSelector('#action-dialog[open]', WAIT);
      await page.fill('#action-reason', lang === 'en-US' ? 'customer returned part' : 'cliente devolveu parte');
      await page.fill('#refund-amount', lang === 'en-US' ? '20.00' : '20,00');
      await page.fill('#approval-supervisor', SUPERVISOR);
      await tapPin(page, '#approval-pad', SUPERVISOR_PIN.slice(0, 2));
      await checkScreen(page, lang, size, 'refund-approval', ['#action-reason', '#refund-amount', '#approval-supervisor',
                                                              '#approval-pad button[data-pin="enter"]', '#action-back']);
      await tapPin(page, '#approval-pad', SUPERVISOR_PIN.slice(2));
      await page.click('#approval-pad button[data-pin="enter"]');
      await page.waitForSelector('#action-dialog', { state: 'hidden', ...WAIT });
      for (let reloads = 0; ; reloads++) {  // the refund settles at the sandbox; the list is read again
        const shown = await page.waitForFunction(([r, want]) => {
          const badge = document.querySelector(r + ' .badge');
          return badge && new RegExp(want).test(badge.textContent);
        }, [row, t.refunded.source], { timeout: 1000 }).then(() => true, () => false);
        if (shown) break;
        assert.ok(reloads < 20, 'the partial refund shows in the list');
        await page.click('#nav-sales');
      }
      await checkScreen(page, lang, size, 'sales', ['#sales-totals', `${row} td:nth-child(2)`, `${row} button.reprint`]);

      // A sale starts clean: the card form after a debit choice offers credit and installments.
      const hasCardForm = await page.$('#card-funding');
      if (hasCardForm) {
        await page.click('#nav-new');
        for (const d of '12000') await page.click(`.keypad button[data-key="${d}"]`);
        await page.click('#charge');
        await page.waitForSelector('#screen-method:not([hidden])', WAIT);
        await page.click('#method-card');
        await page.waitForSelector('#screen-card:not([hidden])', WAIT);
        // The card is paid on the customer's phone: its QR and the amount first (the keyed form,
        // the store's exception turned on for this test, follows below them).
        await page.waitForFunction(() => document.querySelector('#phone-qr').naturalWidth > 0, null, WAIT);
        await checkScreen(page, lang, size, 'card-phone', ['#phone-qr', '#screen-card .sale-amount', '#phone-countdown',
                                                           '#screen-card .cancel-sale']);
        await page.selectOption('#card-funding', 'debit');
        assert.strictEqual(await page.$$eval('#card-installments option', (o) => o.length), 1);
        await page.click('#nav-new');  // the sale left open; the next one starts
        for (const d of '12000') await page.click(`.keypad button[data-key="${d}"]`);
        await page.click('#charge');
        await page.waitForSelector('#screen-method:not([hidden])', WAIT);
        await page.click('#method-card');
        await page.waitForSelector('#screen-card:not([hidden])', WAIT);
        assert.strictEqual(await page.inputValue('#card-funding'), 'credit', 'the last sale\'s debit carried over');
        assert.ok(await page.$$eval('#card-installments option', (o) => o.length) > 1, 'installments offered again');
        await page.click('#nav-new');
      }

      // The supervisor's queue: empty, and saying so.
      await page.click('#switch-operator');
      await page.waitForSelector('#screen-login:not([hidden])', WAIT);
      await login(page, SUPERVISOR, SUPERVISOR_PIN);
      await page.click('#nav-queue');
      await page.waitForSelector('#queue-empty:not([hidden])', WAIT);
      assert.match(await page.textContent('#queue-empty'), t.empty);
      await checkScreen(page, lang, size, 'queue', ['#queue-empty', '#nav-queue', '#switch-operator']);
      // The health line, on any screen: one row under the header, every part in the language.
      await page.click('#nav-new');
      await waitForText(page, '#health [data-part="bank"]', /✓/, WAIT);
      await checkScreen(page, lang, size, 'health', ['#health [data-part="bank"]', '#health [data-part="printer"]',
                                                     '#amount-display', '#charge']);
      await page.click('#switch-operator');
    }));
  }
}

// The language chosen at the login screen sticks for the operator: on a fresh browser (the
// store's language, no cookie) their next login turns the screen to it, still logged in.
test('the language an operator chose comes back at their next login, on any screen', { timeout: 60000 }, async () => {
  const size = SIZES[1];
  await session(size, async (page) => {
    await page.click('#language-switch button[data-language="en-US"]');
    await page.waitForFunction(() => document.documentElement.lang === 'en-US', null, WAIT);
    await page.waitForSelector('#screen-login:not([hidden])', WAIT);
    await login(page, SUPERVISOR, SUPERVISOR_PIN);
    await page.click('#switch-operator');
  });
  await session(size, async (page) => {
    assert.strictEqual(await page.evaluate(() => document.documentElement.lang), 'pt-BR', 'a fresh browser: the store\'s');
    await login(page, SUPERVISOR, SUPERVISOR_PIN);
    await page.waitForFunction(() => document.documentElement.lang === 'en-US', null, WAIT);
    await page.waitForSelector('#screen-keypad:not([hidden])', WAIT);
    assert.strictEqual(await page.textContent('#operator-shown'), SUPERVISOR);
    // Chosen again while logged in? The switch is the login screen's: back there, Português.
    await page.click('#switch-operator');
    await page.waitForSelector('#screen-login:not([hidden])', WAIT);
    await page.click('#language-switch button[data-language="pt-BR"]');
    await page.waitForFunction(() => document.documentElement.lang === 'pt-BR', null, WAIT);
    await page.waitForSelector('#screen-login:not([hidden])', WAIT);
    await login(page, SUPERVISOR, SUPERVISOR_PIN);
    assert.strictEqual(await page.evaluate(() => document.documentElement.lang), 'pt-BR');
  });
});
