// The touchscreen in the store's language (`touchscreen.language`): the page is written in
// pt-BR; with "en-US" the service serves index.html as <html lang="en-US">, and every text the
// page shows, in the HTML or set later by the scripts (screens, notices, errors, dialogs), is
// looked up here (exactly, or by pattern for texts with numbers and names) and shown in
// English. Loaded first; app.js and the rest stay single-language. Money keeps "R$ 1.234,56".
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
  'Operador: digite o seu nome': 'Operator: type your name', 'PIN: digite o seu PIN no teclado': 'PIN: type your PIN on the keypad',
  'Sessão expirada por inatividade: entre de novo para continuar.': 'Session expired after inactivity: sign in again to go on.',
  'Sessão expirada: entre de novo para continuar.': 'Session expired: sign in again to go on.',
  'O serviço não respondeu ao sair: a sessão anterior acaba sozinha por inatividade.':
      'The service did not answer the sign-out: the previous session ends by itself when idle.',
  // the health line (app.js showHealth)
  'Banco': 'Bank', 'Relógio': 'Clock', 'Disco': 'Disk', 'Impressora': 'Printer',
  'Banco ✓': 'Bank ✓', 'Relógio ✓': 'Clock ✓', 'Disco ✓': 'Disk ✓', 'Impressora ✓': 'Printer ✓',
  'Banco: sem conexão (faturas vão para a fila)': 'Bank: no connection (invoices are queued)',
  'Disco cheio: novas vendas recusadas até liberar espaço': 'Disk full: new sales refused until space is freed',
  'Avisos do banco': 'Bank notices', 'Avisos do banco ✓': 'Bank notices ✓',
  'Avisos do banco recusados: pagamentos vistos por consulta (mais lento)':
      'Bank notices refused: payments seen by polling (slower)',
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
  // the supervisor's queue
  'QR para o celular do cliente': "QR for the customer's phone", 'QR do celular do cliente': "The customer's phone QR",
  'Fila': 'Queue', 'O quê': 'What', 'Venda': 'Sale', 'Idade': 'Age', 'Descartar': 'Drop',
  'Motivo: descreva o motivo (3 letras ou mais)': 'Reason: describe the reason (3 letters or more)',
  'Valor: use 12,50': 'Amount: use 12,50', 'Supervisor: digite o nome do supervisor': "Supervisor: type the supervisor's name",
  'PIN do supervisor: digite no teclado': "Supervisor's PIN: type it on the keypad",
}));

const EN_US_PATTERNS = [
  [/^Relógio do caixa (.+) (atrasado|adiantado) em relação ao banco: acerte a hora$/,
   (m, amount, way) => "The till's clock is " + amount + (way === 'atrasado' ? ' behind' : ' ahead') + ' of the bank: set the time'],
  [/^Impressora com falha: (.*)$/, 'Printer failing: $1'],
  [/^Venda do caixa (.+)$/, 'Cash-register sale $1'],
  [/^Expira em (\d+:\d\d)$/, 'Expires in $1'],
  [/^(\d+)x de (R\$ .+)$/, '$1x of $2'],
  [/^— (\d+) vendas, (\d+) pagas, (R\$ .+)$/, '— $1 sales, $2 paid, $3'],
  [/^Fila: (\d+)(?: \((\d+) com falha\))?$/, (m, depth, failed) => 'Queue: ' + depth + (failed ? ' (' + failed + ' failed)' : '')],
  [/^Impressora: (\d+) não impresso\(s\)$/, 'Printer: $1 not printed'],
  [/^— (R\$ .+) em risco$/, '— $1 at risk'],
  [/^Cartão — recebido (R\$ .+)$/, 'Card — received $1'], [/^Pix — recebido (R\$ .+)$/, 'Pix — received $1'],
  [/^Boleto — recebido (R\$ .+)$/, 'Invoice — received $1'],
  [/^Cancelar (R\$ .+)$/, 'Cancel $1'], [/^Estornar (R\$ .+)$/, 'Refund $1'],
  [/^Operador bloqueado por muitos PINs errados: tente de novo em (.+)$/, 'Operator locked after too many wrong PINs: try again in $1'],
  [/^Aprovação recusada: (.+)$/, (m, why) => 'Approval refused: ' + trEnUs(why)],
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
