// The cashier's words for what the service says (docs/terminal.md): a sale's state and method,
// the field and rule of a refusal, the checkout's notices, and money as the screen's language
// writes it. Pure text (no request, no screen element; only the page's language): every script
// of the page reads it. Written in pt-BR like the page; i18n.js shows each in English on an
// en-US screen.
'use strict';

const LABELS = {
  choosing: 'Escolhendo o meio', declined: 'Recusada', 'enter-card': 'Aguardando cartão',
  working: 'Processando', challenge: 'Verificação 3-D Secure', pix: 'Aguardando Pix',
  invoice: 'Pix com vencimento emitido', 'pay-later': 'Pix com vencimento em aberto', queued: 'Na fila (sem conexão)',
  canceling: 'Cancelando', paid: 'Paga', refunding: 'Estornando', refunded: 'Estornada', voided: 'Cancelada',
  provisional: 'Cartão provisório (sem conexão)',
};
// The bank's invoice is a Pix charge with a due date (a BR Code), not a boleto: so it is named.
const METHODS = { card: 'Cartão', pix: 'Pix', invoice: 'Pix com vencimento', '': '—' };
const FIELDS = {
  number: 'Número do cartão', expiry: 'Validade', security_code: 'Código de segurança',
  holder_name: 'Nome no cartão', installments: 'Parcelas', funding: 'Tipo', amount: 'Valor',
  holder_email: 'E-mail', holder_phone: 'Telefone', 'billing.street_line1': 'Endereço', 'billing.street_line2': 'Complemento',
  'billing.city': 'Cidade', 'billing.state_code': 'UF', 'billing.zip_code': 'CEP', 'billing.country_code': 'País',
  'customer': 'Cliente', 'customer.name': 'Nome do cliente', 'customer.tax_id': 'CPF ou CNPJ',
  operator: 'Operador', reason: 'Motivo', pin: 'PIN', approval: 'Aprovação', session: 'Sessão',
};
const ROLES = { cashier: 'Caixa', supervisor: 'Supervisor' };
const RULES = {
  '13 to 19 digits passing the Luhn check': 'número inválido',
  'MM/AA': 'use MM/AA', 'MM/AA, not in the past': 'cartão vencido',
  '3 or 4 digits': '3 ou 4 dígitos', '2 to 26 characters': 'de 2 a 26 letras',
  'a valid CPF or CNPJ': 'CPF ou CNPJ inválido', '3 to 80 characters': 'de 3 a 80 letras',
  '1 to 40 characters': 'obrigatório', '3 to 200 characters': 'descreva o motivo (3 letras ou mais)',
};

// The checkout's notices (English in the journal and the log) as the cashier reads them: a
// decline says the issuer's reason when the bank gave one, and what to do next.
const NEXT_FOR_CARD = ': peça outro cartão ou ofereça Pix';
const NOTICES = [
  [/^card not charged: .*insufficient.*$/i, 'cartão recusado pelo emissor: saldo ou limite insuficiente' + NEXT_FOR_CARD],
  [/^card not charged: .*expired.*$/i, 'cartão recusado pelo emissor: cartão vencido' + NEXT_FOR_CARD],
  [/^card not charged: .*(stolen|lost).*$/i, 'cartão recusado pelo emissor: cartão bloqueado' + NEXT_FOR_CARD],
  [/^card not charged: (denied|declined|.*denied by the issuer).*$/i, 'cartão recusado pelo emissor, sem motivo informado' + NEXT_FOR_CARD],
  [/^card not charged: failed.*$/, 'falha na autorização do cartão: tente o cartão de novo ou ofereça Pix'],
  [/^card not charged.*$/, 'cartão não cobrado: tente o cartão de novo ou ofereça Pix'],
  [/^card session expired$/, 'o tempo para pagar com o cartão acabou: tente de novo'],
  [/^Pix expired unpaid.*$/, 'o Pix expirou sem pagamento: gere outro Pix ou emita um Pix com vencimento'],
  [/the bank cannot be reached.*$/, 'o banco não responde, e cartão e Pix precisam dele agora (o Pix com vencimento pode ir para a fila)'],
  [/^card needs the bank now.*$/, 'cartão precisa do banco agora e a loja está sem conexão: o Pix com vencimento pode ir para a fila'],
  [/^Pix needs the bank now.*$/, 'Pix precisa do banco agora e a loja está sem conexão: o Pix com vencimento pode ir para a fila'],
  [/^reversal refused by the bank: (.*)$/, 'estorno recusado pelo banco: $1'],
  [/^an unconfirmed card authorization can only be canceled in full$/, 'uma autorização ainda não confirmada só pode ser estornada por inteiro'],
];
function pt(message) {
  for (const [pattern, text] of NOTICES) if (pattern.test(message)) return message.replace(pattern, text);
  return message;
}

// Money as the screen's language writes it, as the receipts do (common/money.h): pt-BR
// "R$ 1.234,56", en-US "R$ 1,234.56".
const MONEY_MARKS = document.documentElement.lang === 'en-US' ? { group: ',', decimal: '.' } : { group: '.', decimal: ',' };
function money(cents) {
  const reais = Math.floor(Math.abs(cents) / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, MONEY_MARKS.group);
  return (cents < 0 ? '-' : '') + 'R$ ' + reais + MONEY_MARKS.decimal + String(Math.abs(cents) % 100).padStart(2, '0');
}
// A typed amount ("12,50", "1.234,56"; en-US "12.50", "1,234.56") in cents; null when it is not one.
function parseMoney(text) {
  const g = '\\' + MONEY_MARKS.group, d = '\\' + MONEY_MARKS.decimal;
  const m = new RegExp('^\\s*(?:R\\$\\s*)?(\\d{1,3}(?:' + g + '\\d{3})*|\\d+)(?:' + d + '(\\d{1,2}))?\\s*$').exec(text);
  if (!m) return null;
  return Number(m[1].split(MONEY_MARKS.group).join('')) * 100 + Number((m[2] || '0').padEnd(2, '0'));
}
// "Paga — R$ 20,00 estornado": a sale that gave part of its money back says how much; money
// the bank took back outside Balcão (the dashboard) is said apart: "estornado no banco".
function statusText(sale) {
  const label = LABELS[sale.status] || sale.status;
  const text = sale.status === 'paid' && sale.returned > 0 ? label + ' — ' + money(sale.returned) + ' estornado' : label;
  return text + bankReversedText(sale);
}
function bankReversedText(sale) {
  return sale.bank_reversed > 0 ? ' — estornado no banco: ' + money(sale.bank_reversed) : '';
}

// "30 s", "4 min": how long a lock still lasts.
function waitText(seconds) {
  const s = Number(seconds);
  return s < 120 ? s + ' s' : Math.ceil(s / 60) + ' min';
}
// The service's refusals of a supervisor approval (English, as in the operator log).
const APPROVAL_RULES = [
  [/locked.*\bin (\d+) s\b/i, (m) => 'supervisor bloqueado por muitos PINs errados: tente de novo em ' + waitText(m[1])],
  [/disabled/i, () => 'supervisor desativado'],
  [/not a supervisor|supervisor role|only a supervisor|must be a supervisor/i, () => 'só um supervisor pode aprovar'],
  [/wrong|incorrect/i, () => 'supervisor ou PIN incorretos'],
  [/needed|required|missing/i, () => 'um supervisor precisa aprovar (nome e PIN)'],
];
function errorText(answer) {
  const e = answer.json && answer.json.error;
  if (!e) return 'Erro ' + answer.status;
  if (e.field === 'state' || e.field === 'bank' || e.field === 'sale') return pt(e.rule.replace(/^.*?: \w+: /, ''));
  if (e.field === 'approval') {
    for (const [pattern, text] of APPROVAL_RULES) {
      const m = pattern.exec(e.rule);
      if (m) return 'Aprovação recusada: ' + text(m);
    }
    return 'Aprovação recusada: ' + e.rule;
  }
  return (FIELDS[e.field] || e.field) + ': ' + (RULES[e.rule] || e.rule);
}
