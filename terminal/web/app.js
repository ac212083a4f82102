// The cashier's touchscreen: plain JS over the JSON API of `balcao serve` (docs/terminal.md).
// This file is the sale on screen: the amount keypad, the method, the QR of a Pix, a 3-D Secure
// challenge or an invoice, and the outcome. One sale at a time; its state is watched by a long
// poll on GET /api/sales/{id}. Shared with the other scripts: page.js (state, requests), words.js
// (texts); the card form: card_form.js; canceling and refunding: approval.js.
'use strict';

const watch = { id: null, stop: null };  // the long poll on the sale on screen (watchSale)

// --- the amount keypad (cents) ---
function renderAmount() {
  $('#amount-display').textContent = money(app.cents);
  $('#charge').disabled = app.cents <= 0;
}
$$('.keypad button').forEach((b) => b.addEventListener('click', () => {
  const k = b.dataset.key;
  if (k === 'back') app.cents = Math.floor(app.cents / 10);
  else if (app.cents < 10000000) app.cents = app.cents * (k === '00' ? 100 : 10) + (k === '00' ? 0 : Number(k));
  renderAmount();
}));
$('#charge').addEventListener('click', async () => {
  if (app.busy) return;
  app.busy = true;
  const answer = await api('POST', '/api/sales', { amount: app.cents });
  app.busy = false;
  if (!answer.ok) return tell(answer);
  app.qrKey = '';
  render(answer.json);
});

// Every sale starts clean: no form keeps what the last sale chose (a debit card's "Débito"
// would hide the next sale's installments), typed or selected. The login form keeps its name.
function resetSaleForms() {
  $$('main form').forEach((form) => { if (form.id !== 'login-form') form.reset(); });
  $$('main .error').forEach((box) => { if (box.id !== 'login-error') box.textContent = ''; });
  $('#customer-form').hidden = true;
  $('#decline').hidden = true;
}

function newSale() {
  app.sale = null;
  app.cents = 0;
  app.qrKey = '';
  resetSaleForms();
  renderAmount();
  show('keypad');
}
$('#new-sale').addEventListener('click', newSale);
$('#nav-new').addEventListener('click', newSale);

// --- actions on the sale on screen ---
async function act(action, body, errorBox) {
  if (!app.sale || app.busy) return null;
  app.busy = true;
  if (errorBox) errorBox.textContent = '';
  const waiting = setTimeout(() => { show('working'); }, 300);
  const answer = await api('POST', '/api/sales/' + app.sale.id + '/' + action, body || {});
  clearTimeout(waiting);
  app.busy = false;
  if (answer.ok && answer.json && answer.json.id) render(answer.json);
  else {
    if (app.sale) render(app.sale);
    if (!answer.ok) tell(answer, errorBox);
  }
  return answer;
}

// Offline with card store-and-forward on: the card form at once; the card is sealed and sent
// to the bank when the connection is back (the sale is provisional until then).
$('#method-card').addEventListener('click', () => {
  if (app.online || !app.offlineCards) return act('method', { method: 'card' });
  clearCardForm();
  $('#card-customer').hidden = true;
  CUSTOMER_INPUTS.forEach((s) => { $(s).required = false; });
  fillInstallments();
  $('#card-error').textContent = '';
  $('#card-offline').hidden = false;
  show('card');
});
$('#method-pix').addEventListener('click', () => act('method', { method: 'pix' }));
$('#method-invoice').addEventListener('click', () => {
  $('#customer-form').hidden = false;
  $('#customer-name').focus();
});
$('#customer-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const customer = { name: $('#customer-name').value.trim(), tax_id: $('#customer-tax-id').value.trim() };
  const declined = app.sale && app.sale.status === 'declined';
  act(declined ? 'fallback' : 'method', declined ? { customer } : { method: 'invoice', customer }, $('#customer-error'));
});
$('#retry').addEventListener('click', () => act('retry'));
$('#print-code').addEventListener('click', () => act('print'));
$('#keep-open').addEventListener('click', () => act('keep-open'));
$('#simulate').addEventListener('click', async () => {
  const answer = await api('POST', '/api/sales/' + app.sale.id + '/simulate', {});
  if (!answer.ok) tell(answer);  // paid: the long poll (watchSale) turns the screen
});

// --- rendering the sale on screen ---
// The code under the QR, to copy (copia e cola) when the customer pays from a phone that
// cannot scan this screen, and an invoice's due date.
function showPixCode(code, dueMs) {
  $('#pix-code').hidden = !code;
  $('#pix-code-text').value = code;
  $('#pix-code-copied').textContent = '';
  $('#qr-due').hidden = !dueMs;
  $('#qr-due').textContent = dueMs ? 'Vence em ' + new Date(dueMs).toLocaleDateString(document.documentElement.lang,
    { timeZone: 'America/Sao_Paulo' }) : '';
}
$('#pix-code-copy').addEventListener('click', async () => {
  const field = $('#pix-code-text');
  try {
    await navigator.clipboard.writeText(field.value);
  } catch (_) {  // no clipboard API (plain HTTP beyond loopback): select it for the cashier
    field.select();
    document.execCommand('copy');
  }
  $('#pix-code-copied').textContent = 'Copiado';
});
function countdown() {
  const s = app.sale;
  const el = $('#qr-countdown');
  if (!s || !s.deadline_ms || s.status !== 'pix') { el.textContent = ''; return; }
  const left = Math.max(0, Math.round((s.deadline_ms - (Date.now() + app.clockOffset)) / 1000));
  el.textContent = 'Expira em ' + Math.floor(left / 60) + ':' + String(left % 60).padStart(2, '0');
}
setInterval(countdown, 1000);

function render(view) {
  if (watch.stop && watch.id !== view.id) watch.stop.abort();
  if (!app.operator) return;  // an answer that came back after the session ended
  app.sale = view;
  $$('.sale-amount').forEach((el) => { el.textContent = money(view.amount); });
  // A cash register's sale: its amount came from the register and is not edited here.
  $$('.sale-register').forEach((el) => {
    el.hidden = !view.register;
    el.textContent = view.register ? 'Venda do caixa ' + view.register : '';
  });
  const st = view.status;
  if (st === 'choosing' || st === 'declined') {
    const decline = $('#decline');
    decline.hidden = !view.message;
    decline.textContent = pt(view.message);
    $('#retry').hidden = !view.can.retry;
    // What the button does, not "try again": the same method, anew.
    $('#retry').textContent = view.method === 'pix' ? 'Gerar outro Pix' : 'Tentar o cartão de novo';
    $('#method-card').disabled = !app.online && !app.offlineCards;
    $('#method-pix').disabled = !app.online;
    $('#offline-reason').hidden = app.online || app.offlineCards;
    $('#offline-cards-reason').hidden = app.online || !app.offlineCards;
    if ($('#screen-method').hidden) $('#customer-form').hidden = true;
    show('method');
  } else if (st === 'enter-card') {
    $('#card-offline').hidden = true;
    if ($('#screen-card').hidden) { clearCardForm(); fillInstallments(); $('#card-error').textContent = ''; }
    show('card');
  } else if (st === 'pix' || st === 'challenge' || st === 'invoice') {
    const key = view.id + st + view.bank_ids.length;
    if (app.qrKey !== key) {
      app.qrKey = key;
      $('#qr-image').src = '/api/sales/' + view.id + '/qr.svg?k=' + encodeURIComponent(key);
    }
    $('#qr-title').textContent = st === 'pix' ? 'Pague com Pix' : st === 'challenge' ? 'Confirme no celular (3-D Secure)'
      : 'Pix com vencimento';
    $('#qr-hint').textContent = st === 'pix' ? 'Abra o app do banco e leia o QR code.'
      : st === 'challenge' ? 'O cliente lê o QR code com o celular e confirma a compra.'
      : 'O cliente paga pelo QR code ou pelo código copia e cola, até o vencimento.';
    showPixCode(st === 'challenge' ? '' : view.pix_code || '', st === 'invoice' ? view.due_ms : 0);
    $('#qr-link').textContent = view.link || '';
    $('#qr-link').href = view.link || '#';
    $('#keep-open').hidden = !view.can.keep_open;
    $('#print-code').hidden = !view.can.print;
    $('#simulate').hidden = !app.sandbox;
    countdown();
    show('qr');
  } else if (st === 'working' || st === 'canceling' || st === 'refunding') {
    $('#working-text').textContent = view.message || 'Falando com o banco…';
    show('working');
  } else {
    const title = $('#outcome-title');
    const kinds = { paid: 'good', refunded: 'bad', voided: 'bad', queued: 'wait', 'pay-later': 'wait', provisional: 'wait' };
    title.dataset.kind = kinds[st] || 'wait';
    title.textContent = { paid: 'Pago', refunded: 'Estornado', voided: 'Cancelada', queued: 'Na fila (sem conexão)',
                          'pay-later': 'Pix com vencimento em aberto' }[st] || LABELS[st] || st;
    $('#outcome-text').textContent = st === 'paid' ? METHODS[view.method] + ' — recebido ' + money(view.collected)
        + (view.returned > 0 ? ' (' + money(view.returned) + ' estornado)' : '') + bankReversedText(view)
      : st === 'queued' ? 'O Pix com vencimento será emitido quando a conexão voltar. Entregue o comprovante provisório ao cliente.'
      : st === 'provisional' ? 'O cartão será enviado ao banco quando a conexão voltar. Entregue o comprovante provisório ao cliente.'
      : view.message || '';
    const receipt = view.receipts && view.receipts.length ? view.receipts[view.receipts.length - 1] : '';
    $('#receipt').hidden = !receipt;
    $('#receipt').textContent = receipt;
    $('#reprint').hidden = !(view.can && view.can.reprint);
    show('outcome');
  }
}

// The sale on screen is watched by a long poll (docs/terminal.md): the box answers
// GET /api/sales/{id}?wait=<version> when the sale changes (or after 20 s), so the screen turns
// as soon as the box learns of the payment. One watch at a time; a watch for a sale no longer on
// screen is let go.
async function watchSale() {
  for (;;) {
    const sale = app.sale;
    if (!app.operator || !sale || app.busy || FINAL.has(sale.status)) {
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    const stop = new AbortController();
    Object.assign(watch, { id: sale.id, stop });
    // A row of the day's list has no version: the sale's own view brings it.
    const wait = sale.version === undefined ? '' : '?wait=' + sale.version;
    const answer = await api('GET', '/api/sales/' + sale.id + wait, undefined, true, stop.signal);
    watch.stop = null;
    if (answer.ok && app.sale && app.sale.id === sale.id && !app.busy) {
      const screenNow = $$('.screen').find((s) => !s.hidden);
      if (screenNow && screenNow.id === 'screen-sales') app.sale = answer.json;
      else render(answer.json);
    } else if (!answer.ok && !stop.signal.aborted) {
      await new Promise((r) => setTimeout(r, 1000));  // the box is restarting: ask again shortly
    }
  }
}
watchSale();

// A cash register's payment (docs/integration.md) starts without the cashier: when the
// screen has no sale in progress, the register's sale that runs is taken on screen.
async function adoptRegisterSale() {
  if (!app.operator || app.busy || (app.sale && !FINAL.has(app.sale.status))) return;
  const answer = await api('GET', '/api/sales', undefined, true);
  if (!answer.ok || app.busy || (app.sale && !FINAL.has(app.sale.status))) return;
  const running = answer.json.sales.find((s) => s.register && !FINAL.has(s.status) && s.status !== 'pay-later');
  if (running) render(running);
}
setInterval(adoptRegisterSale, 1000);

renderAmount();
