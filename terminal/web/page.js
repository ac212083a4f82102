// What every script of the touchscreen shares: $ and $$, the page's state (`app`), its one way
// to the service (api(), and tell() for a refusal) and the switch between screens (show()).
// Nothing works before an operator logs in (session.js); the session is the service's HttpOnly
// cookie, so the page keeps no secret of its own: no PIN, token or card in storage, the URL or
// a variable after its request. Any 401 means the session is gone (idle timeout, logout,
// service restart): api() goes back to the login screen.
'use strict';

const $ = (sel) => document.querySelector(sel);
const $$ = (sel) => Array.from(document.querySelectorAll(sel));

const app = { cents: 0, sale: null, online: true, sandbox: false, maxInstallments: 12, minInstallment: 500,
              challenge: true, offlineCards: false,
              clockOffset: 0, qrKey: '', busy: false,
              operator: null,  // { name, role } while logged in
              idleTimeoutS: 0, lastActivity: Date.now() };
// A sale in one of these states is done: the screen no longer watches it.
const FINAL = new Set(['paid', 'refunded', 'voided']);

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
