// Canceling a sale and refunding one (the sale on screen, app.js, and today's sales,
// sales_list.js, open it): a reason, the amount of a partial refund, and when money goes back (a
// refund, or canceling a sale that collected something) a supervisor's name and PIN typed on
// this dialog's keypad, sent with the request as "approval". The session's operator is the one
// who asks.
'use strict';

// --- cancel / refund: reason, amount, and a supervisor's approval when money goes back ---
let pendingAction = null;  // { kind: 'cancel' | 'refund', id, what, approval: bool }
let sendingAction = false;
const approvalPad = PinPad($('#approval-pad'), sendAction);

function showApproval(action) {
  $('#action-title').textContent = action.approval ? 'Aprovação do supervisor' : action.what;
  $('#action-summary').textContent = action.what + ', pedido por ' + app.operator.name + ' ('
    + (ROLES[app.operator.role] || app.operator.role) + ')';
  $('#action-summary').hidden = !action.approval;
  $('#approval').hidden = !action.approval;
  $('#action-confirm').hidden = action.approval;  // the keypad's "Aprovar" sends it
}
function askAction(kind, sale) {
  if (!app.operator) return;
  // 'approve-reversal': a cash register asked for the money back (docs/integration.md).
  const what = kind === 'approve-reversal' ? 'Estorno pedido pelo caixa ' + sale.register + ': ' + money(sale.reversal_requested)
    : (kind === 'refund' ? 'Estornar ' : 'Cancelar ') + money(kind === 'refund' ? sale.collected : sale.amount);
  pendingAction = { kind, id: sale.id, what, approval: kind !== 'cancel' || sale.collected > 0 };
  showApproval(pendingAction);
  $('#refund-amount-label').hidden = kind !== 'refund';
  $('#refund-amount').value = kind === 'refund' ? money(sale.collected).replace('R$ ', '') : '';
  $('#action-error').textContent = '';
  $('#action-reason').value = '';
  $('#approval-supervisor').value = '';
  approvalPad.clear();
  $('#action-dialog').showModal();
  $('#action-reason').focus();
}
// The supervisor's queue (queue.js): retry or drop an item, with the reason typed here.
// `item`: a row of GET /api/queue; `words`: what the row says it is.
function askQueueAction(action, item, words, done) {
  if (!app.operator) return;
  const what = (action === 'retry' ? 'Tentar de novo: ' : 'Descartar: ') + words;
  pendingAction = { kind: action, id: item.id, what, approval: false, done,
                    path: '/api/queue/' + (item.kind === 'card' ? 'card/' : '') + item.id + '/' + action };
  showApproval(pendingAction);
  $('#refund-amount-label').hidden = true;
  $('#refund-amount').value = '';
  $('#action-error').textContent = '';
  $('#action-reason').value = '';
  $('#action-dialog').showModal();
  $('#action-reason').focus();
}
function refuse(text, focus) {
  $('#action-error').textContent = text;
  if (focus) focus.focus();
}

// `pin`: the supervisor's, from the keypad ("" when no approval is asked).
async function sendAction(pin) {
  const action = pendingAction;
  if (!action || sendingAction) return;
  approvalPad.clear();  // after every attempt, sent or not
  const body = { reason: $('#action-reason').value.trim() };
  if (body.reason.length < 3) return refuse('Motivo: descreva o motivo (3 letras ou mais)', $('#action-reason'));
  if (action.kind === 'refund') {
    const cents = parseMoney($('#refund-amount').value);
    if (cents === null || cents <= 0) return refuse('Valor: use ' + money(1250).replace('R$ ', ''), $('#refund-amount'));
    body.amount = cents;
  }
  if (action.approval) {
    const supervisor = $('#approval-supervisor').value.trim();
    if (!supervisor) return refuse('Supervisor: digite o nome do supervisor', $('#approval-supervisor'));
    if (!pin) return refuse('PIN do supervisor: digite no teclado', approvalPad);
    body.approval = { supervisor, pin };
  }
  sendingAction = true;
  $('#action-error').textContent = '';
  const answer = await api('POST', action.path || '/api/sales/' + action.id + '/' + action.kind, body);
  sendingAction = false;
  if (answer.status === 401) return;  // back at the login already
  if (!answer.ok) {
    const e = answer.json && answer.json.error;
    if (e && e.field === 'approval' && !action.approval) {  // the service knows better what went back
      action.approval = true;
      showApproval(action);
    }
    return refuse(errorText(answer), action.approval ? approvalPad : null);
  }
  $('#action-dialog').close();
  if (action.done) return action.done();
  if ($('#screen-sales').hidden) {
    if (app.sale && app.sale.id === action.id) render(answer.json);
  } else {
    if (app.sale && app.sale.id === action.id) app.sale = answer.json;
    loadSales();  // stay on the list
  }
}
$('#action-form').addEventListener('submit', (e) => {
  e.preventDefault();
  if (pendingAction && pendingAction.approval) approvalPad.focus();  // Enter in a field: on to the PIN
  else sendAction('');
});
$('#action-back').addEventListener('click', () => $('#action-dialog').close());
$('#action-dialog').addEventListener('close', () => {
  approvalPad.clear();
  pendingAction = null;
});
$$('.cancel-sale').forEach((b) => b.addEventListener('click', () => app.sale && askAction('cancel', app.sale)));
