// An on-screen PIN keypad (the login screen's and the supervisor approval's). The digits live
// only in this object's closure: never in the DOM (the display shows one dot per digit), never
// in storage, and the owner clears them after every attempt. Not an <input type=password>, so
// the browser never offers to save it. The physical keyboard works too while focus is inside
// the pad: digits, Backspace, Escape (clear) and Enter.
'use strict';

// `root`: an element holding a `.pin-dots` display and a `.pin-keys` box with the pad's own
// `data-pin="enter"` button; the keys all pads share (the digits 0-9, `data-digit`, and
// `data-pin="clear"`) come from the page's <template id="pin-pad-keys">, put before it.
// `onEnter` is called with the PIN typed so far.
function PinPad(root, onEnter, maxDigits) {
  root.querySelector('.pin-keys').prepend(document.getElementById('pin-pad-keys').content.cloneNode(true));
  let digits = '';
  const dots = root.querySelector('.pin-dots');
  const max = maxDigits || 12;

  function render() {
    dots.textContent = '•'.repeat(digits.length);
    dots.setAttribute('aria-label', digits.length === 0 ? 'PIN vazio'
      : digits.length === 1 ? 'PIN: 1 dígito' : 'PIN: ' + digits.length + ' dígitos');
    dots.dataset.count = String(digits.length);
  }
  function add(d) {
    if (digits.length < max) digits += d;
    render();
  }
  function clear() {
    digits = '';
    render();
  }

  root.querySelectorAll('button[data-digit]').forEach((b) => b.addEventListener('click', () => add(b.dataset.digit)));
  root.querySelector('button[data-pin="clear"]').addEventListener('click', clear);
  root.querySelector('button[data-pin="enter"]').addEventListener('click', () => onEnter(digits));
  root.addEventListener('keydown', (e) => {
    if (/^[0-9]$/.test(e.key)) add(e.key);
    else if (e.key === 'Backspace') { digits = digits.slice(0, -1); render(); }
    else if (e.key === 'Escape' && digits) clear();
    else if (e.key === 'Enter') onEnter(digits);
    else return;
    e.preventDefault();
    e.stopPropagation();
  });
  render();

  return {
    clear,
    focus() { dots.focus(); },
    get length() { return digits.length; },
  };
}
