// The header's connection pill and the health line under it (GET /api/status, every 2 s while
// someone is logged in): bank, clock, disk, printer and the bank's webhook in the cashier's
// words, the outbox depth, unprinted receipts, a store with no name or CNPJ; and the settings the
// sale screens follow (installments, 3-D Secure, offline cards, the sandbox, the box's clock).
'use strict';

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
