// The supervisor's queue screen ("Fila", supervisors only): what waits for the bank — queued
// requests (an invoice, a cancel, a refund) and the sealed cards of offline card sales — in
// words: what it is, for which sale and how much, how old, and what happens next; the money at
// risk; "Tentar de novo" / "Descartar", each asking for the reason in the app's dialog
// (approval.js). An empty queue says so.
'use strict';

function ageText(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 120 ? s + ' s' : s < 7200 ? Math.round(s / 60) + ' min' : Math.round(s / 3600) + ' h';
}

// What a queued item is, from its kind ("invoice.create", "merchant-purchase.reverse", "offline card 4242…").
function queueWhat(item) {
  if (item.kind === 'card') return 'Venda de cartão sem conexão (' + item.what.replace(/^offline card /, '') + ')';
  const words = {
    'invoice.create': 'Emitir Pix com vencimento', 'invoice.cancel': 'Cancelar Pix com vencimento',
    'invoice.reverse': 'Estornar Pix com vencimento', 'merchant-purchase.reverse': 'Estornar cartão',
    'deposit.reverse': 'Estornar Pix', 'event.ack': 'Confirmar aviso do banco',
  };
  return words[item.what] || 'Pedido ao banco';
}
// What happens next to it, from its state.
function queueNext(item) {
  const words = {
    pending: 'Será enviado ao banco quando a conexão voltar', inflight: 'Sendo enviado ao banco agora',
    unknown: 'Talvez já tenha chegado ao banco: será conferido antes de reenviar',
    failed: 'O banco recusou: tente de novo ou descarte', dead: 'Desistiu após muitas tentativas: tente de novo ou descarte',
    sealed: 'Cartão guardado cifrado: será enviado ao banco quando a conexão voltar',
    forwarding: 'Cartão sendo enviado ao banco',
  };
  return words[item.state] || item.state;
}

async function loadQueue() {
  const answer = await api('GET', '/api/queue');
  const body = $('#queue-table tbody');
  body.innerHTML = '';
  if (!answer.ok) return tell(answer, $('#queue-error'));
  $('#queue-error').textContent = '';
  const items = answer.json.items;
  $('#queue-at-risk').textContent = items.length ? '— ' + money(answer.json.amount_at_risk) + ' em risco' : '';
  $('#queue-table').hidden = items.length === 0;
  $('#queue-empty').hidden = items.length !== 0;
  for (const item of items) {
    const tr = document.createElement('tr');
    tr.dataset.id = item.id;
    const words = queueWhat(item);
    for (const text of [words, item.sale_id, money(item.amount), ageText(item.age_ms), queueNext(item)]) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.appendChild(td);
    }
    const actions = document.createElement('td');
    for (const [label, action] of [['Tentar de novo', 'retry'], ['Descartar', 'drop']]) {
      const b = document.createElement('button');
      b.textContent = label;
      b.className = 'secondary ' + action;
      b.addEventListener('click', () => askQueueAction(action, item, words + ' — ' + money(item.amount), loadQueue));
      actions.appendChild(b);
    }
    tr.appendChild(actions);
    body.appendChild(tr);
  }
}
$('#nav-queue').addEventListener('click', () => { show('queue'); loadQueue(); });
