// The touchscreen in the store's language (`touchscreen.language`): the page is written in
// pt-BR; with "en-US" the service serves index.html as <html lang="en-US">, and every text the
// page shows, in the HTML or set later by the scripts (screens, notices, errors, dialogs), is
// looked up here (exactly, or by pattern for texts with numbers and names) and shown in
// English. Loaded first; the other scripts stay single-language. Money is written as each
// language writes it (words.js money()); the patterns below take either form.
'use strict';

const EN_US = new Map(Object.entries({
  // header, login
  'Balcão': 'Balcão', 'Conectado': 'Connected', 'Vendas de hoje': "Today's sales", 'Nova venda': 'New sale',
  'Trocar operador': 'Switch operator', 'Entrar no caixa': 'Sign in to the till', 'Operador': 'Operator',
  'PIN': 'PIN', 'Limpar': 'Clear', 'Limpar o PIN': 'Clear the PIN', 'Entrar': 'Sign in',
  'Caixa': 'Cashier', 'Supervisor': 'Supervisor', 'SANDBOX': 'SANDBOX',
  'Sem conexão com o banco': 'No connection to the bank', 'Serviço fora do ar': 'Service down',
  'Operador ou PIN incorretos': 'Wrong operator or PIN',
  'Operador bloqueado por muitos PINs errados': 'Operator locked after too many wrong PINs',
  'Operador desativado: fale com o supervisor': 'Operator disabled: ask the supervisor',
  'Operador: digite o seu nome': 'Operator: type your name',
  'Nenhum operador ainda. No terminal do caixa, digite:': "No operator yet. In a terminal on the box, type:",
  'O PIN é pedido duas vezes no terminal. Depois, entre aqui com o nome e o PIN.':
      'The PIN is asked twice in the terminal. Then sign in here with the name and the PIN.', 'PIN: digite o seu PIN no teclado': 'PIN: type your PIN on the keypad',
  'Sessão expirada por inatividade: entre de novo para continuar.': 'Session expired after inactivity: sign in again to go on.',
  'Sessão expirada: entre de novo para continuar.': 'Session expired: sign in again to go on.',
  'O serviço não respondeu ao sair: a sessão anterior acaba sozinha por inatividade.':
      'The service did not answer the sign-out: the previous session ends by itself when idle.',
  // the health line (health.js showHealth)
  'Banco': 'Bank', 'Relógio': 'Clock', 'Disco': 'Disk', 'Impressora': 'Printer',
  'Banco ✓': 'Bank ✓', 'Relógio ✓': 'Clock ✓', 'Disco ✓': 'Disk ✓', 'Impressora ✓': 'Printer ✓',
  'Banco: sem conexão (faturas vão para a fila)': 'Bank: no connection (invoices are queued)',
  'Disco cheio: novas vendas recusadas até liberar espaço': 'Disk full: new sales refused until space is freed',
  'Avisos do banco': 'Bank notices', 'Avisos do banco ✓': 'Bank notices ✓',
  'Avisos do banco recusados: pagamentos vistos por consulta (mais lento)':
      'Bank notices refused: payments seen by polling (slower)',
  'Fechamento': 'Settlement', 'Fechamento ✓': 'Settlement ✓',
  'Fechamento de ontem não rodou: avise o responsável': "Yesterday's settlement did not run: tell the person in charge",
  'Fechamento da noite falhou: avise o responsável': "The night's settlement failed: tell the person in charge",
  // amount, method
  'Apagar': 'Delete', 'Cobrar': 'Charge', 'Cartão': 'Card', 'Pix': 'Pix', 'Boleto': 'Invoice',
  'Cartão e Pix precisam do banco agora e a loja está sem conexão: o boleto pode ser emitido depois (fica na fila).':
      'Card and Pix need the bank now and the store is offline: an invoice can be issued later (it is queued).',
  'Sem conexão: o cartão é aceito como venda provisória e enviado ao banco quando a conexão voltar; Pix precisa do banco agora.':
      'Offline: a card is taken as a provisional sale and sent to the bank when the connection is back; Pix needs the bank now.',
  'Nome do cliente': "Customer's name", 'CPF ou CNPJ': 'CPF or CNPJ', 'Emitir boleto': 'Issue invoice',
  'Tentar de novo': 'Try again', 'Cancelar venda': 'Cancel sale',
  // card form
  'Número do cartão': 'Card number', 'Validade (MM/AA)': 'Expiry (MM/YY)', 'MM/AA': 'MM/YY',
  'Código de segurança': 'Security code', 'Nome impresso no cartão': 'Name on the card', 'Tipo': 'Type',
  'Crédito': 'Credit', 'Débito': 'Debit', 'Parcelas': 'Installments', 'À vista': 'Single payment',
  'Cliente (verificação 3-D Secure do banco)': "Customer (the bank's 3-D Secure check)", 'E-mail': 'E-mail',
  'Telefone com DDD': 'Phone with area code', 'Endereço de cobrança': 'Billing address', 'Complemento': 'Address line 2',
  'CEP': 'ZIP (CEP)', 'Cidade': 'City', 'UF': 'State', 'País': 'Country', 'Brasil': 'Brazil', 'Argentina': 'Argentina',
  'Portugal': 'Portugal', 'Estados Unidos': 'United States', 'Pagar': 'Pay',
  'Sem conexão com o banco: venda provisória. O cartão fica guardado cifrado e é enviado ao banco quando a conexão voltar.':
      'No connection to the bank: provisional sale. The card is kept encrypted and sent to the bank when the connection is back.',
  'Número do cartão: número inválido': 'Card number: invalid number', 'Validade: use MM/AA': 'Expiry: use MM/YY',
  'Código de segurança: 3 ou 4 dígitos': 'Security code: 3 or 4 digits', 'Nome no cartão: obrigatório': 'Name on the card: required',
  // working, QR, outcome
  'Falando com o banco…': 'Talking to the bank…', 'Imprimir': 'Print', 'Cliente paga depois': 'Customer pays later',
  'Simular o cliente (sandbox)': 'Play the customer (sandbox)', 'QR code': 'QR code', 'Pague com Pix': 'Pay with Pix',
  'Confirme no celular (3-D Secure)': 'Confirm on the phone (3-D Secure)',
  'Abra o app do banco e leia o QR code.': 'Open the bank app and scan the QR code.',
  'O cliente lê o QR code com o celular e confirma a compra.': 'The customer scans the QR code with the phone and confirms.',
  'O cliente paga pelo QR code (Pix) ou pelo link.': 'The customer pays by the QR code (Pix) or the link.',
  'Pago': 'Paid', 'Estornado': 'Refunded', 'Cancelada': 'Canceled', 'Na fila (sem conexão)': 'Queued (offline)',
  'Boleto em aberto': 'Invoice open', 'Imprimir 2ª via': 'Print a copy', '2ª via': 'Copy',
  '2ª via enviada para a impressora': 'Copy sent to the printer',
  'O boleto será emitido quando a conexão voltar. Entregue o comprovante provisório ao cliente.':
      'The invoice will be issued when the connection is back. Hand the provisional receipt to the customer.',
  'O cartão será enviado ao banco quando a conexão voltar. Entregue o comprovante provisório ao cliente.':
      'The card will be sent to the bank when the connection is back. Hand the provisional receipt to the customer.',
  // statuses
  'Escolhendo o meio': 'Choosing the method', 'Recusada': 'Declined', 'Aguardando cartão': 'Waiting for the card',
  'Processando': 'Processing', 'Verificação 3-D Secure': '3-D Secure check', 'Aguardando Pix': 'Waiting for Pix',
  'Boleto emitido': 'Invoice issued', 'Cancelando': 'Canceling', 'Paga': 'Paid', 'Estornando': 'Refunding',
  'Estornada': 'Refunded', 'Cartão provisório (sem conexão)': 'Provisional card (offline)',
  // today's sales, dialogs
  'Hora': 'Time', 'Valor': 'Amount', 'Meio': 'Method', 'Situação': 'Status', 'Estornar': 'Refund', 'Cancelar': 'Cancel',
  'Abrir': 'Open', 'Motivo': 'Reason', 'Valor (R$)': 'Amount (R$)', 'Supervisor: nome e PIN': 'Supervisor: name and PIN',
  'PIN do supervisor': "Supervisor's PIN", 'Aprovar': 'Approve', 'Voltar': 'Back', 'Confirmar': 'Confirm',
  'Aprovação do supervisor': "Supervisor's approval",
  'Aprovar estorno do caixa': "Approve the register's refund",
  'supervisor desativado': 'supervisor disabled', 'só um supervisor pode aprovar': 'only a supervisor can approve',
  'supervisor ou PIN incorretos': 'wrong supervisor or PIN',
  'um supervisor precisa aprovar (nome e PIN)': 'a supervisor must approve (name and PIN)',
  // the invoice: a Pix charge with a due date
  'Pix com vencimento': 'Pix with due date', 'Pix com vencimento emitido': 'Pix with due date issued',
  'Pix com vencimento em aberto': 'Pix with due date open', 'Emitir Pix com vencimento': 'Issue Pix with due date',
  'Cartão e Pix precisam do banco agora e a loja está sem conexão: o Pix com vencimento pode ser emitido depois (fica na fila).':
      'Card and Pix need the bank now and the store is offline: a Pix with due date can be issued later (it is queued).',
  'O Pix com vencimento será emitido quando a conexão voltar. Entregue o comprovante provisório ao cliente.':
      'The Pix with due date will be issued when the connection is back. Hand the provisional receipt to the customer.',
  'O cliente paga pelo QR code ou pelo código copia e cola, até o vencimento.':
      'The customer pays by the QR code or the copy-and-paste code, by the due date.',
  'Pix copia e cola': 'Pix copy-and-paste code', 'Copiar': 'Copy', 'Copiado': 'Copied',
  'Loja sem nome e CNPJ': 'Store has no name or CNPJ', 'Loja sem nome': 'Store has no name',
  'Loja sem CNPJ': 'Store has no CNPJ',
  // declines and notices (words.js NOTICES), and what to do next
  'Gerar outro Pix': 'New Pix code', 'Tentar o cartão de novo': 'Try the card again',
  'cartão recusado pelo emissor: saldo ou limite insuficiente: peça outro cartão ou ofereça Pix':
      'card declined by the issuer: insufficient funds or limit: ask for another card or offer Pix',
  'cartão recusado pelo emissor: cartão vencido: peça outro cartão ou ofereça Pix':
      'card declined by the issuer: the card has expired: ask for another card or offer Pix',
  'cartão recusado pelo emissor: cartão bloqueado: peça outro cartão ou ofereça Pix':
      'card declined by the issuer: the card is blocked: ask for another card or offer Pix',
  'cartão recusado pelo emissor, sem motivo informado: peça outro cartão ou ofereça Pix':
      'card declined by the issuer, no reason given: ask for another card or offer Pix',
  'falha na autorização do cartão: tente o cartão de novo ou ofereça Pix':
      'the card authorization failed: try the card again or offer Pix',
  'cartão não cobrado: tente o cartão de novo ou ofereça Pix': 'card not charged: try the card again or offer Pix',
  'o tempo para pagar com o cartão acabou: tente de novo': 'the time to pay by card ran out: try again',
  'o Pix expirou sem pagamento: gere outro Pix ou emita um Pix com vencimento':
      'the Pix expired unpaid: make a new Pix code or issue a Pix with due date',
  'o banco não responde, e cartão e Pix precisam dele agora (o Pix com vencimento pode ir para a fila)':
      'the bank does not answer, and card and Pix need it now (a Pix with due date can be queued)',
  'cartão precisa do banco agora e a loja está sem conexão: o Pix com vencimento pode ir para a fila':
      'card needs the bank now and the store is offline: a Pix with due date can be queued',
  'Pix precisa do banco agora e a loja está sem conexão: o Pix com vencimento pode ir para a fila':
      'Pix needs the bank now and the store is offline: a Pix with due date can be queued',
  'uma autorização ainda não confirmada só pode ser estornada por inteiro':
      'an authorization not yet confirmed can only be refunded in full',
  'o serviço não respondeu': 'the service did not answer',
  // field errors (words.js FIELDS and RULES)
  'Validade': 'Expiry', 'Nome no cartão': 'Name on the card', 'Telefone': 'Phone', 'Endereço': 'Address',
  'Cliente': 'Customer', 'Aprovação': 'Approval', 'Sessão': 'Session', 'número inválido': 'invalid number',
  'use MM/AA': 'use MM/YY', 'cartão vencido': 'expired card', '3 ou 4 dígitos': '3 or 4 digits',
  'de 2 a 26 letras': '2 to 26 letters', 'CPF ou CNPJ inválido': 'invalid CPF or CNPJ', 'de 3 a 80 letras': '3 to 80 letters',
  'obrigatório': 'required', 'descreva o motivo (3 letras ou mais)': 'describe the reason (3 letters or more)',
  // the health line
  'Impressora parada: verifique papel, tampa e cabo': 'Printer stopped: check the paper, the lid and the cable',
  'Impressora com falha: verifique a impressora e imprima a 2ª via em Vendas de hoje':
      "Printer failing: check the printer and print a copy from Today's sales",
  // the supervisor's queue in words (queue.js)
  'Fila vazia: nada esperando o banco.': 'Queue empty: nothing waits for the bank.', 'O que acontece': 'What happens next',
  'Cancelar Pix com vencimento': 'Cancel Pix with due date',
  'Estornar Pix com vencimento': 'Refund Pix with due date', 'Estornar cartão': 'Refund card', 'Estornar Pix': 'Refund Pix',
  'Confirmar aviso do banco': "Acknowledge the bank's notice", 'Pedido ao banco': 'Request to the bank',
  'Será enviado ao banco quando a conexão voltar': 'Sent to the bank when the connection is back',
  'Sendo enviado ao banco agora': 'Being sent to the bank now',
  'Talvez já tenha chegado ao banco: será conferido antes de reenviar': 'May have reached the bank: checked before sending again',
  'O banco recusou: tente de novo ou descarte': 'The bank refused it: retry or drop it',
  'Desistiu após muitas tentativas: tente de novo ou descarte': 'Gave up after many attempts: retry or drop it',
  'Cartão guardado cifrado: será enviado ao banco quando a conexão voltar':
      'Card kept encrypted: sent to the bank when the connection is back',
  'Cartão sendo enviado ao banco': 'Card being sent to the bank',
  // the card on the customer's phone (phone_card.js)
  'Pagamento no celular do cliente': "Payment on the customer's phone",
  'Aguardando o celular do cliente…': "Waiting for the customer's phone…",
  'O cliente lê o QR com a câmera do celular e digita o cartão lá: o cartão não passa pelo caixa.':
      'The customer scans the QR with the phone camera and types the card there: the card never passes through the till.',
  'Cartão digitado (exceção)': 'Keyed card (exception)',
  'Só para cliente sem celular ou venda por telefone: cartão digitado é a venda de maior risco e precisa do supervisor.':
      'Only for a customer without a phone or a phone order: a keyed card is the riskiest kind of sale and needs a supervisor.',
  'Cliente confirmando no celular (3-D Secure)': 'Customer confirming on the phone (3-D Secure)',
  'O banco do cliente está confirmando a compra no celular dele.': "The customer's bank is confirming the purchase on their phone.",
  'QR code do pagamento com cartão no celular do cliente': "QR code of the card payment on the customer's phone",
  // the supervisor's queue
  'QR para o celular do cliente': "QR for the customer's phone", 'QR do celular do cliente': "The customer's phone QR",
  'Fila': 'Queue', 'O quê': 'What', 'Venda': 'Sale', 'Idade': 'Age', 'Descartar': 'Drop',
  'Motivo: descreva o motivo (3 letras ou mais)': 'Reason: describe the reason (3 letters or more)',
  'Valor: use 12,50': 'Amount: use 12,50', 'Supervisor: digite o nome do supervisor': "Supervisor: type the supervisor's name",
  'PIN do supervisor: digite no teclado': "Supervisor's PIN: type it on the keypad",
}));

const EN_US_PATTERNS = [
  [/^(.+) — estornado no banco: (R\$ [^ ]+)$/, (m, rest, amount) => trEnUs(rest) + ' — reversed at the bank: ' + amount],
  [/^Estornado no banco: (R\$ [^ ]+) — o fechamento da noite aponta$/, "Reversed at the bank: $1 — the night's settlement flags it"],
  [/^Relógio do caixa (.+) (atrasado|adiantado) em relação ao banco: acerte a hora$/,
   (m, amount, way) => "The till's clock is " + amount + (way === 'atrasado' ? ' behind' : ' ahead') + ' of the bank: set the time'],
  [/^Impressora com falha: (.*)$/, 'Printer failing: $1'],
  [/^Venda do caixa (.+)$/, 'Cash-register sale $1'],
  [/^Nenhum operador ainda\. No terminal do caixa, na pasta (.+), digite:$/, 'No operator yet. In a terminal on the box, in the folder $1, type:'],
  [/^Expira em (\d+:\d\d)$/, 'Expires in $1'],
  [/^(\d+)x de (R\$ .+)$/, '$1x of $2'],
  [/^— (\d+) vendas?, (\d+) pagas?, (R\$ .+)$/,
   (m, count, paid, amount) => '— ' + count + (count === '1' ? ' sale, ' : ' sales, ') + paid + ' paid, ' + amount],
  [/^Fila: (\d+)(?: \((\d+) com falha\))?$/, (m, depth, failed) => 'Queue: ' + depth + (failed ? ' (' + failed + ' failed)' : '')],
  [/^Impressora: (\d+) não impresso\(s\)$/, 'Printer: $1 not printed'],
  [/^— (R\$ .+) em risco$/, '— $1 at risk'],
  [/^(Cartão|Pix|Pix com vencimento|Boleto) — recebido (R\$ [^ ]+)(?: \((R\$ .+) estornado\))?$/,
   (m, method, got, back) => trEnUs(method) + ' — received ' + got + (back ? ' (' + back + ' refunded)' : '')],
  [/^(Paga|Pago) — (R\$ .+) estornado$/, 'Paid — $2 refunded'],
  [/^Vence em (.+)$/, 'Due on $1'],
  [/^Venda de cartão sem conexão \((.+)\)$/, 'Offline card sale ($1)'],
  [/^(Tentar de novo|Descartar): (.+) — (R\$ .+)$/,
   (m, act, what, amount) => (act === 'Descartar' ? 'Drop: ' : 'Retry: ') + trEnUs(what) + ' — ' + amount],
  [/^(.+), pedido por (.+) \((Caixa|Supervisor)\)$/,
   (m, what, name, role) => trEnUs(what) + ', asked by ' + name + ' (' + trEnUs(role) + ')'],
  [/^Estorno pedido pelo caixa (.+): (R\$ .+)$/, 'Refund asked by cash register $1: $2'],
  [/^estorno recusado pelo banco: (.+)$/, 'refund refused by the bank: $1'],
  [/^Valor: use (.+)$/, 'Amount: use $1'],
  [/^Erro (\d+)$/, 'Error $1'],
  [/^Cancelar (R\$ .+)$/, 'Cancel $1'], [/^Estornar (R\$ .+)$/, 'Refund $1'],
  [/^Operador bloqueado por muitos PINs errados: tente de novo em (.+)$/, 'Operator locked after too many wrong PINs: try again in $1'],
  [/^Aprovação recusada: (.+)$/, (m, why) => 'Approval refused: ' + trEnUs(why)],
  [/^supervisor bloqueado por muitos PINs errados: tente de novo em (.+)$/,
   'supervisor locked after too many wrong PINs: try again in $1'],
  // "Field: rule" of words.js errorText(), each half as it translates (the last pattern tried)
  [/^([^:]{2,40}): (.+)$/, (m, field, rule) => trEnUs(field) + ': ' + trEnUs(rule)],
];

function trEnUs(text) {
  const trimmed = text.trim();
  if (!trimmed) return text;
  if (EN_US.has(trimmed)) return text.replace(trimmed, EN_US.get(trimmed));
  for (const [pattern, english] of EN_US_PATTERNS) {
    if (pattern.test(trimmed)) return text.replace(trimmed, trimmed.replace(pattern, english));
  }
  return text;
}

if (document.documentElement.lang === 'en-US') {
  const translateNode = (node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      const english = trEnUs(node.nodeValue);
      if (english !== node.nodeValue) node.nodeValue = english;
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    for (const attribute of ['placeholder', 'aria-label', 'alt', 'title']) {
      const value = node.getAttribute(attribute);
      if (value) {
        const english = trEnUs(value);
        if (english !== value) node.setAttribute(attribute, english);
      }
    }
    node.childNodes.forEach(translateNode);
  };
  const start = () => {
    translateNode(document.body);
    document.title = trEnUs(document.title);
    new MutationObserver((changes) => {
      for (const change of changes) {
        if (change.type === 'characterData') translateNode(change.target);
        change.addedNodes.forEach(translateNode);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
  const nativeAlert = window.alert.bind(window);
  window.alert = (text) => nativeAlert(trEnUs(String(text)));
  const nativePrompt = window.prompt.bind(window);
  window.prompt = (text, value) => nativePrompt(trEnUs(String(text)), value);
}
