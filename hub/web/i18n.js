// The fleet page in the user's language, as the box's touchscreen does it (terminal/web/i18n.js):
// the page is written in pt-BR; when the hub serves it as <html lang="en-US"> (the user's choice,
// else the browser's Accept-Language: hub/fleet.h), every text it shows, in the HTML or set later
// by fleet.js, is looked up here (exactly, or by pattern for texts with numbers and names) and
// shown in English. One language at a time. Loaded before fleet.js.
'use strict';

const FLEET_EN_US = new Map(Object.entries({
  'Balcão — a rede': 'Balcão — the fleet', 'Balcão · a rede': 'Balcão · the fleet', 'Sair': 'Sign out',
  'Entrar': 'Sign in', 'Usuário': 'User', 'Senha': 'Password',
  'Vendas hoje': 'Sales today', 'Recebido hoje': 'Collected today', 'Caixas': 'Lanes', 'Atualizado': 'Updated',
  'Caixa': 'Lane', 'Estado': 'State', 'Versão': 'Version', 'Relógio': 'Clock', 'Disco': 'Disk', 'Fila': 'Queue',
  'Impressora': 'Printer', 'Banco': 'Bank', 'Última venda': 'Last sale', 'Diário': 'Journal',
  'no ar': 'up', 'NUNCA VISTO': 'NEVER SEEN', 'íntegro': 'intact', 'todos no ar': 'all up',
  'diários íntegros': 'journals intact', 'funcionando': 'working', 'com falha': 'failing',
  'conectado': 'connected', 'sem conexão': 'offline',
  'O hub não respondeu; tentando de novo.': 'The hub did not answer; trying again.',
  'Muitas tentativas: espere 15 minutos.': 'Too many tries: wait 15 minutes.',
  'Usuário ou senha errados.': 'Wrong user or password.', 'O hub não respondeu.': 'The hub did not answer.',
}));

// [pattern, English] for the texts fleet.js writes with numbers and names.
const FLEET_EN_US_PATTERNS = [
  [/^SILENCIOSO desde (.+)$/, 'SILENT since $1'],
  [/^ADULTERADO: (.+)$/, 'REWRITTEN: $1'],
  [/^Loja (.+)$/, 'Store $1'],
  [/^· (\d+) vendas?, (R\$ .+) hoje$/, (m, n, amount) => `· ${n} ${n === '1' ? 'sale' : 'sales'}, ${amount} today`],
  [/^(\d+) silencioso\(s\)$/, '$1 silent'],
  [/^(\d+) diário\(s\) adulterado\(s\)$/, '$1 journal(s) rewritten'],
];

function fleetInEnglish(text) {
  const core = text.trim();
  if (!core) return text;
  let english = FLEET_EN_US.get(core);
  if (english === undefined) {
    const rule = FLEET_EN_US_PATTERNS.find(([pattern]) => pattern.test(core));
    english = rule ? core.replace(rule[0], rule[1]) : core;
  }
  return english === core ? text : text.replace(core, english);
}

// Every text node and label-like attribute under `root`, in English.
function fleetTranslate(root) {
  if (root.nodeType === Node.TEXT_NODE) {
    const english = fleetInEnglish(root.nodeValue);
    if (english !== root.nodeValue) root.nodeValue = english;
    return;
  }
  if (root.nodeType !== Node.ELEMENT_NODE) return;
  for (const name of ['aria-label', 'placeholder', 'title']) {
    const value = root.getAttribute(name);
    if (value !== null && fleetInEnglish(value) !== value) root.setAttribute(name, fleetInEnglish(value));
  }
  for (const child of root.childNodes) fleetTranslate(child);
}

if (document.documentElement.lang === 'en-US') {
  document.title = fleetInEnglish(document.title);
  document.addEventListener('DOMContentLoaded', () => {
    fleetTranslate(document.body);
    const watcher = new MutationObserver((records) => records.forEach((record) => {
      if (record.type === 'characterData') fleetTranslate(record.target);
      else record.addedNodes.forEach(fleetTranslate);
    }));
    watcher.observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}
