// The official Node SDK (npm starkbank, pinned in package-lock.json) against the resource
// families added after the sandbox core: card acquiring, transfers, payments, previews,
// payment requests, boletos, holmes, splits, invoice pull subscriptions and requests,
// connected by sandbox_sdk.js like sdk.test.js.
// The sandbox clock is advanced by well under the 5-minute Access-Time window in total,
// because the SDK signs with the real time.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { starkbank, cred, simulate, all } = require('./sandbox_sdk');

const advance = (seconds) => simulate('/clock', { advance: seconds });
// Resources built on starkcore throw its InputErrors class, the others starkbank's: check the shape.
const inputError = (code) => (err) => err.status === 400 && Array.isArray(err.errors) && err.errors[0].code === code;

// Arrecadação bar code (segment, value in cents) with its mod-10 general check digit.
function utilityBarCode(segment, cents) {
  const body = '8' + segment + '6' + String(cents).padStart(11, '0') + '0123' + '0'.repeat(20) + '12345';
  let sum = 0;
  [...body].reverse().forEach((c, i) => {
    const p = Number(c) * (i % 2 === 0 ? 2 : 1);
    sum += Math.floor(p / 10) + (p % 10);
  });
  const dv = (10 - (sum % 10)) % 10;
  return body.slice(0, 3) + dv + body.slice(3);
}

const holder = {
  holderName: 'Kaladin Stormblessed', holderEmail: 'kaladin@example.com', holderPhone: '11985923451',
  billingCountryCode: 'BRA', billingCity: 'Sao Paulo', billingStateCode: 'SP',
  billingStreetLine1: 'Rua Casterly Rock, 2000', billingStreetLine2: '1 andar', billingZipCode: '01450-000',
  metadata: { userAgent: 'Mozilla', userIp: '255.255.255.255', language: 'pt-BR', timezoneOffset: 3 },
};
const card = (number) => ({ ...holder, cardNumber: number, cardExpiration: '2035-01', cardSecurityCode: '123',
  fundingType: 'credit', amount: 5000, installmentCount: 1 });

async function newSession() {
  return starkbank.merchantSession.create(new starkbank.MerchantSession({
    allowedFundingTypes: ['debit', 'credit'], allowedInstallments: [{ totalAmount: 5000, count: 1 }],
    expiration: 3600, challengeMode: 'enabled', tags: ['Node-Cards'],
  }));
}

test('card acquiring: session, purchase, 3-D Secure, saved card, reversal, cards, installments, logs', async () => {
  const session = await newSession();
  assert.strictEqual(session.uuid.length, 32);
  assert.strictEqual(session.status, 'active');
  assert.strictEqual((await starkbank.merchantSession.get(session.id)).uuid, session.uuid);
  assert.ok((await all(await starkbank.merchantSession.query({ tags: ['node-cards'] }))).some((s) => s.id === session.id));
  const approved = await starkbank.merchantSession.purchase(session.uuid, card('4242424242424242'));
  assert.strictEqual(approved.status, 'approved');
  assert.strictEqual(approved.cardEnding, '4242');

  const challenged = await starkbank.merchantSession.purchase((await newSession()).uuid, card('5500000000000004'));
  assert.strictEqual(challenged.status, 'pending');
  assert.ok(challenged.challengeUrl.includes('/sandbox/challenge/' + challenged.id));
  await simulate('/challenge/pass', { id: challenged.id });
  assert.strictEqual((await starkbank.merchantPurchase.get(challenged.id)).status, 'approved');

  const denied = await starkbank.merchantSession.purchase((await newSession()).uuid, card('4000000000009995'));
  assert.strictEqual(denied.status, 'denied');
  await assert.rejects(starkbank.merchantSession.purchase(session.uuid, { ...card('4242424242424241') }),
    inputError('invalidCardNumber'));

  const direct = await starkbank.merchantPurchase.create(new starkbank.MerchantPurchase({
    ...holder, amount: 1500, cardId: approved.cardId, fundingType: 'credit', installmentCount: 1,
  }));
  assert.strictEqual(direct.status, 'approved');
  await advance(31);
  assert.strictEqual((await starkbank.merchantPurchase.get(approved.id)).status, 'confirmed');
  const partial = await starkbank.merchantPurchase.update(approved.id, { status: 'reversed', amount: 2000 });
  assert.strictEqual(partial.amount, 2000);
  const voided = await starkbank.merchantPurchase.update(approved.id, { status: 'reversed', amount: 0 });
  assert.strictEqual(voided.status, 'voided');
  const plogs = await all(await starkbank.merchantPurchase.log.query({ purchaseIds: [approved.id] }));
  assert.deepStrictEqual(plogs.map((l) => l.type), ['voided', 'reversed', 'confirmed', 'approved']);
  assert.strictEqual((await starkbank.merchantPurchase.log.get(plogs[0].id)).purchase.id, approved.id);

  const cards = await all(await starkbank.merchantCard.query({ limit: 10 }));
  assert.ok(cards.some((c) => c.id === approved.cardId && c.network === 'visa' && c.ending === '4242'));
  const saved = await starkbank.merchantCard.get(approved.cardId);
  assert.strictEqual(saved.expiration, '2035-02-01T02:59:59.999999+00:00');
  assert.ok((await all(await starkbank.merchantCard.log.query({ cardIds: [saved.id] }))).length >= 1);
  const installments = await all(await starkbank.merchantInstallment.query({ limit: 20 }));
  assert.ok(installments.some((i) => i.purchaseId === approved.id && i.status === 'voided'));
  assert.ok((await all(await starkbank.merchantSession.log.query({ types: ['success'] }))).length >= 2);
});

test('transfers and payments: create, query, get, cancel, pdf, logs, previews, requests', async () => {
  await simulate('/deposit', { amount: 1000000 });
  const [transfer, scheduled] = await starkbank.transfer.create([
    new starkbank.Transfer({ amount: 1234, bankCode: '20018183', branchCode: '0001', accountNumber: '10000-0',
      name: 'Jon Snow', taxId: '012.345.678-90', tags: ['node-transfer'] }),
    new starkbank.Transfer({ amount: 55, bankCode: '341', branchCode: '0001', accountNumber: '10000-0',
      name: 'Jon Snow', taxId: '012.345.678-90', scheduled: '2099-01-05', externalId: 'node-scheduled' }),
  ]);
  assert.strictEqual(transfer.status, 'created');
  assert.strictEqual((await starkbank.transfer.delete(scheduled.id)).status, 'canceled');
  await assert.rejects(starkbank.transfer.create([new starkbank.Transfer({ amount: 1, bankCode: '20018183',
    branchCode: '0001', accountNumber: '1-0', name: 'Dup', taxId: '012.345.678-90', externalId: 'node-scheduled' })]),
  inputError('invalidExternalId'));

  const [boleto] = await starkbank.boleto.create([new starkbank.Boleto({ amount: 3000, name: 'Arya Stark',
    taxId: '012.345.678-90', streetLine1: 'Rua A, 1', streetLine2: '', district: 'Centro', city: 'Sao Paulo',
    stateCode: 'SP', zipCode: '01000-000' })]);
  const [invoice] = await starkbank.invoice.create([new starkbank.Invoice({ amount: 700, name: 'Arya Stark',
    taxId: '012.345.678-90' })]);
  const [brcodePayment, toCancel] = await starkbank.brcodePayment.create([
    new starkbank.BrcodePayment({ brcode: invoice.brcode, taxId: '012.345.678-90', description: 'Node pays invoice' }),
    new starkbank.BrcodePayment({ brcode: invoice.brcode, taxId: '012.345.678-90', description: 'Node cancels this',
      scheduled: '2099-01-05' }),
  ]);
  assert.strictEqual((await starkbank.brcodePayment.update(toCancel.id, { status: 'canceled' })).status, 'canceled');
  const [boletoPayment] = await starkbank.boletoPayment.create([new starkbank.BoletoPayment({ line: boleto.line,
    taxId: '012.345.678-90', description: 'Node pays a boleto' })]);
  assert.strictEqual(boletoPayment.amount, 3000);
  const [utility] = await starkbank.utilityPayment.create([new starkbank.UtilityPayment({
    barCode: utilityBarCode(2, 4321), description: 'Node water bill' })]);
  const [tax] = await starkbank.taxPayment.create([new starkbank.TaxPayment({
    barCode: utilityBarCode(5, 999), description: 'Node federal tax' })]);
  const [darf] = await starkbank.darfPayment.create([new starkbank.DarfPayment({ revenueCode: '1240',
    taxId: '012.345.678-90', competence: '2020-09-01', referenceNumber: '2340978970', nominalAmount: 1234,
    fineAmount: 12, interestAmount: 34, due: '2099-10-28', description: 'Node DARF payment' })]);
  assert.strictEqual(darf.amount, 1280);
  const [toDelete] = await starkbank.utilityPayment.create([new starkbank.UtilityPayment({
    barCode: utilityBarCode(3, 50), description: 'Node deletes it', scheduled: '2099-01-05' })]);
  assert.strictEqual((await starkbank.utilityPayment.delete(toDelete.id)).status, 'canceled');

  await advance(12);
  assert.strictEqual((await starkbank.transfer.get(transfer.id)).status, 'success');
  assert.ok((await all(await starkbank.transfer.query({ tags: ['node-transfer'] }))).length === 1);
  const [page] = await starkbank.transfer.page({ limit: 1 });
  assert.strictEqual(page.length, 1);
  assert.strictEqual((await starkbank.transfer.pdf(transfer.id)).subarray(0, 5).toString(), '%PDF-');
  const tlogs = await all(await starkbank.transfer.log.query({ transferIds: [transfer.id] }));
  assert.deepStrictEqual(tlogs.map((l) => l.type), ['success', 'processing', 'created']);
  assert.strictEqual((await starkbank.transfer.log.get(tlogs[0].id)).transfer.id, transfer.id);
  assert.strictEqual((await starkbank.invoice.get(invoice.id)).status, 'paid');
  assert.strictEqual((await starkbank.boleto.get(boleto.id)).status, 'paid');
  for (const [sdk, payment] of [[starkbank.brcodePayment, brcodePayment], [starkbank.boletoPayment, boletoPayment],
    [starkbank.utilityPayment, utility], [starkbank.taxPayment, tax], [starkbank.darfPayment, darf]]) {
    assert.strictEqual((await sdk.get(payment.id)).status, 'success');
    assert.strictEqual((await sdk.pdf(payment.id)).subarray(0, 5).toString(), '%PDF-');
    const logs = await all(await sdk.log.query({ paymentIds: [payment.id] }));
    assert.deepStrictEqual(logs.map((l) => l.type), ['success', 'processing', 'created']);
    assert.ok((await all(await sdk.query({ limit: 5 }))).length >= 1);
  }
  await assert.rejects(starkbank.darfPayment.delete(darf.id), inputError('invalidAction'));

  const previews = await starkbank.paymentPreview.create([
    new starkbank.PaymentPreview({ id: (await starkbank.invoice.create([new starkbank.Invoice({ amount: 100,
      name: 'Preview Me', taxId: '012.345.678-90' })]))[0].brcode }),
    new starkbank.PaymentPreview({ id: utilityBarCode(4, 777) }),
  ]);
  assert.deepStrictEqual(previews.map((p) => p.type), ['brcode-payment', 'utility-payment']);
  assert.strictEqual(previews[1].payment.amount, 777);

  const [request] = await starkbank.paymentRequest.create([new starkbank.PaymentRequest({ centerId: '5967314465849344',
    payment: new starkbank.Transfer({ amount: 200, bankCode: '20018183', branchCode: '0001',
      accountNumber: '10000-0', name: 'Jon Snow', taxId: '012.345.678-90' }), tags: ['node'] })]);
  assert.strictEqual(request.type, 'transfer');
  assert.strictEqual(request.status, 'pending');
  const requests = await all(await starkbank.paymentRequest.query({ centerId: '5967314465849344' }));
  assert.strictEqual(requests.length, 1);
  assert.strictEqual(requests[0].payment.amount, 200);
});

test('boletos, holmes, splits, pull subscriptions and requests', async () => {
  await simulate('/boleto/autopay', { percent: 0 });
  const [receiver] = await starkbank.splitReceiver.create([new starkbank.SplitReceiver({ name: 'Sansa Stark',
    taxId: '012.345.678-90', bankCode: '18236120', branchCode: '0001', accountNumber: '10000-0',
    accountType: 'checking' })]);
  assert.strictEqual((await starkbank.splitReceiver.get(receiver.id)).name, 'Sansa Stark');
  const [profile] = await starkbank.splitProfile.put([new starkbank.SplitProfile({ interval: 'day', delay: 0 })]);
  assert.strictEqual((await starkbank.splitProfile.get(profile.id)).interval, 'day');
  // The Node SDK's Boleto has no `splits` (its Invoice has): splits are covered by the C++ tests.
  const [boleto, other] = await starkbank.boleto.create([
    new starkbank.Boleto({ amount: 1000, name: 'Arya Stark', taxId: '012.345.678-90', streetLine1: 'Rua A, 1',
      streetLine2: '', district: 'Centro', city: 'Sao Paulo', stateCode: 'SP', zipCode: '01000-000', tags: ['node'] }),
    new starkbank.Boleto({ amount: 500, name: 'Arya Stark', taxId: '012.345.678-90', streetLine1: 'Rua A, 1',
      streetLine2: '', district: 'Centro', city: 'Sao Paulo', stateCode: 'SP', zipCode: '01000-000' }),
  ]);
  assert.strictEqual((await starkbank.boleto.pdf(boleto.id, { layout: 'booklet' })).subarray(0, 5).toString(), '%PDF-');
  await simulate('/boleto/pay', { line: boleto.line, name: 'Node Payer' });
  assert.strictEqual((await starkbank.boleto.get(boleto.id)).status, 'paid');
  assert.ok((await all(await starkbank.boleto.query({ tags: ['node'], status: 'paid' }))).length === 1);
  assert.deepStrictEqual(await all(await starkbank.split.query({ receiverIds: [receiver.id] })), []);
  assert.strictEqual((await starkbank.boleto.delete(other.id)).status, 'canceled');
  await assert.rejects(starkbank.boleto.delete(other.id), inputError('invalidBoleto'));
  const [holmes] = await starkbank.boletoHolmes.create([new starkbank.BoletoHolmes({ boletoId: boleto.id })]);
  assert.strictEqual(holmes.status, 'solving');
  assert.strictEqual((await starkbank.boletoHolmes.get(holmes.id)).boletoId, boleto.id);
  assert.ok((await all(await starkbank.boleto.log.query({ boletoIds: [boleto.id] }))).some((l) => l.type === 'paid'));

  const [subscription] = await starkbank.invoicePullSubscription.create([new starkbank.InvoicePullSubscription({
    displayDescription: 'Gym membership', externalId: 'node-gym', interval: 'month', name: 'Arya Stark',
    pullMode: 'manual', pullRetryLimit: 3, referenceCode: 'node-contract', start: '2099-01-01',
    taxId: '012.345.678-90', type: 'qrcode', amount: 5000 })]);
  assert.strictEqual(subscription.status, 'created');
  await advance(60);
  assert.strictEqual((await starkbank.invoicePullSubscription.get(subscription.id)).status, 'active');
  const [invoice] = await starkbank.invoice.create([new starkbank.Invoice({ amount: 5000, name: 'Arya Stark',
    taxId: '012.345.678-90' })]);
  const [request] = await starkbank.invoicePullRequest.create([new starkbank.InvoicePullRequest({
    subscriptionId: subscription.id, invoiceId: invoice.id, due: '2099-02-01', attemptType: 'default' })]);
  assert.strictEqual(request.status, 'pending');
  assert.strictEqual((await starkbank.invoicePullRequest.cancel(request.id)).status, 'canceled');
  assert.strictEqual((await starkbank.invoicePullSubscription.cancel(subscription.id)).status, 'canceled');
  await simulate('/boleto/autopay', { percent: 90 });
});
