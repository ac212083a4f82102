// Today's sales ("Vendas de hoje"): the list with each sale's state and the day's totals, and
// what can be done to a sale from it: refund, cancel, approve a cash register's refund (each
// through the dialog of approval.js), print its receipt again ("2ª via"), open it on screen.
'use strict';

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
