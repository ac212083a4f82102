// The cashier's touchscreen: plain JS over the JSON API of `balcao serve` (docs/terminal.md).
// Nothing works before an operator logs in (session.js); the session is the service's HttpOnly
// cookie, so the page keeps no secret of its own: no PIN, token or card in storage, the URL or
// a variable after its request. Any 401 means the session is gone (idle timeout, logout,
// service restart): api() goes back to the login screen.
// One sale at a time on screen; its state is polled from GET /api/sales/{id}. Card data is
// read from the form, sent once to POST /api/sales/{id}/card and the form cleared.
// Canceling and refunding, with a supervisor's approval when money goes back: approval.js.
'use strict';

const $ = (sel) => document.querySelector(sel);
const $$ = (sel) => Array.from(document.querySelectorAll(sel));

const LABELS = {
  choosing: 'Escolhendo o meio', declined: 'Recusada', 'enter-card': 'Aguardando cartão',
  working: 'Processando', challenge: 'Verificação 3-D Secure', pix: 'Aguardando Pix',
  invoice: 'Pix com vencimento emitido', 'pay-later': 'Pix com vencimento em aberto', queued: 'Na fila (sem conexão)',
  canceling: 'Cancelando', paid: 'Paga', refunding: 'Estornando', refunded: 'Estornada', voided: 'Cancelada',
  provisional: 'Cartão provisório (sem conexão)',
};
// The bank's invoice is a Pix charge with a due date (a BR Code), not a boleto: so it is named.
const METHODS = { card: 'Cartão', pix: 'Pix', invoice: 'Pix com vencimento', '': '—' };
const FIELDS = {
  number: 'Número do cartão', expiry: 'Validade', security_code: 'Código de segurança',
  holder_name: 'Nome no cartão', installments: 'Parcelas', funding: 'Tipo', amount: 'Valor',
  holder_email: 'E-mail', holder_phone: 'Telefone', 'billing.street_line1': 'Endereço', 'billing.street_line2': 'Complemento',
  'billing.city': 'Cidade', 'billing.state_code': 'UF', 'billing.zip_code': 'CEP', 'billing.country_code': 'País',
  'customer': 'Cliente', 'customer.name': 'Nome do cliente', 'customer.tax_id': 'CPF ou CNPJ',
  operator: 'Operador', reason: 'Motivo', pin: 'PIN', approval: 'Aprovação', session: 'Sessão',
};
const ROLES = { cashier: 'Caixa', supervisor: 'Supervisor' };
const RULES = {
  '13 to 19 digits passing the Luhn check': 'número inválido',
  'MM/AA': 'use MM/AA', 'MM/AA, not in the past': 'cartão vencido',
  '3 or 4 digits': '3 ou 4 dígitos', '2 to 26 characters': 'de 2 a 26 letras',
  'a valid CPF or CNPJ': 'CPF ou CNPJ inválido', '3 to 80 characters': 'de 3 a 80 letras',
  '1 to 40 characters': 'obrigatório', '3 to 200 characters': 'descreva o motivo (3 letras ou mais)',
};
const FINAL = new Set(['paid', 'refunded', 'voided']);
// The checkout's notices (English in the journal and the log) as the cashier reads them: a
// decline says the issuer's reason when the bank gave one, and what to do next.
const NEXT_FOR_CARD = ': peça outro cartão ou ofereça Pix';
const NOTICES = [
  [/^card not charged: .*insufficient.*$/i, 'cartão recusado pelo emissor: saldo ou limite insuficiente' + NEXT_FOR_CARD],
  [/^card not charged: .*expired.*$/i, 'cartão recusado pelo emissor: cartão vencido' + NEXT_FOR_CARD],
  [/^card not charged: .*(stolen|lost).*$/i, 'cartão recusado pelo emissor: cartão bloqueado' + NEXT_FOR_CARD],
  [/^card not charged: (denied|declined|.*denied by the issuer).*$/i, 'cartão recusado pelo emissor, sem motivo informado' + NEXT_FOR_CARD],
  [/^card not charged: failed.*$/, 'falha na autorização do cartão: tente o cartão de novo ou ofereça Pix'],
  [/^card not charged.*$/, 'cartão não cobrado: tente o cartão de novo ou ofereça Pix'],
  [/^card session expired$/, 'o tempo para pagar com o cartão acabou: tente de novo'],
  [/^Pix expired unpaid.*$/, 'o Pix expirou sem pagamento: gere outro Pix ou emita um Pix com vencimento'],
  [/the bank cannot be reached.*$/, 'o banco não responde, e cartão e Pix precisam dele agora (o Pix com vencimento pode ir para a fila)'],
  [/^card needs the bank now.*$/, 'cartão precisa do banco agora e a loja está sem conexão: o Pix com vencimento pode ir para a fila'],
  [/^Pix needs the bank now.*$/, 'Pix precisa do banco agora e a loja está sem conexão: o Pix com vencimento pode ir para a fila'],
  [/^reversal refused by the bank: (.*)$/, 'estorno recusado pelo banco: $1'],
  [/^an unconfirmed card authorization can only be canceled in full$/, 'uma autorização ainda não confirmada só pode ser estornada por inteiro'],
];
function pt(message) {
  for (const [pattern, text] of NOTICES) if (pattern.test(message)) return message.replace(pattern, text);
  return message;
}

const app = { cents: 0, sale: null, online: true, sandbox: false, maxInstallments: 12, minInstallment: 500,
              challenge: true, offlineCards: false,
              clockOffset: 0, qrKey: '', busy: false,
              operator: null,  // { name, role } while logged in
              idleTimeoutS: 0, lastActivity: Date.now() };
const watch = { id: null, stop: null };  // the long poll on the sale on screen (watchSale)

// Money as the screen's language writes it, as the receipts do (common/money.h): pt-BR
// "R$ 1.234,56", en-US "R$ 1,234.56".
const MONEY_MARKS = document.documentElement.lang === 'en-US' ? { group: ',', decimal: '.' } : { group: '.', decimal: ',' };
function money(cents) {
  const reais = Math.floor(Math.abs(cents) / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, MONEY_MARKS.group);
  return (cents < 0 ? '-' : '') + 'R$ ' + reais + MONEY_MARKS.decimal + String(Math.abs(cents) % 100).padStart(2, '0');
}
// A typed amount ("12,50", "1.234,56"; en-US "12.50", "1,234.56") in cents; null when it is not one.
function parseMoney(text) {
  const g = '\\' + MONEY_MARKS.group, d = '\\' + MONEY_MARKS.decimal;
  const m = new RegExp('^\\s*(?:R\\$\\s*)?(\\d{1,3}(?:' + g + '\\d{3})*|\\d+)(?:' + d + '(\\d{1,2}))?\\s*$').exec(text);
  if (!m) return null;
  return Number(m[1].split(MONEY_MARKS.group).join('')) * 100 + Number((m[2] || '0').padEnd(2, '0'));
}
// "Paga — R$ 20,00 estornado": a sale that gave part of its money back says how much; money
// the bank took back outside Balcão (the dashboard) is said apart: "estornado no banco".
function statusText(sale) {
  const label = LABELS[sale.status] || sale.status;
  const text = sale.status === 'paid' && sale.returned > 0 ? label + ' — ' + money(sale.returned) + ' estornado' : label;
  return text + bankReversedText(sale);
}
function bankReversedText(sale) {
  return sale.bank_reversed > 0 ? ' — estornado no banco: ' + money(sale.bank_reversed) : '';
}

// "30 s", "4 min": how long a lock still lasts.
function waitText(seconds) {
  const s = Number(seconds);
  return s < 120 ? s + ' s' : Math.ceil(s / 60) + ' min';
}
// The service's refusals of a supervisor approval (English, as in the operator log).
const APPROVAL_RULES = [
  [/locked.*\bin (\d+) s\b/i, (m) => 'supervisor bloqueado por muitos PINs errados: tente de novo em ' + waitText(m[1])],
  [/disabled/i, () => 'supervisor desativado'],
  [/not a supervisor|supervisor role|only a supervisor|must be a supervisor/i, () => 'só um supervisor pode aprovar'],
  [/wrong|incorrect/i, () => 'supervisor ou PIN incorretos'],
  [/needed|required|missing/i, () => 'um supervisor precisa aprovar (nome e PIN)'],
];
function errorText(answer) {
  const e = answer.json && answer.json.error;
  if (!e) return 'Erro ' + answer.status;
  if (e.field === 'state' || e.field === 'bank' || e.field === 'sale') return pt(e.rule.replace(/^.*?: \w+: /, ''));
  if (e.field === 'approval') {
    for (const [pattern, text] of APPROVAL_RULES) {
      const m = pattern.exec(e.rule);
      if (m) return 'Aprovação recusada: ' + text(m);
    }
    return 'Aprovação recusada: ' + e.rule;
  }
  return (FIELDS[e.field] || e.field) + ': ' + (RULES[e.rule] || e.rule);
}

// `background`: a poll the screen makes by itself, not the cashier's action; the server does
// not count it as activity, so an untouched screen's session still ends after the idle time.
async function api(method, path, body, background, signal) {
  let answer;
  const headers = body ? { 'Content-Type': 'application/json' } : {};
  if (background) headers['X-Balcao-Background'] = '1';
  try {
    const res = await fetch(path, {
      method, headers, signal,
      body: body ? JSON.stringify(body) : undefined, cache: 'no-store', credentials: 'same-origin',
    });
    let json = null;
    try { json = await res.json(); } catch (_) { /* not JSON */ }
    answer = { ok: res.ok, status: res.status, json };
  } catch (err) {
    answer = { ok: false, status: 0, json: { error: { field: 'bank', rule: 'o serviço não respondeu' } } };
  }
  // A wrong PIN at the login is a 401 too, but not the end of a session.
  if (answer.status === 401 && app.operator && path !== '/api/login') {
    showLogin('Sessão expirada: entre de novo para continuar.');
  }
  return answer;
}
// Tells the cashier why a request failed (in `box`, or an alert), unless the session ended:
// the login screen already says so.
function tell(answer, box) {
  if (answer.status === 401) return;
  if (box) box.textContent = errorText(answer);
  else alert(errorText(answer));
}

// Shows one screen; a screen that was not on already opens at its top, not at the scroll
// position the previous one left.
function show(name) {
  const wanted = $('#screen-' + name);
  const opening = wanted && wanted.hidden;
  $$('.screen').forEach((s) => { s.hidden = s.id !== 'screen-' + name; });
  if (opening) window.scrollTo(0, 0);
}

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
  if (!answer.ok) tell(answer);
  poll();
});

// --- the card form ---
function luhn(digits) {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) { d *= 2; if (d > 9) d -= 9; }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}
const CUSTOMER_INPUTS = ['#holder-email', '#holder-phone', '#billing-line1', '#billing-line2', '#billing-zip',
                         '#billing-city', '#billing-state'];
function clearCardForm() {
  ['#card-number', '#card-expiry', '#card-cvv', '#card-holder', ...CUSTOMER_INPUTS].forEach((s) => { $(s).value = ''; });
  // The bank's 3-D Secure check needs the customer's contact and billing address.
  $('#card-customer').hidden = !app.challenge;
  $('#device-qr').hidden = true;
  CUSTOMER_INPUTS.filter((s) => s !== '#billing-line2').forEach((s) => { $(s).required = app.challenge; });
}
// The customer's phone as the device 3-D Secure sees: a QR of a link for this sale; the phone's
// page reports its device to the service, and the purchase carries it.
$('#device-link').addEventListener('click', async () => {
  if (!app.sale) return;
  const answer = await api('POST', '/api/sales/' + app.sale.id + '/device-link', {});
  if (!answer.ok) return tell(answer, $('#card-error'));
  $('#device-qr').src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(answer.json.qr_svg);
  $('#device-qr').hidden = false;
});
// What 3-D Secure asks of the customer besides the card: typed into the form, and what this
// browser says of itself (the service adds its User-Agent and address as it sees them).
function customerDetails() {
  const details = {
    browser: { language: navigator.language, timezone_offset: new Date().getTimezoneOffset(),
               screen: screen.width + 'x' + screen.height },
  };
  const email = $('#holder-email').value.trim();
  const phone = $('#holder-phone').value.trim();
  if (email) details.holder_email = email;
  if (phone) details.holder_phone = phone;
  if (app.challenge || $('#billing-line1').value.trim()) {
    details.billing = {
      street_line1: $('#billing-line1').value.trim(), street_line2: $('#billing-line2').value.trim(),
      city: $('#billing-city').value.trim(), state_code: $('#billing-state').value.trim().toUpperCase(),
      zip_code: $('#billing-zip').value.trim(), country_code: $('#billing-country').value,
    };
  }
  return details;
}
$('#card-expiry').addEventListener('input', (e) => {
  const d = e.target.value.replace(/\D/g, '').slice(0, 4);
  e.target.value = d.length > 2 ? d.slice(0, 2) + '/' + d.slice(2) : d;
});
$('#card-number').addEventListener('input', (e) => {
  e.target.value = e.target.value.replace(/\D/g, '').slice(0, 19).replace(/(\d{4})(?=\d)/g, '$1 ');
});
$('#card-funding').addEventListener('change', fillInstallments);
function fillInstallments() {
  const select = $('#card-installments');
  select.innerHTML = '';
  const debit = $('#card-funding').value === 'debit';
  const amount = app.sale ? app.sale.amount : 0;
  for (let n = 1; n <= (debit ? 1 : app.maxInstallments); n++) {
    if (n > 1 && Math.floor(amount / n) < app.minInstallment) break;
    const option = document.createElement('option');
    option.value = n;
    option.textContent = n === 1 ? 'À vista' : n + 'x de ' + money(Math.floor(amount / n));
    select.appendChild(option);
  }
  // A cash register's sale comes with the installments the register asked for.
  if (app.sale && app.sale.register && app.sale.installments > 1 && !debit) select.value = String(app.sale.installments);
}
$('#card-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const error = $('#card-error');
  const number = $('#card-number').value.replace(/\D/g, '');
  if (number.length < 13 || !luhn(number)) { error.textContent = 'Número do cartão: número inválido'; return; }
  if (!/^(0[1-9]|1[0-2])\/\d{2}$/.test($('#card-expiry').value)) { error.textContent = 'Validade: use MM/AA'; return; }
  if (!/^\d{3,4}$/.test($('#card-cvv').value)) { error.textContent = 'Código de segurança: 3 ou 4 dígitos'; return; }
  if ($('#card-holder').value.trim().length < 2) { error.textContent = 'Nome no cartão: obrigatório'; return; }
  const body = {
    number, expiry: $('#card-expiry').value, security_code: $('#card-cvv').value,
    holder_name: $('#card-holder').value.trim(), funding: $('#card-funding').value,
    installments: Number($('#card-installments').value || 1), ...customerDetails(),
    ...keyedApproval(),  // phone_card.js: the supervisor who approves a keyed card
  };
  clearCardForm();  // sent once; the cashier never sees it again
  act('card', body, error);
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

// --- today's sales ---
async function loadSales() {
  const answer = await api('GET', '/api/sales');
  if (!answer.ok) return;
  const body = $('#sales-table tbody');
  body.innerHTML = '';
  const t = answer.json.totals;
  const count = (n, one, many) => n + ' ' + (n === 1 ? one : many);
  $('#sales-totals').textContent = '— ' + count(t.count, 'venda', 'vendas') + ', ' + count(t.paid, 'paga', 'pagas') + ', ' +
                                   money(t.collected);
  for (const sale of answer.json.sales) {
    const tr = document.createElement('tr');
    tr.dataset.id = sale.id;
    const time = new Date(sale.opened_at).toLocaleTimeString('pt-BR', { timeZone: 'America/Sao_Paulo' });
    const cells = [time, money(sale.amount), METHODS[sale.method] || '—'];
    cells.forEach((text, i) => {
      const td = document.createElement('td');
      td.textContent = text;
      if (i === 1) td.className = 'money';
      tr.appendChild(td);
    });
    const status = document.createElement('td');
    const badge = document.createElement('span');
    badge.className = 'badge';
    badge.dataset.status = sale.status;
    badge.textContent = statusText(sale);
    status.appendChild(badge);
    tr.appendChild(status);
    const actions = document.createElement('td');
    const add = (label, cls, fn) => {
      const b = document.createElement('button');
      b.textContent = label;
      b.className = 'secondary ' + cls;
      b.addEventListener('click', fn);
      actions.appendChild(b);
    };
    if (sale.reversal_requested > 0) add('Aprovar estorno do caixa', 'approve-reversal', () => askAction('approve-reversal', sale));
    if (sale.can.refund) add('Estornar', 'refund', () => askAction('refund', sale));
    if (sale.can.cancel) add('Cancelar', 'cancel', () => askAction('cancel', sale));
    if (sale.can.reprint) add('2ª via', 'reprint', () => reprint(sale.id));
    if (!FINAL.has(sale.status)) add('Abrir', 'open', () => { app.qrKey = ''; render(sale); });
    tr.appendChild(actions);
    body.appendChild(tr);
  }
}
// Prints the sale's last receipt again (sale, refund or invoice), marked "2ª VIA" by the service.
async function reprint(id) {
  if (app.busy) return;
  app.busy = true;
  const answer = await api('POST', '/api/sales/' + id + '/reprint', {});
  app.busy = false;
  const note = $('#reprint-note');
  if (!answer.ok) return tell(answer);
  note.hidden = false;
  note.textContent = '2ª via enviada para a impressora';
  setTimeout(() => { note.hidden = true; }, 4000);
}
$('#reprint').addEventListener('click', () => { if (app.sale) reprint(app.sale.id); });
$('#nav-sales').addEventListener('click', () => { show('sales'); loadSales(); });

// --- connection and queue indicator ---
async function status() {
  if (!app.operator) return;
  const answer = await api('GET', '/api/status', undefined, true);
  const pill = $('#connection');
  if (answer.status === 401) return;
  if (!answer.ok) {
    pill.dataset.online = 'false';
    pill.textContent = 'Serviço fora do ar';
    return;
  }
  const s = answer.json;
  app.clockOffset = s.now_ms - Date.now();
  app.sandbox = s.bank === 'sandbox';
  app.maxInstallments = s.max_installments;
  app.challenge = s.challenge;
  app.offlineCards = s.offline_cards;
  app.minInstallment = s.min_installment;
  $('#merchant').textContent = s.merchant;
  $('#sandbox-badge').hidden = !app.sandbox;
  // What the receipts still lack, said short: the health line keeps one row on a 7" panel.
  const missing = s.merchant_missing || [];
  $('#merchant-default').hidden = missing.length === 0;
  $('#merchant-default').textContent = missing.length > 1 ? 'Loja sem nome e CNPJ'
    : missing[0] === 'name' ? 'Loja sem nome' : 'Loja sem CNPJ';
  const changed = app.online !== s.online;
  app.online = s.online;
  pill.dataset.online = String(s.online);
  pill.textContent = s.online ? 'Conectado' : 'Sem conexão com o banco';
  const depth = s.queue ? s.queue.depth : 0;
  const failed = s.queue ? s.queue.failed : 0;
  const queue = $('#queue');
  queue.hidden = depth === 0 && failed === 0;
  queue.textContent = 'Fila: ' + depth + (failed ? ' (' + failed + ' com falha)' : '');
  const printer = $('#printer-alert');
  printer.hidden = !s.print_failed;
  printer.textContent = 'Impressora: ' + s.print_failed + ' não impresso(s)';
  if (s.health) showHealth(s.health);
  if (changed && app.sale && !$('#screen-method').hidden) render(app.sale);
}
// One line, five parts (and the night's settlement when it needs someone): a part that is not well says what is wrong, in the cashier's words
// (the clock is "relógio do caixa": sales still go through, it is never a refusal).
function showHealth(health) {
  const words = {
    bank: (h) => (h.ok ? 'Banco ✓' : 'Banco: sem conexão (faturas vão para a fila)'),
    clock: (h) => {
      if (h.ok) return 'Relógio ✓';
      const s = Math.abs(h.offset_s);
      const amount = s >= 120 ? Math.round(s / 60) + ' min' : s + ' s';
      return 'Relógio do caixa ' + amount + (h.offset_s > 0 ? ' atrasado' : ' adiantado') + ' em relação ao banco: acerte a hora';
    },
    disk: (h) => (h.ok ? 'Disco ✓' : 'Disco cheio: novas vendas recusadas até liberar espaço'),
    // The service's detail is English (the operator log's): the cashier gets what to do.
    printer: (h) => (h.ok ? 'Impressora ✓' : /stuck/.test(h.message)
      ? 'Impressora parada: verifique papel, tampa e cabo'
      : 'Impressora com falha: verifique a impressora e imprima a 2ª via em Vendas de hoje'),
    // The bank's webhook refused: payments are still seen, by polling, a few seconds later.
    webhook: (h) => (h.ok ? 'Avisos do banco ✓' : 'Avisos do banco recusados: pagamentos vistos por consulta (mais lento)'),
    // The nightly settlement: shown only when a night did not settle its day,
    // and money the bank took back outside Balcão, until a night has run since.
    settlement: (h) => (h.ok ? 'Fechamento ✓'
      : h.bank_reversed > 0 ? 'Estornado no banco: ' + money(h.bank_reversed) + ' — o fechamento da noite aponta'
      : /did not run/.test(h.message) ? 'Fechamento de ontem não rodou: avise o responsável'
      : 'Fechamento da noite falhou: avise o responsável'),
  };
  $$('#health [data-part]').forEach((el) => {
    const part = health[el.dataset.part];
    if (!part) return;
    el.dataset.ok = String(part.ok);
    if (el.dataset.part === 'settlement') el.hidden = part.ok;
    el.textContent = words[el.dataset.part](part);
    el.title = part.message;
  });
}
setInterval(status, 2000);
renderAmount();
