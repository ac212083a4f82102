// The official Node SDK against a seeded `balcao sandbox` (the CLI's default account: 60 days
// of history), the way the SDKs' own suites use the bank's sandbox account: full pages of
// `limit=10` and 150 items of every listable resource and its logs, then a purchase with
// the saved card credentials.json names. Connected by sandbox_sdk.js like sdk.test.js.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const { starkbank, cred, all } = require('./sandbox_sdk');

const organization = new starkbank.Organization({
  environment: 'sandbox', id: cred.organizationId,
  privateKey: fs.readFileSync(cred.organizationPrivateKeyPath, 'utf8'),
});

// [name, SDK module, extra query parameters]
const resources = [
  ['boleto', starkbank.boleto], ['boleto log', starkbank.boleto.log],
  ['boleto holmes', starkbank.boletoHolmes], ['boleto holmes log', starkbank.boletoHolmes.log],
  ['boleto payment', starkbank.boletoPayment], ['boleto payment log', starkbank.boletoPayment.log],
  ['brcode payment', starkbank.brcodePayment], ['brcode payment log', starkbank.brcodePayment.log],
  ['darf payment', starkbank.darfPayment], ['darf payment log', starkbank.darfPayment.log],
  ['deposit', starkbank.deposit], ['deposit log', starkbank.deposit.log],
  ['dynamic brcode', starkbank.dynamicBrcode],
  ['event', starkbank.event], ['event attempt', starkbank.event.attempt],
  ['invoice', starkbank.invoice], ['invoice log', starkbank.invoice.log],
  ['invoice pull subscription', starkbank.invoicePullSubscription],
  ['invoice pull subscription log', starkbank.invoicePullSubscription.log],
  ['invoice pull request', starkbank.invoicePullRequest],
  ['invoice pull request log', starkbank.invoicePullRequest.log],
  ['merchant session', starkbank.merchantSession], ['merchant session log', starkbank.merchantSession.log],
  ['merchant purchase', starkbank.merchantPurchase], ['merchant purchase log', starkbank.merchantPurchase.log],
  ['merchant card', starkbank.merchantCard], ['merchant card log', starkbank.merchantCard.log],
  ['merchant installment', starkbank.merchantInstallment],
  ['merchant installment log', starkbank.merchantInstallment.log],
  ['payment request', starkbank.paymentRequest, { centerId: cred.centerId }],
  ['split', starkbank.split], ['split log', starkbank.split.log],
  ['split receiver', starkbank.splitReceiver], ['split receiver log', starkbank.splitReceiver.log],
  ['split profile log', starkbank.splitProfile.log],
  ['tax payment', starkbank.taxPayment], ['tax payment log', starkbank.taxPayment.log],
  ['utility payment', starkbank.utilityPayment], ['utility payment log', starkbank.utilityPayment.log],
  ['transaction', starkbank.transaction],
  ['transfer', starkbank.transfer], ['transfer log', starkbank.transfer.log],
  ['workspace', starkbank.workspace, { user: organization }],
];

for (const [name, sdk, extra] of resources) {
  test(`${name}: two full pages of limit=10, then 150 items`, async () => {
    const ids = new Set();
    let cursor = null;
    for (let i = 0; i < 2; i++) {
      const [page, next] = await sdk.page({ ...extra, limit: 10, cursor });
      assert.strictEqual(page.length, 10);
      assert.ok(next, 'a full page names the next one');
      for (const entity of page) ids.add(entity.id);
      cursor = next;
    }
    assert.strictEqual(ids.size, 20);
    let n = 0;
    for await (const entity of await sdk.query({ ...extra, limit: 150 })) {
      assert.strictEqual(typeof entity.id, 'string');
      n += 1;
    }
    assert.strictEqual(n, 150);
  });
}

test('the seeded history spans the past 60 days, newest first', async () => {
  const [newest] = await starkbank.invoice.page({ limit: 1 });
  const oldest = await starkbank.invoice.query({ limit: 1, before: new Date(Date.now() - 58 * 86400000) });
  let old = null;
  for await (const invoice of oldest) old = invoice;
  assert.ok(old, 'invoices from two months ago');
  assert.ok(new Date(newest[0].created) > new Date(old.created));
  const statuses = new Set();
  for await (const invoice of await starkbank.invoice.query({ limit: 200 })) statuses.add(invoice.status);
  assert.ok(['paid', 'canceled', 'expired'].every((s) => statuses.has(s)), [...statuses].join(','));
});

test('a direct purchase with the saved card that credentials.json names', async () => {
  assert.match(cred.cardId, /^\d{16}$/);
  assert.strictEqual((await starkbank.merchantCard.get(cred.cardId)).status, 'active');
  const purchase = await starkbank.merchantPurchase.create({ amount: 10000, installmentCount: 5, cardId: cred.cardId,
    fundingType: 'credit', challengeMode: 'disabled', holderId: '565656555656', softDescriptor: 'Soft Descriptor',
    tags: ['teste'] });
  assert.strictEqual(purchase.status, 'approved');
  // The SDKs' suites also take a card from a confirmed purchase.
  const [[confirmed]] = await starkbank.merchantPurchase.page({ status: 'confirmed', limit: 1 });
  assert.ok(confirmed.cardId);
});

test('an invoice split between two of the account\'s receivers, paid by a Pix payment, makes its splits', async () => {
  const [receivers] = await starkbank.splitReceiver.page({ limit: 2 });
  assert.strictEqual(receivers.length, 2);
  const [invoice] = await starkbank.invoice.create([new starkbank.Invoice({ amount: 5000, name: 'Split Payer',
    taxId: '012.345.678-90', discounts: [],
    splits: receivers.map((r) => new starkbank.Split({ amount: 100, receiverId: r.id })) })]);
  await starkbank.brcodePayment.create([new starkbank.BrcodePayment({ brcode: invoice.brcode,
    taxId: '20.018.183/0001-80', description: 'Split test' })]);
  let splits = [];
  for (let i = 0; i < 50 && splits.length === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    splits = [];
    for await (const split of await starkbank.split.query({ tags: ['invoice/' + invoice.id] })) splits.push(split);
  }
  assert.strictEqual((await starkbank.invoice.get(invoice.id)).status, 'paid');
  assert.deepStrictEqual(splits.map((s) => s.amount), [100, 100]);
  assert.deepStrictEqual(splits.map((s) => s.receiverId).sort(), receivers.map((r) => r.id).sort());
});

test('seeded receivables the SDKs\' suites change: a created invoice and deposit', async () => {
  const [[invoice]] = await starkbank.invoice.page({ status: 'created', limit: 1 });
  assert.strictEqual((await starkbank.invoice.update(invoice.id, { amount: 4321 })).amount, 4321);
  assert.strictEqual((await starkbank.invoice.update(invoice.id, { expiration: 123456789 })).expiration, 123456789);
  assert.strictEqual((await starkbank.invoice.update(invoice.id, { status: 'canceled' })).status, 'canceled');
  const [[deposit]] = await starkbank.deposit.page({ status: 'created', limit: 1 });
  const reversed = await starkbank.deposit.update(deposit.id, { amount: deposit.amount - 1,
    reversalDisplayDescription: 'Test reversal' });
  assert.strictEqual(reversed.amount, deposit.amount - 1);
});

test('the holder the SDKs\' suites filter by has more sessions and purchases than a page', async () => {
  const holderId = '0123456789012345';
  for (const sdk of [starkbank.merchantSession, starkbank.merchantPurchase]) {
    const three = await all(await sdk.query({ limit: 3, holderId }));
    assert.strictEqual(three.length, 3);
    const ids = new Set();
    let cursor = null;
    for (let i = 0; i < 2; i++) {
      const [page, next] = await sdk.page({ limit: 5, holderId, cursor });
      for (const entity of page) {
        assert.strictEqual(entity.holderId, holderId);
        ids.add(entity.id);
      }
      cursor = next;
    }
    assert.strictEqual(ids.size, 10);
  }
});

test('the saved card the Node suite charges by id, and a webhook the Python suite reads', async () => {
  const purchase = await starkbank.merchantPurchase.create({ amount: 10000, installmentCount: 5,
    cardId: '5052994169077760', fundingType: 'credit', challengeMode: 'disabled', holderId: '123456',
    softDescriptor: 'Test Descriptor', metadata: { userAgent: 'Mozilla/5.0', userIp: '184.82.170.183',
      language: 'pt-BR' } });
  const canceled = await starkbank.merchantPurchase.update(purchase.id, { amount: 0, status: 'canceled' });
  assert.strictEqual(canceled.status, 'canceled');
  const [webhook] = await all(await starkbank.webhook.query());
  assert.ok(webhook, 'the seeded account keeps a webhook');
  assert.strictEqual((await starkbank.webhook.get(webhook.id)).id, webhook.id);
});

test('installments filtered by the purchases they belong to', async () => {
  const purchases = (await all(await starkbank.merchantPurchase.query({ status: 'confirmed', limit: 50 })))
    .filter((p) => p.installmentCount > 1).slice(0, 2);
  assert.strictEqual(purchases.length, 2);
  const ids = purchases.map((p) => p.id);
  const installments = await all(await starkbank.merchantInstallment.query({ purchaseIds: ids }));
  assert.ok(installments.length >= 4);
  for (const i of installments) assert.ok(ids.includes(i.purchaseId), i.purchaseId);
});
