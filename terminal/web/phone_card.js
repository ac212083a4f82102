// The card paid on the customer's own phone (docs/terminal.md, "Paying by card on the customer's
// phone"; docs/adr/0009-card-on-the-customer-phone.md). While a sale waits for the card the
// card screen shows the QR of the phone's payment page (GET /api/sales/{id}/phone-link), "waiting
// for the customer's phone" and the session's countdown; the customer types the card on their
// phone, which posts it to the bank. The box follows the outcome (paid, declined with a new QR
// one tap away, expired back to the method choice) through the sale view as before. Keyed entry
// is the exception: its form shows only when the store turned `card.keyed_entry` on.
// Loaded after app.js: wraps its render() and adds, never reformats.
'use strict';

(function () {
  // Written in pt-BR like the rest of the page: i18n.js shows these in English (one dictionary).
  const T = {
    title: 'Pagamento no celular do cliente', wait: 'Aguardando o celular do cliente…',
    hint: 'O cliente lê o QR com a câmera do celular e digita o cartão lá: o cartão não passa pelo caixa.',
    left: 'Expira em ', keyed: 'Cartão digitado (exceção)',
    keyedWhy: 'Só para cliente sem celular ou venda por telefone: cartão digitado é a venda de maior risco e precisa do supervisor.',
    challengeTitle: 'Cliente confirmando no celular (3-D Secure)',
    challengeHint: 'O banco do cliente está confirmando a compra no celular dele.',
    qrAlt: 'QR code do pagamento com cartão no celular do cliente',
    supervisor: 'Supervisor', pin: 'PIN do supervisor',
  };
  const phone = { key: '', deadline: 0, keyed: false };

  const panel = document.createElement('div');
  panel.id = 'phone-pay';
  panel.className = 'phone-pay';
  panel.innerHTML = '<h2 id="phone-title"></h2><img id="phone-qr" width="240" height="240">' +
    '<p id="phone-wait" role="status" aria-live="polite"></p><p id="phone-countdown" class="countdown" role="timer"></p>' +
    '<p id="phone-url" class="phone-url"></p><p id="phone-hint"></p>';
  const keyedTitle = document.createElement('h3');
  keyedTitle.id = 'keyed-title';
  const keyedWhy = document.createElement('div');
  keyedWhy.id = 'keyed-why';
  const form = document.getElementById('card-form');
  form.parentNode.insertBefore(panel, form);
  // The way out stays under the QR, above the keyed form a store may turn on: on screen.
  form.parentNode.insertBefore(document.querySelector('#screen-card .cancel-sale').parentNode, form);
  form.parentNode.insertBefore(keyedTitle, form);
  form.parentNode.insertBefore(keyedWhy, form);
  document.getElementById('phone-title').textContent = T.title;
  document.getElementById('phone-wait').textContent = T.wait;
  document.getElementById('phone-hint').textContent = T.hint;
  document.getElementById('phone-qr').alt = T.qrAlt;
  keyedTitle.textContent = T.keyed;
  keyedWhy.innerHTML = '<p></p><div class="row"><label><span></span> <input id="keyed-supervisor" autocomplete="off" ' +
    'maxlength="40"></label><label><span></span> <input id="keyed-pin" type="password" inputmode="numeric" ' +
    'autocomplete="off" maxlength="12"></label></div>';
  keyedWhy.querySelector('p').textContent = T.keyedWhy;
  keyedWhy.querySelectorAll('span')[0].textContent = T.supervisor;
  keyedWhy.querySelectorAll('span')[1].textContent = T.pin;

  function showKeyed(on) {
    phone.keyed = on;
    form.hidden = !on;
    keyedTitle.hidden = !on;
    keyedWhy.hidden = !on;
  }
  showKeyed(false);

  async function load(view) {
    const key = view.id + '/' + view.link;
    if (phone.key === key) return;
    phone.key = key;
    const [link, status] = await Promise.all([
      api('GET', '/api/sales/' + view.id + '/phone-link', undefined, true),
      api('GET', '/api/status', undefined, true),
    ]);
    if (status.ok) showKeyed(!!status.json.keyed_entry);
    if (!link.ok || phone.key !== key) return;
    document.getElementById('phone-qr').src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(link.json.qr_svg);
    document.getElementById('phone-url').textContent = link.json.url;
    phone.deadline = link.json.deadline_ms;
    tick();
  }
  function tick() {
    const el = document.getElementById('phone-countdown');
    if (!app.sale || app.sale.status !== 'enter-card' || !phone.deadline) { el.textContent = ''; return; }
    const left = Math.max(0, Math.round((phone.deadline - (Date.now() + app.clockOffset)) / 1000));
    el.textContent = T.left + Math.floor(left / 60) + ':' + String(left % 60).padStart(2, '0');
  }
  setInterval(tick, 1000);

  // The approval card_form.js sends with a keyed card; the PIN leaves the page with that one request.
  window.keyedApproval = function () {
    const supervisor = document.getElementById('keyed-supervisor');
    const pin = document.getElementById('keyed-pin');
    const approval = { approval: { supervisor: supervisor.value.trim(), pin: pin.value } };
    pin.value = '';
    return approval;
  };

  const appRender = render;
  // eslint-disable-next-line no-global-assign
  render = function (view) {
    appRender(view);
    if (!view) return;
    if (view.status === 'enter-card') {
      panel.hidden = false;
      load(view);
    } else {
      phone.key = '';
    }
    // A challenge the phone opened itself: nothing to scan on the touchscreen.
    if (view.status === 'challenge' && !view.link) {
      document.getElementById('qr-image').hidden = true;
      document.getElementById('qr-title').textContent = T.challengeTitle;
      document.getElementById('qr-hint').textContent = T.challengeHint;
      document.getElementById('qr-countdown').textContent = '';
    } else {
      document.getElementById('qr-image').hidden = false;
    }
  };
})();
