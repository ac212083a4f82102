// The official Node SDK against `balcao sandbox` on the points where the sandbox once told
// itself apart from the bank's sandbox (docs/sandbox.md, "Where the SDKs and the API
// documentation differ"): variable-amount pull subscriptions, holderId, the published cost
// center, the workspace picture, arrecadação bar codes with a stale general check digit and
// BR Codes with a lowercase CRC.
// Connected by sandbox_sdk.js like sdk.test.js.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const zlib = require('node:zlib');
const { starkbank, cred, all, simulate } = require('./sandbox_sdk');

const organization = new starkbank.Organization({
  environment: 'sandbox', id: cred.organizationId,
  privateKey: fs.readFileSync(cred.organizationPrivateKeyPath, 'utf8'),
});
const inputError = (code) => (err) => err.status === 400 && Array.isArray(err.errors) && err.errors[0].code === code;
const day = (offset) => new Date(Date.now() + offset * 86400000).toISOString().slice(0, 10);

test('variable-amount pull subscriptions of every type, in both spellings of the fourth', async () => {
  const base = { amount: 0, amountMinLimit: 5000, displayDescription: 'Dragon Travel Fare', interval: 'month',
    name: 'John Snow', pullMode: 'manual', pullRetryLimit: 3, start: day(5), end: day(35), tags: [],
    taxId: '012.345.678-90' };
  const data = {
    push: { accountNumber: '9123900000', bankCode: '05097757', branchCode: '1126', taxId: '20.018.183/0001-80' },
    qrcode: undefined,
    qrcodeAndPayment: { amount: 400000 },
    paymentAndOrQrcode: { amount: 400000, due: '2099-06-26T17:59:26.000000+00:00', fine: 2.5, interest: 1.3 },
    paymentAndOrQrCode: { amount: 400000 },
  };
  let n = 0;
  for (const [type, extra] of Object.entries(data)) {
    n += 1;
    const [subscription] = await starkbank.invoicePullSubscription.create([{ ...base, type,
      ...(extra ? { data: extra } : {}), externalId: `variable-${type}-${n}`, referenceCode: `contract-var-${n}` }]);
    assert.strictEqual(typeof subscription.id, 'string');
    assert.strictEqual(subscription.amount, 0);
    assert.strictEqual(Number(subscription.amountMinLimit), 5000);
    assert.strictEqual(subscription.type, type === 'paymentAndOrQrcode' ? 'paymentAndOrQrCode' : type);
  }
  // A fixed-amount subscription still needs an amount above zero.
  await assert.rejects(starkbank.invoicePullSubscription.create([{ ...base, amountMinLimit: undefined, type: 'qrcode',
    externalId: 'fixed-zero', referenceCode: 'contract-fixed-zero' }]), inputError('invalidAmount'));
});

test('holderId is kept by sessions and purchases and filters both lists', async () => {
  const holderId = 'holder-' + Date.now();
  const session = await starkbank.merchantSession.create({ allowedFundingTypes: ['credit'],
    allowedInstallments: [{ totalAmount: 6000, count: 12 }], expiration: 3600, challengeMode: 'disabled',
    tags: ['yourTags'], holderId, softDescriptor: 'softDescriptor' });
  assert.strictEqual(session.holderId, holderId);
  const purchase = await starkbank.merchantSession.purchase(session.uuid, { amount: 6000, installmentCount: 12,
    cardExpiration: '2035-01', cardNumber: '5277696455399733', cardSecurityCode: '123', holderName: 'Holder Name',
    fundingType: 'credit' });
  assert.strictEqual(purchase.holderId, holderId);
  const direct = await starkbank.merchantPurchase.create({ amount: 10000, installmentCount: 5, cardId: purchase.cardId,
    fundingType: 'credit', challengeMode: 'disabled', holderId: holderId + '-direct' });
  assert.strictEqual((await starkbank.merchantPurchase.get(direct.id)).holderId, holderId + '-direct');
  const sessions = await all(await starkbank.merchantSession.query({ holderId, limit: 10 }));
  assert.deepStrictEqual(sessions.map((s) => s.id), [session.id]);
  const purchases = await all(await starkbank.merchantPurchase.query({ holderId, limit: 10 }));
  assert.deepStrictEqual(purchases.map((p) => p.id), [purchase.id]);
  const [page] = await starkbank.merchantPurchase.page({ holderId: holderId + '-direct', limit: 10 });
  assert.deepStrictEqual(page.map((p) => p.id), [direct.id]);
});

test('credentials.json publishes a cost center that payment requests use, transactions included', async () => {
  assert.match(cred.centerId, /^\d{16}$/);
  const requests = await starkbank.paymentRequest.create([
    new starkbank.PaymentRequest({ centerId: cred.centerId, due: day(1), payment: new starkbank.Transfer({
      amount: 200, bankCode: '20018183', branchCode: '0001', accountNumber: '10000-0', name: 'Jon Snow',
      taxId: '012.345.678-90' }) }),
    new starkbank.PaymentRequest({ centerId: cred.centerId, payment: new starkbank.Transaction({ amount: 300,
      receiverId: cred.workspaceId, description: 'Internal move', externalId: 'center-' + Date.now() }) }),
  ]);
  assert.deepStrictEqual(requests.map((r) => r.type), ['transfer', 'transaction']);
  const [page] = await starkbank.paymentRequest.page({ centerId: cred.centerId, limit: 2 });
  assert.deepStrictEqual(page.map((r) => r.id).sort(), requests.map((r) => r.id).sort());
});

// A 1x1 PNG, built here so the test needs no binary file.
function tinyPng() {
  const crc = (buf) => {
    let c = ~0;
    for (const b of buf) {
      c ^= b;
      for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
    }
    return (~c) >>> 0;
  };
  const chunk = (type, body) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(body.length);
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc(Buffer.concat([Buffer.from(type), body])));
    return Buffer.concat([len, Buffer.from(type), body, tail]);
  };
  const header = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  return Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.from([0, 255, 0, 0]))), chunk('IEND', Buffer.alloc(0))]);
}

test('workspace picture update as the SDK sends it (a data URL, no separate pictureType)', async () => {
  const workspace = await starkbank.workspace.create({ username: 'picture-' + Date.now(), name: 'Picture Shop',
    user: organization });
  const updated = await starkbank.workspace.update(workspace.id, { picture: tinyPng(), pictureType: 'image/png',
    user: starkbank.organization.replace(organization, workspace.id) });
  assert.ok(updated.pictureUrl.endsWith('/workspace/' + workspace.id + '/picture'));
  const renamed = await starkbank.workspace.update(workspace.id, { name: 'Picture Shop 2',
    user: starkbank.organization.replace(organization, workspace.id) });
  assert.strictEqual(renamed.name, 'Picture Shop 2');
});

test('arrecadação bar codes with a stale general check digit are paid and previewed, as by the bank', async () => {
  // The SDKs' own tests overwrite segment, amount and company id of this sample bar code
  // without recomputing its general check digit (position 4).
  const sample = '83660000001084301380074119002551100010601813';
  const put = (code, text, at) => code.slice(0, at) + text + code.slice(at + text.length);
  const utility = put(put(put(sample, '2', 1), '00000012345', 4), '0101', 15);
  const tax = put(put(put(sample, '5', 1), '00000004321', 4), '0064', 15);
  const [payment] = await starkbank.utilityPayment.create([new starkbank.UtilityPayment({ barCode: utility,
    description: 'stale check digit utility' })]);
  assert.strictEqual(payment.amount, 12345);
  const [taxPayment] = await starkbank.taxPayment.create([new starkbank.TaxPayment({ barCode: tax,
    description: 'stale check digit tax' })]);
  assert.strictEqual(taxPayment.amount, 4321);
  const previews = await starkbank.paymentPreview.create([new starkbank.PaymentPreview({ id: utility }),
    new starkbank.PaymentPreview({ id: tax, scheduled: day(1) })]);
  assert.deepStrictEqual(previews.map((p) => p.type), ['utility-payment', 'tax-payment']);
  // A bar code that is wrong beyond the check digit is still refused.
  await assert.rejects(starkbank.utilityPayment.create([new starkbank.UtilityPayment({ barCode: put(sample, '0', 1),
    description: 'segment zero does not exist' })]), inputError('invalidBarCode'));
});

test('a BR Code whose CRC is written in lowercase hex is read as payers\' apps read it', async () => {
  let invoice;
  do { // until the CRC has a hex letter (about 85 % of them)
    [invoice] = await starkbank.invoice.create([new starkbank.Invoice({ amount: 1234, name: 'Lower Case',
      taxId: '012.345.678-90' })]);
  } while (!/[A-F]/.test(invoice.brcode.slice(-4)));
  const lower = invoice.brcode.slice(0, -4) + invoice.brcode.slice(-4).toLowerCase();
  const [preview] = await starkbank.paymentPreview.create([new starkbank.PaymentPreview({ id: lower })]);
  assert.strictEqual(preview.type, 'brcode-payment');
  assert.strictEqual(preview.payment.amount, 1234);
  const [payment] = await starkbank.brcodePayment.create([new starkbank.BrcodePayment({ brcode: lower,
    taxId: '012.345.678-90', description: 'lowercase CRC payment' })]);
  assert.strictEqual(payment.amount, 1234);
});

test('a repeated pull subscription referenceCode is accepted; a repeated externalId is not', async () => {
  const base = { amount: 0, amountMinLimit: 5000, displayDescription: 'Dragon Travel Fare', interval: 'month',
    name: 'John Snow', pullMode: 'manual', pullRetryLimit: 3, start: day(5), end: day(35), tags: [],
    taxId: '012.345.678-90', type: 'qrcode', referenceCode: 'contract-12345' };
  const externalId = 'repeat-' + Date.now();
  const [first] = await starkbank.invoicePullSubscription.create([{ ...base, externalId }]);
  const [second] = await starkbank.invoicePullSubscription.create([{ ...base, externalId: externalId + '-2' }]);
  assert.notStrictEqual(first.id, second.id);
  assert.strictEqual(second.referenceCode, 'contract-12345');
  await assert.rejects(starkbank.invoicePullSubscription.create([{ ...base, externalId }]),
    inputError('invalidExternalId'));
});

test('the Python suite\'s utility line, whose check digits are stale, is paid and deleted', async () => {
  const [payment] = await starkbank.utilityPayment.create([new starkbank.UtilityPayment({
    line: '83640000001 1 08740138007 0 61053026111 0 08067159411 9', scheduled: day(1),
    description: 'e6cba87f05fd73aa49306864ab0098f58e7c43f8a9403475a9f10ac605b6ed87', tags: ['utility', 'payment'] })]);
  assert.strictEqual(payment.amount, 10874);
  assert.strictEqual((await starkbank.utilityPayment.delete(payment.id)).status, 'canceled');
});

test('receipts are PDFs of several kilobytes, log receipts included', async () => {
  const [invoice] = await starkbank.invoice.create([new starkbank.Invoice({ amount: 5000, name: 'Receipt Payer',
    taxId: '012.345.678-90' })]);
  await simulate('/invoice/pay', { id: invoice.id });
  await starkbank.invoice.update(invoice.id, { amount: 2000 });
  const [[reversal]] = await starkbank.invoice.log.page({ invoiceIds: [invoice.id], types: ['reversed'] });
  const { deposit } = await simulate('/deposit', { amount: 7000, name: 'Receipt Depositor', taxId: '012.345.678-90' });
  await starkbank.deposit.update(deposit.id, { amount: 3000 });
  const [[depositReversal]] = await starkbank.deposit.log.page({ depositIds: [deposit.id], types: ['reversed'] });
  const pdfs = [await starkbank.invoice.pdf(invoice.id), await starkbank.invoice.log.pdf(reversal.id),
    await starkbank.deposit.log.pdf(depositReversal.id)];
  for (const pdf of pdfs) {
    assert.strictEqual(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.ok(pdf.length > 4096, `${pdf.length} bytes`);
  }
});
