// The customer's payment page (docs/terminal.md, "Paying by card on the customer's phone";
// docs/adr/0009-card-on-the-customer-phone.md). Opened from the QR on the touchscreen at
// /pay/<session uuid>: it reads the session's public facts from the server that served it
// (GET /pay/<uuid>/session: store, amount, installments, funding types, expiry, the bank's
// purchase URL, this phone's address as that server saw it), asks for the card with the
// standard autofill tokens, and POSTs the purchase itself straight to the bank with this
// device's user agent, language, timezone and screen. The card never goes to the store.
// The page's words: each one [pt-BR, en-US], side by side so that no word lacks its other
// language. PAY_TEXT is them by language, as the page reads them; a global so that the browser
// test's language check reads this one dictionary (tests/terminal/browser/screen_check.js).
var PAY_WORDS = {
  // the form
  title: ['Pagamento com cartão', 'Card payment'], funding: ['Pagar no', 'Pay by'], credit: ['Crédito', 'Credit'],
  debit: ['Débito', 'Debit'], installments: ['Parcelas', 'Installments'], card: ['Cartão', 'Card'],
  number: ['Número do cartão', 'Card number'], exp: ['Validade (MM/AA)', 'Expiry (MM/YY)'], expHint: ['MM/AA', 'MM/YY'],
  csc: ['Código de segurança', 'Security code'], name: ['Nome impresso no cartão', 'Name on the card'],
  you: ['Seus dados para o seu banco confirmar a compra', 'Your details, for your bank to confirm the purchase'],
  email: ['E-mail', 'E-mail'], tel: ['Celular com DDD', 'Mobile phone with area code'],
  street: ['Endereço de cobrança', 'Billing address'], city: ['Cidade', 'City'], state: ['UF', 'State'],
  zip: ['CEP', 'Postal code (CEP)'], country: ['País', 'Country'],
  direct: ['Os dados do cartão vão direto do seu celular para o banco; o caixa da loja não os recebe.',
           'Your card goes straight from your phone to the bank; the store\'s till never receives it.'],
  // the amount and the link's time
  pay: ['Pagar ', 'Pay '], once: ['à vista', 'in full'],
  times: [function (n, each) { return n + 'x de ' + each + ' sem juros'; },
          function (n, each) { return n + ' × ' + each + ' (no interest)'; }],
  left: [function (t) { return 'Este link de pagamento expira em ' + t; },
         function (t) { return 'This payment link expires in ' + t; }],
  expired: ['Este link de pagamento expirou. Peça um novo QR ao caixa.',
            'This payment link has expired. Ask the cashier for a new QR code.'],
  // what the page is doing, and how it ended
  loading: ['Carregando…', 'Loading…'], sending: ['Enviando ao seu banco…', 'Sending to your bank…'],
  unknown: ['Este link de pagamento não é (mais) válido. Peça um novo QR ao caixa.',
            'This payment link is not valid (any more). Ask the cashier for a new QR code.'],
  offline: ['Não foi possível falar com a loja. Verifique a conexão e tente de novo.',
            'Could not reach the store. Check your connection and try again.'],
  approved: ['Pagamento aprovado. Pode mostrar esta tela ao caixa.', 'Payment approved. You can show this screen to the cashier.'],
  challenge: ['Seu banco quer confirmar que é você: abrindo a página dele…', 'Your bank wants to confirm it is you: opening its page…'],
  denied: ['O seu banco recusou o pagamento.', 'Your bank declined the payment.'],
  bank: ['Não foi possível falar com o banco. Tente de novo.', 'The bank could not be reached. Try again.'],
  // the fields' checks
  luhn: ['Este número de cartão não é válido (confira os dígitos).', 'This card number is not valid (check the digits).'],
  short: ['Digite o número completo do cartão.', 'Type the whole card number.'],
  expBad: ['Use MM/AA, uma data que ainda não passou.', 'Use MM/YY, a date not in the past.'],
  cscBad: ['3 ou 4 dígitos (4 no American Express).', '3 or 4 digits (4 on American Express).'],
  nameBad: ['O nome como está impresso no cartão.', 'The name as printed on the card.'],
  emailBad: ['Um e-mail (nome@exemplo.com).', 'An e-mail address (name@example.com).'],
  telBad: ['DDD e número, 10 ou 11 dígitos.', 'Area code and number, 10 or 11 digits.'],
  streetBad: ['Rua e número.', 'Street and number.'], cityBad: ['A sua cidade.', 'Your city.'],
  stateBad: ['A sigla do estado (SP, RJ…).', 'The two letters of the state (SP, RJ…).'],
  zipBad: ['8 dígitos (01310-100).', '8 digits (01310-100).'], countryBad: ['O país (BR).', 'The country (BR).'],
  fix: ['Confira os campos destacados.', 'Check the highlighted fields.']
};
var PAY_TEXT = { 'pt-BR': {}, 'en-US': {} };
Object.keys(PAY_WORDS).forEach(function (key) {
  PAY_TEXT['pt-BR'][key] = PAY_WORDS[key][0];
  PAY_TEXT['en-US'][key] = PAY_WORDS[key][1];
});
(function () {
  'use strict';
  var en = /^en/i.test(navigator.language || '');
  var T = PAY_TEXT[en ? 'en-US' : 'pt-BR'];
  var $ = function (id) { return document.getElementById(id); };
  var uuid = (location.pathname.match(/^\/pay\/([0-9a-f]{16,64})\/?$/) || [])[1];
  var facts = null, skew = 0, timer = 0, sent = false;

  function money(cents) {
    // Integer cents to text: no floating point on money.
    var reais = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, en ? ',' : '.');
    return 'R$ ' + reais + (en ? '.' : ',') + ('0' + (cents % 100)).slice(-2);
  }
  function digits(s) { return (s || '').replace(/\D/g, ''); }
  function say(text, kind) { var s = $('status'); s.textContent = text; s.className = 'status ' + (kind || ''); }
  function translate() {
    document.documentElement.lang = en ? 'en-US' : 'pt-BR';
    document.title = T.title;
    var all = document.querySelectorAll('[data-t]');
    for (var i = 0; i < all.length; i++) all[i].textContent = T[all[i].getAttribute('data-t')];
    var hints = document.querySelectorAll('[data-t-placeholder]');
    for (var j = 0; j < hints.length; j++) hints[j].placeholder = T[hints[j].getAttribute('data-t-placeholder')];
  }
  // Luhn, and the brand by its first digits as typed.
  function luhn(n) {
    var sum = 0, alt = false;
    for (var i = n.length - 1; i >= 0; i--) {
      var d = +n[i];
      if (alt) { d *= 2; if (d > 9) d -= 9; }
      sum += d; alt = !alt;
    }
    return n.length >= 12 && sum % 10 === 0;
  }
  function brand(n) {
    if (/^(636368|438935|504175|451416|636297|5067|4576|4011|506699|509)/.test(n)) return 'Elo';
    if (/^(606282|3841)/.test(n)) return 'Hipercard';
    if (/^3[47]/.test(n)) return 'Amex';
    if (/^(30[0-5]|36|38)/.test(n)) return 'Diners';
    if (/^4/.test(n)) return 'Visa';
    if (/^(5[1-5]|2(2[2-9]|[3-6]|7[01]|720))/.test(n)) return 'Mastercard';
    if (/^(6011|65)/.test(n)) return 'Discover';
    return '';
  }
  function option() {
    var count = +$('installments').value || 1;
    for (var i = 0; i < facts.installments.length; i++) if (facts.installments[i].count === count) return facts.installments[i];
    return facts.installments[0];
  }
  function funding() { var c = document.querySelector('input[name=funding]:checked'); return c ? c.value : facts.funding[0]; }
  function refresh() {
    var debit = funding() === 'debit';
    $('installments-row').hidden = debit || facts.installments.length < 2;
    if (debit) $('installments').value = '1';
    var o = debit ? facts.installments.filter(function (x) { return x.count === 1; })[0] || facts.installments[0] : option();
    $('plan').textContent = o.count > 1 ? T.times(o.count, money(Math.ceil(o.totalAmount / o.count))) : T.once;
    $('pay').textContent = T.pay + money(o.totalAmount);
  }
  function render() {
    $('store').textContent = facts.store;
    $('amount').textContent = money(facts.amount);
    var f = $('funding');
    facts.funding.forEach(function (type, i) {
      var l = document.createElement('label'), r = document.createElement('input');
      r.type = 'radio'; r.name = 'funding'; r.value = type; r.checked = i === 0; r.onchange = refresh;
      l.appendChild(r); l.appendChild(document.createTextNode(T[type]));
      f.appendChild(l);
    });
    $('funding-set').hidden = facts.funding.length < 2;
    facts.installments.forEach(function (o) {
      var e = document.createElement('option');
      e.value = o.count;
      e.textContent = o.count > 1 ? T.times(o.count, money(Math.ceil(o.totalAmount / o.count))) : T.once + ' — ' + money(o.totalAmount);
      $('installments').appendChild(e);
    });
    $('installments').onchange = refresh;
    refresh();
    $('card').hidden = false;
    tick();
    timer = setInterval(tick, 1000);
  }
  function tick() {
    var left = Math.max(0, Math.round((facts.expires_at_ms - (Date.now() + skew)) / 1000));
    if (left <= 0 && !sent) { clearInterval(timer); $('card').hidden = true; $('countdown').textContent = ''; return say(T.expired, 'bad'); }
    var m = Math.floor(left / 60), s = left % 60;
    $('countdown').textContent = T.left(m + ':' + (s < 10 ? '0' : '') + s);
  }

  // Each field: its check as the customer types (after the first blur) and on submit.
  var checks = {
    'cc-number': function (v) { var n = digits(v); return n.length < 12 ? T.short : (luhn(n) ? '' : T.luhn); },
    'cc-exp': function (v) {
      var m = v.replace(/\s/g, '').match(/^(\d{1,2})\/?(\d{2}|\d{4})$/);
      if (!m || +m[1] < 1 || +m[1] > 12) return T.expBad;
      var y = m[2].length === 2 ? 2000 + +m[2] : +m[2], now = new Date();
      return y > now.getFullYear() || (y === now.getFullYear() && +m[1] >= now.getMonth() + 1) ? '' : T.expBad;
    },
    'cc-csc': function (v) {
      var amex = brand(digits($('cc-number').value)) === 'Amex';
      return (amex ? /^\d{4}$/ : /^\d{3,4}$/).test(v.trim()) ? '' : T.cscBad;
    },
    'cc-name': function (v) { return v.trim().length >= 2 ? '' : T.nameBad; },
    email: function (v) { return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim()) ? '' : T.emailBad; },
    tel: function (v) { var n = digits(v).replace(/^55(?=\d{10,11}$)/, ''); return n.length >= 10 && n.length <= 11 ? '' : T.telBad; },
    street: function (v) { return v.trim().length >= 3 ? '' : T.streetBad; },
    city: function (v) { return v.trim().length >= 2 ? '' : T.cityBad; },
    state: function (v) { return stateCode(v) ? '' : T.stateBad; },
    zip: function (v) { return digits(v).length === 8 ? '' : T.zipBad; },
    country: function (v) { return countryCode(v) ? '' : T.countryBad; }
  };
  var STATES = 'AC AL AP AM BA CE DF ES GO MA MT MS MG PA PB PR PE PI RJ RN RS RO RR SC SP SE TO'.split(' ');
  var NAMES = { 'SAO PAULO': 'SP', 'RIO DE JANEIRO': 'RJ', 'MINAS GERAIS': 'MG', 'PARANA': 'PR', 'BAHIA': 'BA',
    'RIO GRANDE DO SUL': 'RS', 'SANTA CATARINA': 'SC', 'PERNAMBUCO': 'PE', 'CEARA': 'CE', 'GOIAS': 'GO',
    'DISTRITO FEDERAL': 'DF', 'ESPIRITO SANTO': 'ES', 'PARA': 'PA', 'AMAZONAS': 'AM' };
  function plain(v) { return v.trim().toUpperCase().normalize('NFD').replace(/[\u0300-\u036f]/g, ''); }
  function stateCode(v) { var p = plain(v); return STATES.indexOf(p) >= 0 ? p : (NAMES[p] || ''); }
  function countryCode(v) { var p = plain(v); return p === 'BR' || p === 'BRA' || p === 'BRASIL' || p === 'BRAZIL' ? 'BRA' : ''; }
  function check(id) {
    var el = $(id), why = checks[id](el.value);
    el.setAttribute('aria-invalid', why ? 'true' : 'false');
    $(id + '-msg').textContent = why;
    return !why;
  }
  // Each checked field says what is wrong on a line of its own under it (its row's last),
  // which a screen reader reads with the field.
  Object.keys(checks).forEach(function (id) {
    var el = $(id), msg = document.createElement('p');
    msg.id = id + '-msg';
    msg.className = 'msg';
    el.closest('.row').appendChild(msg);
    el.setAttribute('aria-describedby', msg.id);
    el.addEventListener('blur', function () { if (el.value) { el.dataset.seen = 1; check(id); } });
    el.addEventListener('input', function () {
      if (id === 'cc-number') {
        var n = digits(el.value);
        $('brand').textContent = brand(n);
        if (n.length >= 13 && luhn(n)) { el.dataset.seen = 1; }
      }
      if (el.dataset.seen) check(id);
    });
  });

  function purchase() {
    var o = funding() === 'debit' ? facts.installments.filter(function (x) { return x.count === 1; })[0] : option();
    var m = $('cc-exp').value.replace(/\s/g, '').match(/^(\d{1,2})\/?(\d{2}|\d{4})$/);
    var year = m[2].length === 2 ? '20' + m[2] : m[2];
    var zip = digits($('zip').value);
    return {
      amount: o.totalAmount, installmentCount: o.count, fundingType: funding(),
      cardNumber: digits($('cc-number').value), cardExpiration: year + '-' + ('0' + m[1]).slice(-2),
      cardSecurityCode: $('cc-csc').value.trim(), holderName: $('cc-name').value.trim().replace(/\s+/g, ' '),
      holderEmail: $('email').value.trim(), holderPhone: digits($('tel').value),
      billingStreetLine1: $('street').value.trim().split('\n')[0], billingStreetLine2: '',
      billingCity: $('city').value.trim(), billingStateCode: stateCode($('state').value),
      billingZipCode: zip.slice(0, 5) + '-' + zip.slice(5), billingCountryCode: countryCode($('country').value),
      metadata: {
        userAgent: navigator.userAgent, userIp: facts.user_ip, language: navigator.language || (en ? 'en-US' : 'pt-BR'),
        timezoneOffset: new Date().getTimezoneOffset(), screen: screen.width + 'x' + screen.height
      }
    };
  }
  function wipe() { ['cc-number', 'cc-exp', 'cc-csc'].forEach(function (id) { $(id).value = ''; }); $('brand').textContent = ''; }
  function submit(e) {
    e.preventDefault();
    if (sent) return;
    var ok = true, first = null;
    Object.keys(checks).forEach(function (id) { if (!check(id)) { ok = false; first = first || $(id); } });
    if (!ok) { say(T.fix, 'bad'); return first.focus(); }
    var body = JSON.stringify(purchase());
    sent = true;
    $('pay').disabled = true;
    say(T.sending);
    fetch(facts.purchase_url, {
      method: 'POST', mode: 'cors', credentials: 'omit', referrerPolicy: 'no-referrer',
      headers: { 'Content-Type': 'application/json', 'Accept-Language': en ? 'en-US' : 'pt-BR' }, body: body
    }).then(function (r) { return r.json().then(function (j) { return { ok: r.ok, j: j }; }); })
      .then(function (a) {
        body = null;
        if (!a.ok) {
          var err = (a.j.errors || [])[0] || {};
          sent = false; $('pay').disabled = false;
          if (err.code === 'invalidSession') { wipe(); $('card').hidden = true; return say(T.expired, 'bad'); }
          return say(err.message || T.bank, 'bad');
        }
        wipe();
        // The box has no webhook for card purchases: tell it to ask the bank now (keepalive:
        // the 3-D Secure page may take this one's place at once).
        fetch('/pay/' + uuid + '/answered', {
          method: 'POST', keepalive: true, credentials: 'omit', headers: { 'Content-Type': 'application/json' }, body: '{}'
        }).catch(function () {});
        var p = a.j.purchase || {};
        if (p.status === 'pending' && p.challengeUrl) { say(T.challenge); location.assign(p.challengeUrl); return; }
        $('card').hidden = true;
        clearInterval(timer);
        $('countdown').textContent = '';
        if (p.status === 'denied' || p.status === 'failed' || p.status === 'canceled') return say(T.denied, 'bad');
        say(T.approved, 'ok');
      })
      .catch(function () { body = null; sent = false; $('pay').disabled = false; say(T.bank, 'bad'); });
  }

  translate();
  $('card').addEventListener('submit', submit);
  if (!uuid) return say(T.unknown, 'bad');
  say(T.loading);
  fetch('/pay/' + uuid + '/session', { credentials: 'omit', headers: { Accept: 'application/json' } })
    .then(function (r) { if (!r.ok) throw r.status; return r.json(); })
    .then(function (j) { facts = j; skew = j.now_ms - Date.now(); say(''); render(); })
    .catch(function (status) { say(typeof status === 'number' ? T.unknown : T.offline, 'bad'); });
})();
