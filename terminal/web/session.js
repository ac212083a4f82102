// The operator session of the touchscreen: the login screen (name and PIN on the keypad of
// pinpad.js), "Trocar operador", and the way back to the login when a session ends. The
// session itself is the service's HttpOnly cookie: this page never sees its token. Loaded
// last: it starts the page by asking the service who is logged in.
'use strict';

// --- the operator session: login, "Trocar operador", the end of a session ---
const loginPad = PinPad($('#login-pad'), login);
let loggingIn = false;

// Why the service refused a login, as the cashier reads it.
function loginRefusal(answer) {
  const e = (answer.json && answer.json.error) || {};
  if (answer.status === 401) return 'Operador ou PIN incorretos';
  if (answer.status === 423) {
    const m = /\bin (\d+) s\b/.exec(e.rule || '');  // "... locked ...; try again in N s"
    return 'Operador bloqueado por muitos PINs errados' + (m ? ': tente de novo em ' + waitText(m[1]) : '');
  }
  if (answer.status === 403 && e.field !== 'Origin' && e.field !== 'Content-Type') {
    return 'Operador desativado: fale com o supervisor';
  }
  return errorText(answer);
}

async function login(pin) {
  if (loggingIn) return;
  const name = $('#login-operator').value.trim();
  const error = $('#login-error');
  if (!name) {
    loginPad.clear();
    error.textContent = 'Operador: digite o seu nome';
    $('#login-operator').focus();
    return;
  }
  if (!pin) {
    error.textContent = 'PIN: digite o seu PIN no teclado';
    loginPad.focus();
    return;
  }
  loggingIn = true;
  error.textContent = '';
  // The language chosen on this login screen becomes the operator's (docs/terminal.md).
  const chosen = sessionStorage.getItem('balcao-language-chosen');
  const answer = await api('POST', '/api/login', chosen ? { operator: name, pin, language: chosen } : { operator: name, pin });
  loginPad.clear();  // right or wrong, the next attempt starts from nothing
  loggingIn = false;
  if (!answer.ok) {
    error.textContent = loginRefusal(answer);
    loginPad.focus();
    const still = await api('GET', '/api/session');  // the hint goes once an operator exists
    showFirstRun(!still.ok && still.json && still.json.first_run);
    return;
  }
  showFirstRun(null);
  sessionStorage.removeItem('balcao-language-chosen');
  // The operator chose another language before: the page comes back in it, still logged in.
  if (answer.json.language && answer.json.language !== document.documentElement.lang) {
    location.reload();
    return;
  }
  const session = await api('GET', '/api/session');  // for the idle timeout
  enterSession(session.ok ? session.json : answer.json);
}
// Enter in the name field moves on to the PIN (it cannot send a PIN it does not have).
$('#login-form').addEventListener('submit', (e) => {
  e.preventDefault();
  loginPad.focus();
});

function enterSession(who) {
  app.operator = { name: who.operator, role: who.role };
  app.idleTimeoutS = Number(who.idle_timeout_s) || 0;
  app.lastActivity = Date.now();
  $('#operator-shown').textContent = who.operator;
  $('#operator-role').textContent = ROLES[who.role] || who.role;
  $('#operator-role').dataset.role = who.role;
  $('#nav-queue').hidden = who.role !== 'supervisor';  // the queue screen is the supervisor's
  $('#login-error').textContent = '';
  $('#login-notice').hidden = true;
  document.body.classList.remove('logged-out');
  newSale();
  status();
}

// Back to the login screen, leaving nothing of the last operator's work on the page.
function showLogin(notice) {
  app.operator = null;
  app.sale = null;
  app.cents = 0;
  app.busy = false;
  app.qrKey = '';
  if ($('#action-dialog').open) $('#action-dialog').close();
  clearCardForm();
  $('#customer-name').value = '';
  $('#customer-tax-id').value = '';
  $('#receipt').textContent = '';
  $('#sales-table tbody').innerHTML = '';
  loginPad.clear();
  $('#login-error').textContent = '';
  $('#login-notice').textContent = notice;
  $('#login-notice').hidden = !notice;
  document.body.classList.add('logged-out');
  show('login');
  if ($('#login-operator').value) loginPad.focus();
  else $('#login-operator').focus();
}

$('#switch-operator').addEventListener('click', async () => {
  const answer = await api('POST', '/api/logout', {});
  $('#login-operator').value = '';
  showLogin(answer.ok || answer.status === 401 ? ''
    : 'O serviço não respondeu ao sair: a sessão anterior acaba sozinha por inatividade.');
});

// The service restarts a session's idle timer on every request, and this page polls every
// second or two; so the page itself ends a session nobody has touched for the idle timeout.
['pointerdown', 'keydown'].forEach((type) => document.addEventListener(type, () => {
  app.lastActivity = Date.now();
}, true));
setInterval(() => {
  if (!app.operator || !app.idleTimeoutS || Date.now() - app.lastActivity < app.idleTimeoutS * 1000) return;
  api('POST', '/api/logout', {});
  showLogin('Sessão expirada por inatividade: entre de novo para continuar.');
}, 5000);

// The language switch: the service remembers it for this screen (a cookie it sets) and serves
// the page again in it; the operator who logs in next keeps it as theirs.
$$('#language-switch button').forEach((b) => {
  b.setAttribute('aria-pressed', String(b.dataset.language === document.documentElement.lang));
  b.addEventListener('click', async () => {
    if (b.dataset.language === document.documentElement.lang) {
      sessionStorage.setItem('balcao-language-chosen', b.dataset.language);  // chosen all the same
      return;
    }
    const answer = await api('POST', '/api/language', { language: b.dataset.language });
    if (answer.ok) sessionStorage.setItem('balcao-language-chosen', b.dataset.language);
    if (answer.ok) location.reload();
    else $('#login-error').textContent = errorText(answer);
  });
});

// A box with no operator yet (its first run): what to type on the box, in the service's words
// (the command names this box's data dir when the tools would not find it by themselves).
function showFirstRun(hint) {
  $('#first-run').hidden = !hint;
  if (!hint) return;
  $('#first-run-where').textContent = hint.directory
    ? 'Nenhum operador ainda. No terminal do caixa, na pasta ' + hint.directory + ', digite:'
    : 'Nenhum operador ainda. No terminal do caixa, digite:';
  $('#first-run-command').textContent = hint.command.replace('NAME', document.documentElement.lang === 'en-US' ? 'NAME' : 'NOME');
}

// A reload keeps the session (the cookie): ask the service who is logged in, if anyone.
api('GET', '/api/session').then((answer) => {
  if (answer.ok) return enterSession(answer.json);
  showFirstRun(answer.json && answer.json.first_run);
  showLogin('');
});
