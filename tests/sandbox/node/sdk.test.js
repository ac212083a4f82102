// The bank's official Node SDK (npm starkbank, pinned in package-lock.json) against
// `balcao sandbox`, connected by sandbox_sdk.js.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const { starkbank, cred, simulate, all } = require('./sandbox_sdk');

const organization = new starkbank.Organization({
  environment: 'sandbox', id: cred.organizationId,
  privateKey: fs.readFileSync(cred.organizationPrivateKeyPath, 'utf8'),
});
// The SDK throws starkcore's error classes (starkbank.error re-declares its own), so match by
// class name and content.
function isInputErrors(err) {
  return err.constructor.name === 'InputErrors' && Array.isArray(err.errors) && err.errors.length > 0;
}

test('invoice: create, query, page, get, update, cancel, logs, qrcode, pdf', async () => {
  const [invoice] = await starkbank.invoice.create([
    new starkbank.Invoice({ amount: 2500, name: 'Maria Souza', taxId: '337.451.076-08', tags: ['Node-SDK'] }),
    new starkbank.Invoice({ amount: 100, name: 'Maria Souza', taxId: '33745107608', tags: ['node-sdk'] }),
  ]);
  assert.strictEqual(invoice.status, 'created');
  assert.deepStrictEqual(invoice.tags, ['node-sdk']);
  const listed = await all(await starkbank.invoice.query({ limit: 5, tags: ['node-sdk'] }));
  assert.strictEqual(listed.length, 2);
  const [page, cursor] = await starkbank.invoice.page({ limit: 1, tags: ['node-sdk'] });
  assert.strictEqual(page.length, 1);
  assert.ok(cursor);
  const [page2, cursor2] = await starkbank.invoice.page({ limit: 1, tags: ['node-sdk'], cursor });
  assert.strictEqual(page2.length, 1);
  assert.notStrictEqual(page2[0].id, page[0].id);
  assert.ok(cursor2 === null || typeof cursor2 === 'string');
  const got = await starkbank.invoice.get(invoice.id);
  assert.strictEqual(got.amount, 2500);
  const updated = await starkbank.invoice.update(invoice.id, { amount: 3000 });
  assert.strictEqual(updated.amount, 3000);
  const canceled = await starkbank.invoice.update(invoice.id, { status: 'canceled' });
  assert.strictEqual(canceled.status, 'canceled');
  const logs = await all(await starkbank.invoice.log.query({ invoiceIds: [invoice.id] }));
  assert.deepStrictEqual(logs.map((l) => l.type).sort(), ['canceled', 'created', 'updated']);
  const log = await starkbank.invoice.log.get(logs[0].id);
  assert.strictEqual(log.invoice.id, invoice.id);
  const png = await starkbank.invoice.qrcode(invoice.id, { size: 5 });
  assert.strictEqual(png.subarray(1, 4).toString(), 'PNG');
  const pdf = await starkbank.invoice.pdf(invoice.id);
  assert.strictEqual(pdf.subarray(0, 5).toString(), '%PDF-');
});

test('invoice payment sub-resource after the payer pays', async () => {
  const [invoice] = await starkbank.invoice.create([
    new starkbank.Invoice({ amount: 990, name: 'Ana Lima', taxId: '33745107608' })]);
  await simulate('/invoice/pay', { id: invoice.id, name: 'Carlos Payer' });
  const paid = await starkbank.invoice.get(invoice.id);
  assert.strictEqual(paid.status, 'paid');
  const payment = await starkbank.invoice.payment(invoice.id);
  assert.strictEqual(payment.name, 'Carlos Payer');
  assert.strictEqual(payment.amount, 990);
});

test('dynamic brcode, deposit and ledger: a Pix sale', async () => {
  const before = (await starkbank.balance.get()).amount;
  const [brcode] = await starkbank.dynamicBrcode.create([new starkbank.DynamicBrcode({ amount: 4321, tags: ['sale-7'] })]);
  const got = await starkbank.dynamicBrcode.get(brcode.uuid);
  assert.strictEqual(got.id, brcode.id);
  const listed = await all(await starkbank.dynamicBrcode.query({ uuids: [brcode.uuid] }));
  assert.strictEqual(listed.length, 1);
  await simulate('/dynamic-brcode/pay', { brcode: brcode.id });
  const deposits = await all(await starkbank.deposit.query({ tags: ['dynamic-brcode/' + brcode.uuid] }));
  assert.strictEqual(deposits.length, 1);
  assert.strictEqual((await starkbank.balance.get()).amount, before + 4321);
  const deposit = await starkbank.deposit.get(deposits[0].id);
  const reversed = await starkbank.deposit.update(deposit.id, { amount: 0 });
  assert.strictEqual(reversed.amount, 0);
  const dlogs = await all(await starkbank.deposit.log.query({ depositIds: [deposit.id] }));
  assert.ok(dlogs.some((l) => l.type === 'reversed'));
  const transactions = await all(await starkbank.transaction.query({ limit: 2 }));
  assert.strictEqual(transactions[0].source, 'deposit/' + deposit.id);
  assert.strictEqual((await starkbank.transaction.get(transactions[0].id)).amount, -4321);
});

test('workspace with organization credentials', async () => {
  const workspace = await starkbank.workspace.create({ username: 'node-sdk-shop', name: 'Node SDK Shop', user: organization });
  assert.strictEqual(workspace.username, 'node-sdk-shop');
  const listed = await all(await starkbank.workspace.query({ user: organization }));
  assert.ok(listed.some((w) => w.id === workspace.id));
  const got = await starkbank.workspace.get(workspace.id, { user: organization });
  assert.strictEqual(got.name, 'Node SDK Shop');
});

test('webhook, events, attempts and event.parse of a delivery signed by the sandbox', async () => {
  const webhook = await starkbank.webhook.create({ url: 'http://127.0.0.1:1/unreachable', subscriptions: ['deposit'] });
  assert.deepStrictEqual(webhook.subscriptions, ['deposit']);
  assert.strictEqual((await starkbank.webhook.get(webhook.id)).url, webhook.url);
  assert.ok((await all(await starkbank.webhook.query())).some((w) => w.id === webhook.id));
  await simulate('/deposit', { amount: 777, name: 'Passive Payer' });
  await simulate('/flush', {});
  const { deliveries } = await simulate('/webhook-deliveries');
  const delivery = deliveries.find((d) => d.webhookId === webhook.id);
  assert.ok(delivery);
  const event = await starkbank.event.parse({ content: delivery.body, signature: delivery.signature });
  assert.strictEqual(event.subscription, 'deposit');
  assert.strictEqual(event.log.deposit.amount, 777);
  await assert.rejects(
    starkbank.event.parse({ content: delivery.body.replace('777', '778'), signature: delivery.signature }),
    (err) => err.constructor.name === 'InvalidSignatureError');
  // An event is one per log for all the workspace's webhooks: the seeded account's own webhook
  // (docs/sandbox.md, "A seeded account") received it, so it counts as delivered.
  const events = await all(await starkbank.event.query({ isDelivered: true, limit: 10 }));
  assert.ok(events.some((e) => e.id === event.id));
  const attempts = await all(await starkbank.event.attempt.query({ eventIds: [event.id] }));
  assert.ok(attempts.length >= 1);
  assert.strictEqual((await starkbank.event.attempt.get(attempts[0].id)).eventId, event.id);
  const marked = await starkbank.event.update(event.id, { isDelivered: true });
  assert.strictEqual(marked.isDelivered, true);
  await starkbank.event.delete(event.id);
  await starkbank.webhook.delete(webhook.id);
  await assert.rejects(starkbank.webhook.get(webhook.id),
    (err) => isInputErrors(err) && err.errors[0].code === 'invalidWebhookId');
});

test('input errors come back as InputErrors with the right code', async () => {
  await assert.rejects(
    starkbank.invoice.create([new starkbank.Invoice({ amount: 100, name: 'Bad Tax Id', taxId: '000.000.000-00' })]),
    (err) => isInputErrors(err) && err.errors[0].code === 'invalidTaxId');
  await assert.rejects(starkbank.invoice.get('0'),
    (err) => isInputErrors(err) && err.errors[0].code === 'invalidInvoice');
});
