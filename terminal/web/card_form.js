// The card form typed at the till (keyed entry, the exception a store turns on; or the
// provisional card sale while offline): number, expiry, code, holder, credit/debit and
// installments, and with 3-D Secure on the customer's contact and billing address. The card is
// read from the form, sent once to POST /api/sales/{id}/card (app.js act()) and the form
// cleared: the cashier never sees it again.
'use strict';

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
