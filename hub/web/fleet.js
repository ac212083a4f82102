// The hub's fleet page: sign in, then the fleet every 10 s (GET /fleet/api/fleet): stores, lanes,
// their health from the heartbeats, today's totals; silent lanes and rewritten journals flagged.
// Written in pt-BR; i18n.js shows it in en-US when the hub serves the page as <html lang="en-US">
// (numbers, money and dates are written here as the page's language writes them).
'use strict';

const $ = (id) => document.getElementById(id);
const LANG = document.documentElement.lang === 'en-US' ? 'en-US' : 'pt-BR';
const MARKS = LANG === 'en-US' ? { group: ',', decimal: '.' } : { group: '.', decimal: ',' };

function brl(cents) {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const reais = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, MARKS.group);
  return `${sign}R$ ${reais}${MARKS.decimal}${String(abs % 100).padStart(2, '0')}`;
}

function megabytes(bytes) {
  return bytes < 0 ? '—' : `${Math.round(bytes / 1048576).toLocaleString(LANG)} MB`;
}

function when(iso) {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(LANG);
}

// A health item of the box in the page's words; the box's own (English) words as its tooltip.
function health(row, seen, ok, message, good, bad) {
  const td = cell(row, !seen ? '—' : (ok ? good : bad), !seen ? '' : (ok ? 'ok' : 'bad'));
  if (seen && message) td.title = message;
  return td;
}

function cell(row, text, className) {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  row.appendChild(td);
  return td;
}

function flag(td, text) {
  const span = document.createElement('span');
  span.className = 'flag';
  span.textContent = text;
  td.appendChild(document.createTextNode(' '));
  td.appendChild(span);
}

const COLUMNS = ['Caixa', 'Estado', 'Versão', 'Relógio', 'Disco', 'Fila', 'Impressora', 'Banco', 'Última venda',
  'Vendas hoje', 'Recebido hoje', 'Diário'];

function laneRow(lane) {
  const row = document.createElement('tr');
  row.dataset.terminal = lane.terminal;
  if (lane.silent) row.classList.add('silent');
  if (lane.tampered) row.classList.add('tampered');
  cell(row, lane.terminal);
  const state = cell(row, lane.silent ? '' : 'no ar', lane.silent ? 'bad' : 'ok');
  if (lane.silent) flag(state, lane.seen ? `SILENCIOSO desde ${when(lane.last_seen)}` : 'NUNCA VISTO');
  cell(row, lane.version || '—');
  if (!lane.seen) {
    cell(row, '—', 'num');
    cell(row, '—', 'num');
    cell(row, '—', 'num');
  } else {
    cell(row, `${lane.clock_offset_s} s`, lane.clock_ok ? 'num ok' : 'num bad').title = lane.clock;
    cell(row, megabytes(lane.disk_free_bytes), lane.disk_ok ? 'num ok' : 'num bad').title = lane.disk;
    cell(row, lane.queue_depth ? `${lane.queue_depth} (${lane.queue_oldest_age_s} s)` : '0',
      lane.queue_depth ? 'num bad' : 'num');
  }
  health(row, lane.seen, lane.printer_ok, lane.printer, 'funcionando', 'com falha');
  health(row, lane.seen, lane.bank_ok, lane.bank, 'conectado', 'sem conexão');
  cell(row, when(lane.last_sale_at));
  cell(row, String(lane.today.sales), 'num');
  cell(row, brl(lane.today.collected), 'num');
  const chain = cell(row, lane.tampered ? '' : 'íntegro', lane.tampered ? 'bad' : 'ok');
  if (lane.tampered) flag(chain, `ADULTERADO: ${lane.chain}`);
  return row;
}

function storeCard(store) {
  const card = document.createElement('section');
  card.className = 'card store';
  card.dataset.store = store.store;
  const title = document.createElement('h2');
  title.textContent = `Loja ${store.store} `;
  const today = document.createElement('span');
  today.className = 'store-today';
  today.textContent = `· ${store.today.sales} ${store.today.sales === 1 ? 'venda' : 'vendas'}, ` +
    `${brl(store.today.collected)} hoje`;
  title.appendChild(today);
  card.appendChild(title);
  const scroller = document.createElement('div');
  scroller.className = 'lanes';
  const table = document.createElement('table');
  const head = table.createTHead().insertRow();
  for (const name of COLUMNS) {
    const th = document.createElement('th');
    th.textContent = name;
    head.appendChild(th);
  }
  const body = table.createTBody();
  for (const lane of store.lanes) body.appendChild(laneRow(lane));
  scroller.appendChild(table);
  card.appendChild(scroller);
  return card;
}

function show(fleet) {
  $('today-sales').textContent = String(fleet.today.sales);
  $('today-collected').textContent = brl(fleet.today.collected);
  $('lane-count').textContent = String(fleet.lanes);
  $('updated').textContent = when(fleet.now);
  $('user-shown').textContent = fleet.user;
  $('silent-pill').textContent = fleet.silent ? `${fleet.silent} silencioso(s)` : 'todos no ar';
  $('silent-pill').dataset.ok = String(fleet.silent === 0);
  $('tampered-pill').textContent = fleet.tampered ? `${fleet.tampered} diário(s) adulterado(s)` : 'diários íntegros';
  $('tampered-pill').dataset.ok = String(fleet.tampered === 0);
  $('stores').replaceChildren(...fleet.stores.map(storeCard));
}

function signedOut() {
  document.body.classList.add('logged-out');
}

async function refresh() {
  const answer = await fetch('api/fleet', { credentials: 'same-origin' }).catch(() => null);
  if (answer && answer.status === 401) return signedOut();
  if (!answer || !answer.ok) {
    $('fleet-error').textContent = 'O hub não respondeu; tentando de novo.';
    $('fleet-error').hidden = false;
    return;
  }
  $('fleet-error').hidden = true;
  document.body.classList.remove('logged-out');
  show(await answer.json());
}

async function logIn(event) {
  event.preventDefault();
  const answer = await fetch('api/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: $('name').value, password: $('password').value }),
  }).catch(() => null);
  if (!answer || !answer.ok) {
    const body = answer ? await answer.json().catch(() => ({})) : {};
    $('login-error').textContent = answer && answer.status === 429
      ? 'Muitas tentativas: espere 15 minutos.'
      : (answer ? 'Usuário ou senha errados.' : 'O hub não respondeu.');
    $('login-error').title = body.error ? body.error.rule : '';
    $('login-error').hidden = false;
    return;
  }
  $('login-error').hidden = true;
  $('password').value = '';
  const who = await answer.json();
  $('user-shown').textContent = who.name;
  // The user's language, chosen in another browser: the page turns to it.
  if (who.language && who.language !== LANG) return window.location.reload();
  await refresh();
}

async function chooseLanguage(language) {
  const answer = await fetch('api/language', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ language }),
  }).catch(() => null);
  if (answer && answer.ok && language !== LANG) window.location.reload();
}

async function logOut() {
  await fetch('api/logout', { method: 'POST' }).catch(() => null);
  signedOut();
}

document.addEventListener('DOMContentLoaded', () => {
  $('login').addEventListener('submit', logIn);
  $('logout').addEventListener('click', logOut);
  document.querySelectorAll('#language-switch button').forEach((button) => {
    button.setAttribute('aria-pressed', String(button.dataset.language === LANG));
    button.addEventListener('click', () => chooseLanguage(button.dataset.language));
  });
  refresh();
  setInterval(() => { if (!document.body.classList.contains('logged-out')) refresh(); }, 10000);
});
