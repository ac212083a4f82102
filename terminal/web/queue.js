// The supervisor's queue screen ("Fila", supervisors only): what waits for the bank — queued
// requests (an invoice, a cancel, a refund) and the sealed cards of offline card sales — with
// its age, state and amount, the money at risk, and "Tentar de novo" / "Descartar" (each asks
// for the reason; a dropped card's sale is voided and the merchant collects another way).
'use strict';

function ageText(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 120 ? s + ' s' : s < 7200 ? Math.round(s / 60) + ' min' : Math.round(s / 3600) + ' h';
}

async function loadQueue() {
  const answer = await api('GET', '/api/queue');
  const body = $('#queue-table tbody');
  body.innerHTML = '';
  if (!answer.ok) return tell(answer, $('#queue-error'));
  $('#queue-error').textContent = '';
  $('#queue-at-risk').textContent = '— ' + money(answer.json.amount_at_risk) + ' em risco';
  for (const item of answer.json.items) {
    const tr = document.createElement('tr');
    tr.dataset.id = item.id;
    for (const text of [item.what, item.sale_id, money(item.amount), ageText(item.age_ms), item.state]) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.appendChild(td);
    }
    const actions = document.createElement('td');
    for (const [label, action] of [['Tentar de novo', 'retry'], ['Descartar', 'drop']]) {
      const b = document.createElement('button');
      b.textContent = label;
      b.className = 'secondary ' + action;
      b.addEventListener('click', async () => {
        const reason = prompt('Motivo');
        if (!reason) return;
        const path = '/api/queue/' + (item.kind === 'card' ? 'card/' : '') + item.id + '/' + action;
        const done = await api('POST', path, { reason });
        if (!done.ok) return tell(done, $('#queue-error'));
        loadQueue();
      });
      actions.appendChild(b);
    }
    tr.appendChild(actions);
    body.appendChild(tr);
  }
}
$('#nav-queue').addEventListener('click', () => { show('queue'); loadQueue(); });
