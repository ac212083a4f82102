// The touchscreen of `balcao serve` in a real browser (Debian's Chromium, headless): the
// cashier logs in on the PIN keypad (after one wrong PIN), rings up a Pix sale paid by the
// sandbox's simulated payer and a card sale typed into the form (its purchase at the bank
// carries this browser's 3-D Secure data: user agent, language, timezone, screen), prints a
// sale again ("2ª via"), then refunds the card sale
// with the supervisor approving on screen (after one wrong supervisor PIN). Then the session
// ends under the page (its cookie dropped: the next request is a 401) and the page is back at
// the login saying so; the supervisor logs in and "Trocar operador" logs them out; the
// cashier logs in and leaves the screen untouched past the idle timeout: logged out again.
// The operators are made by run.sh (BALCAO_CASHIER, BALCAO_SUPERVISOR and their PINs).
// Waits on selectors only (no fixed sleeps).
'use strict';
const { test } = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { withProfile, firstPage, waitForText } = require('./chromium.js');

const URL = process.env.BALCAO_URL;
const SHOTS = process.env.SCREENSHOT_DIR || '.';
const WAIT = { timeout: 15000 };

const CLI = process.env.BALCAO_CLI;
const BANK_CREDENTIALS = process.env.BALCAO_SANDBOX_CREDENTIALS;
const BROWSER_USER_AGENT = 'Mozilla/5.0 (BalcaoTouchscreenTest 7.3; Playwright) Chromium';

const CASHIER = process.env.BALCAO_CASHIER;
const CASHIER_PIN = process.env.BALCAO_CASHIER_PIN;
const SUPERVISOR = process.env.BALCAO_SUPERVISOR;
const SUPERVISOR_PIN = process.env.BALCAO_SUPERVISOR_PIN;

async function typeAmount(page, digits) {
  for (const d of digits) await page.click(`.keypad button[data-key="${d}"]`);
}
// Taps a PIN on the on-screen keypad inside `pad` (a selector), as a finger would.
async function tapPin(page, pad, pin) {
  for (const d of pin) await page.click(`${pad} button[data-digit="${d}"]`);
}
async function dots(page, pad) {
  return page.getAttribute(`${pad} .pin-dots`, 'data-count');
}
async function login(page, name, pin) {
  await page.fill('#login-operator', name);
  await tapPin(page, '#login-pad', pin);
  await page.click('#login-pad button[data-pin="enter"]');
  await page.waitForSelector('#screen-keypad:not([hidden])', WAIT);
}

test('login, a Pix sale, a card sale and its refund approved by the supervisor', { timeout: 90000 }, async () => {
  await withProfile('balcao-chromium-', {
    viewport: { width: 900, height: 1100 },
    // A device no other test has: the card purchase's 3-D Secure data must be this one's.
    userAgent: BROWSER_USER_AGENT,
    locale: 'en-GB',
    timezoneId: 'America/Manaus',  // UTC-4 all year
  }, async (context) => {
    // The page's clock runs on as usual but can be moved ahead (for the idle logout at the end).
    await context.clock.install();
    const page = await firstPage(context);
    await page.goto(URL, WAIT);

    // The login: nothing else on screen until someone logs in; a wrong PIN is refused and cleared.
    await page.waitForSelector('#screen-login:not([hidden])', WAIT);
    assert.strictEqual(await page.isVisible('#nav-sales'), false);
    assert.strictEqual(await page.isVisible('#switch-operator'), false);
    await page.fill('#login-operator', CASHIER);
    await tapPin(page, '#login-pad', '0000');
    assert.strictEqual(await page.textContent('#login-pad .pin-dots'), '••••');
    await page.click('#login-pad button[data-pin="enter"]');
    await waitForText(page, '#login-error', /\S/, WAIT);
    assert.strictEqual(await page.textContent('#login-error'), 'Operador ou PIN incorretos');
    assert.strictEqual(await dots(page, '#login-pad'), '0');
    await tapPin(page, '#login-pad', CASHIER_PIN.slice(0, 3));
    await page.screenshot({ path: path.join(SHOTS, 'touchscreen-login.png') });
    await tapPin(page, '#login-pad', CASHIER_PIN.slice(3));
    await page.click('#login-pad button[data-pin="enter"]');
    await page.waitForSelector('#screen-keypad:not([hidden])', WAIT);
    assert.strictEqual(await page.textContent('#operator-shown'), CASHIER);
    assert.strictEqual(await page.textContent('#operator-role'), 'Caixa');
    assert.strictEqual(await page.isVisible('#switch-operator'), true);
    assert.strictEqual(await page.isVisible('#nav-queue'), false);  // the supervisor's only
    await page.waitForSelector('#sandbox-badge:not([hidden])', WAIT);
    // The session is an HttpOnly, SameSite=Strict cookie the page cannot read; nothing in storage.
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'balcao_session');
    assert.ok(session, 'the login set the balcao_session cookie');
    assert.strictEqual(session.httpOnly, true);
    assert.strictEqual(session.sameSite, 'Strict');
    assert.strictEqual(await page.evaluate(() => document.cookie), '');
    assert.deepStrictEqual(await page.evaluate(() => [localStorage.length, sessionStorage.length]), [0, 0]);

    // Pix: R$ 25,90 on the keypad, the QR with its countdown, the customer pays.
    await typeAmount(page, ['2', '5', '9', '0']);
    assert.strictEqual(await page.textContent('#amount-display'), 'R$ 25,90');
    await page.click('#charge');
    await page.waitForSelector('#screen-method:not([hidden])', WAIT);
    assert.strictEqual(await page.isVisible('#customer-form'), false);  // only once Pix com vencimento is chosen
    await page.click('#method-pix');
    await page.waitForSelector('#screen-qr:not([hidden])', WAIT);
    await page.waitForFunction(() => document.querySelector('#qr-image').naturalWidth > 0, null, WAIT);
    await waitForText(page, '#qr-countdown', /Expira em \d+:\d\d/, WAIT);
    await page.screenshot({ path: path.join(SHOTS, 'touchscreen-pix.png') });
    await page.click('#simulate');
    await page.waitForSelector('#screen-outcome:not([hidden])', WAIT);
    await waitForText(page, '#outcome-title', 'Pago', WAIT);
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
    // The store's sessions ask for 3-D Secure: the customer's contact and billing address.
    assert.strictEqual(await page.isVisible('#card-customer'), true);
    await page.fill('#holder-email', 'maria.souza@example.com');
    await page.fill('#holder-phone', '(92) 98765-4321');
    await page.fill('#billing-line1', 'Avenida Eduardo Ribeiro, 620');
    await page.fill('#billing-city', 'Manaus');
    await page.fill('#billing-state', 'am');
    await page.fill('#billing-zip', '69010001');
    // Keyed entry is the exception this store turned on (run.sh's config): a supervisor approves.
    await page.fill('#keyed-supervisor', SUPERVISOR);
    await page.fill('#keyed-pin', SUPERVISOR_PIN);
    await page.click('#card-submit');
    await page.waitForSelector('#screen-outcome:not([hidden])', WAIT);
    await waitForText(page, '#outcome-title', 'Pago', WAIT);
    const receipt = await page.textContent('#receipt');
    assert.match(receipt, /424242\*{6}4242/);
    assert.doesNotMatch(receipt, /4242424242424242/);
    assert.strictEqual(await page.inputValue('#card-number'), '');  // the form was cleared
    assert.strictEqual(await page.inputValue('#card-cvv'), '');
    assert.strictEqual(await page.inputValue('#holder-email'), '');
    await page.screenshot({ path: path.join(SHOTS, 'touchscreen-card.png') });
    // The purchase the bank got carries this browser's device data and the form's customer,
    // read back from the sandbox with `balcao api show`.
    const cardSale = await page.evaluate(() => fetch('/api/sales').then((r) => r.json()))
      .then((day) => day.sales.find((sale) => sale.amount === 12000));
    const purchaseId = cardSale.bank_ids.find((ref) => ref.startsWith('purchase/')).slice('purchase/'.length);
    const purchase = JSON.parse(execFileSync(CLI, ['api', 'show', 'merchant-purchase', purchaseId],
                                             { env: { ...process.env, BALCAO_CREDENTIALS: BANK_CREDENTIALS } }));
    const bought = purchase.merchantPurchase || purchase;
    assert.strictEqual(bought.metadata.userAgent, BROWSER_USER_AGENT);
    assert.strictEqual(bought.metadata.language, 'en-GB');
    assert.strictEqual(bought.metadata.timezoneOffset, 4);
    assert.strictEqual(bought.metadata.userIp, '127.0.0.1');
    assert.strictEqual(bought.metadata.extraData.screen, '900x1100');
    assert.strictEqual(bought.holderEmail, 'maria.souza@example.com');
    assert.strictEqual(bought.holderPhone, '(92) 98765-4321');
    assert.strictEqual(bought.billingCity, 'Manaus');
    assert.strictEqual(bought.billingStateCode, 'AM');
    assert.strictEqual(bought.billingZipCode, '69010-001');
    assert.strictEqual(bought.billingCountryCode, 'BRA');

    // Today's sales: both paid.
    await page.click('#nav-sales');
    await page.waitForFunction(() => document.querySelectorAll('#sales-table tbody tr').length === 2, null, WAIT);
    const badges = await page.$$eval('#sales-table .badge', (els) => els.map((e) => e.textContent));
    assert.deepStrictEqual(badges, ['Paga', 'Paga']);
    await page.screenshot({ path: path.join(SHOTS, 'touchscreen-sales.png') });
    // A sale of today printed again: the service marks the copy "2ª VIA".
    await page.click('#sales-table tbody tr:has(td:text-is("R$ 25,90")) button.reprint');
    await page.waitForSelector('#reprint-note:not([hidden])', WAIT);
    assert.strictEqual(await page.textContent('#reprint-note'), '2ª via enviada para a impressora');

    // Refunding the card sale asks the supervisor: a wrong PIN is refused in the dialog and
    // cleared, the right one sends the refund.
    const cardId = await page.$eval('#sales-table tbody tr:has(td:text-is("R$ 120,00"))', (tr) => tr.dataset.id);
    const cardRow = `#sales-table tbody tr[data-id="${cardId}"]`;
    await page.click(`${cardRow} button.refund`);
    await page.waitForSelector('#action-dialog[open]', WAIT);
    assert.strictEqual(await page.textContent('#action-title'), 'Aprovação do supervisor');
    assert.match(await page.textContent('#action-summary'), new RegExp('Estornar R\\$ 120,00, pedido por ' + CASHIER));
    assert.strictEqual(await page.inputValue('#refund-amount'), '120,00');
    await page.fill('#action-reason', 'cliente desistiu da compra');
    await page.fill('#approval-supervisor', SUPERVISOR);
    await tapPin(page, '#approval-pad', '999999');
    await page.click('#approval-pad button[data-pin="enter"]');
    await waitForText(page, '#action-error', /\S/, WAIT);
    assert.strictEqual(await page.textContent('#action-error'), 'Aprovação recusada: supervisor ou PIN incorretos');
    assert.strictEqual(await dots(page, '#approval-pad'), '0');
    assert.strictEqual(await page.isVisible('#action-dialog'), true);
    await page.screenshot({ path: path.join(SHOTS, 'touchscreen-approval-refused.png') });
    await tapPin(page, '#approval-pad', SUPERVISOR_PIN);
    assert.strictEqual(await dots(page, '#approval-pad'), String(SUPERVISOR_PIN.length));
    await page.screenshot({ path: path.join(SHOTS, 'touchscreen-approval.png') });
    await page.click('#approval-pad button[data-pin="enter"]');
    await page.waitForSelector('#action-dialog', { state: 'hidden', ...WAIT });
    await waitForText(page, cardRow + ' .badge', /Estorna/, WAIT);
    for (let reloads = 0; ; reloads++) {  // the refund settles at the sandbox; the list is read again
      const refunded = await page.waitForFunction((row) => {
        const badge = document.querySelector(row + ' .badge');
        return badge && badge.textContent === 'Estornada';
      }, cardRow, { timeout: 1000 }).then(() => true, () => false);
      if (refunded) break;
      assert.ok(reloads < 15, 'the refunded sale shows as Estornada');
      await page.click('#nav-sales');
    }

    // Behind the box's back, with the account's credentials: the Pix sale's deposit lowered by
    // R$ 3,00 at the bank. The screen follows the bank: the health line and the sale's row say
    // "estornado no banco" (the night has not run since).
    const pixSale = await page.evaluate(() => fetch('/api/sales').then((r) => r.json()))
      .then((day) => day.sales.find((sale) => sale.amount === 2590));
    execFileSync(CLI, ['api', 'patch', 'deposit', pixSale.payment_id, '--json', JSON.stringify({ amount: 2290 })],
                 { env: { ...process.env, BALCAO_CREDENTIALS: BANK_CREDENTIALS } });
    await waitForText(page, '#health [data-part="settlement"]',
                      'Estornado no banco: R$ 3,00 — o fechamento da noite aponta', { timeout: 30000 });
    assert.strictEqual(await page.isVisible('#health [data-part="settlement"]'), true);
    for (let reloads = 0; ; reloads++) {
      const shown = await page.waitForFunction(() => {
        const row = [...document.querySelectorAll('#sales-table tbody tr')]
          .find((tr) => [...tr.querySelectorAll('td')].some((td) => td.textContent === 'R$ 25,90'));
        const badge = row && row.querySelector('.badge');
        return badge && badge.textContent === 'Paga — estornado no banco: R$ 3,00';
      }, null, { timeout: 1000 }).then(() => true, () => false);
      if (shown) break;
      assert.ok(reloads < 15, 'the Pix sale shows what the bank took back');
      await page.click('#nav-sales');
    }

    // Canceling a sale that collected nothing needs no supervisor: reason and confirm.
    await page.click('#nav-new');
    await typeAmount(page, ['5', '0', '0']);
    await page.click('#charge');
    await page.waitForSelector('#screen-method:not([hidden])', WAIT);
    await page.click('#screen-method .cancel-sale');
    await page.waitForSelector('#action-dialog[open]', WAIT);
    assert.strictEqual(await page.textContent('#action-title'), 'Cancelar R$ 5,00');
    assert.strictEqual(await page.isVisible('#approval'), false);
    await page.fill('#action-reason', 'valor digitado errado');
    await page.click('#action-confirm');
    await page.waitForSelector('#action-dialog', { state: 'hidden', ...WAIT });
    await waitForText(page, '#outcome-title', 'Cancelada', WAIT);

    // The session ends under the page (as after the idle timeout): the next poll gets a 401
    // and the page is back at the login, saying why.
    await context.clearCookies();
    await page.waitForSelector('#screen-login:not([hidden])', WAIT);
    assert.match(await page.textContent('#login-notice'), /^Sessão expirada/);
    assert.strictEqual(await page.isVisible('#nav-sales'), false);
    assert.strictEqual(await page.textContent('#sales-table tbody'), '');

    // The supervisor logs in; "Trocar operador" ends the session at the service too.
    await login(page, SUPERVISOR, SUPERVISOR_PIN);
    assert.strictEqual(await page.textContent('#operator-role'), 'Supervisor');
    // The queue screen is the supervisor's: nothing waits for the bank now.
    await page.click('#nav-queue');
    await page.waitForSelector('#screen-queue:not([hidden])', WAIT);
    await page.waitForSelector('#queue-empty:not([hidden])', WAIT);
    assert.strictEqual(await page.textContent('#queue-empty'), 'Fila vazia: nada esperando o banco.');
    assert.strictEqual(await page.$$eval('#queue-table tbody tr', (rows) => rows.length), 0);
    await page.click('#switch-operator');
    await page.waitForSelector('#screen-login:not([hidden])', WAIT);
    assert.strictEqual(await page.isVisible('#login-notice'), false);
    assert.strictEqual(await page.inputValue('#login-operator'), '');
    assert.strictEqual(await page.evaluate(() => fetch('/api/session').then((r) => r.status)), 401);

    // Nobody touches the screen for the idle timeout (the polls do not count): the page logs
    // out by itself and says why.
    await login(page, CASHIER, CASHIER_PIN);
    const idle = await page.evaluate(() => fetch('/api/session').then((r) => r.json()).then((j) => j.idle_timeout_s));
    assert.ok(idle >= 60, 'GET /api/session tells the idle timeout');
    await page.clock.fastForward((idle + 10) * 1000);
    await page.waitForSelector('#screen-login:not([hidden])', WAIT);
    assert.match(await page.textContent('#login-notice'), /^Sessão expirada por inatividade/);
    await page.waitForFunction(() => fetch('/api/session').then((r) => r.status === 401), null, WAIT);
  });
});
