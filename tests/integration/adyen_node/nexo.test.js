// Adyen's Node API library (TerminalLocalAPI, NexoCrypto), unmodified, as a store's cash
// register would use it against the box: payment (Pix, paid by the sandbox's payer), the same
// ServiceID again, TransactionStatus, Abort of a payment in progress, and Reversal (with its
// refund slip). Every answer the box sent is compared with what the library's models decoded
// from it: a field they drop (MaskedPAN where they read MaskedPan) fails the test.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const { Client, TerminalLocalAPI } = require('@adyen/api-library');

const key = JSON.parse(fs.readFileSync(process.env.NEXO_KEY, 'utf8'));
const client = new Client({ apiKey: 'not-used-locally', environment: 'TEST', certificatePath: process.env.NEXO_CERT });
// The library appends ":8443/nexo/" to this; the fragment keeps the box's own port and path.
client.config.terminalApiLocalEndpoint = process.env.NEXO_URL + '#';
const terminal = new TerminalLocalAPI(client);
// Every answer as the box sent it (the library's own decryption, observed, not changed), to find
// any field the library's models drop when they decode it.
const sent = [];
const decrypt = terminal.nexoCrypto.decrypt.bind(terminal.nexoCrypto);
terminal.nexoCrypto.decrypt = (message, securityKey) => {
  const plaintext = decrypt(message, securityKey);
  sent.push(JSON.parse(plaintext));
  return plaintext;
};

// The paths of `raw` (what the box sent) that `decoded` (the library's model objects) lacks.
function dropped(raw, decoded, path = '') {
  if (raw === null || typeof raw !== 'object') return [];
  if (decoded === null || decoded === undefined || typeof decoded !== 'object') return [path];
  return Object.keys(raw).flatMap((key) => (decoded[key] === undefined ? [path + '.' + key]
                                                                        : dropped(raw[key], decoded[key], path + '.' + key)));
}
// Sends `request` and checks that the library's models kept every field of the box's answer.
async function ask(request) {
  const before = sent.length;
  const answer = await terminal.request(request, securityKey);
  assert.strictEqual(sent.length, before + 1, 'one answer decrypted');
  assert.deepStrictEqual(dropped(sent[before], answer), [], 'fields the library did not read');
  return answer;
}
const textOf = (receipt) => receipt.OutputContent.OutputText.map((line) => line.Text).join('\n');
const securityKey = { AdyenCryptoVersion: 1, KeyIdentifier: key.keyIdentifier, KeyVersion: key.keyVersion,
                      Passphrase: key.passphrase };

const header = (category, serviceId) => ({ ProtocolVersion: '3.0', MessageClass: 'Service', MessageCategory: category,
  MessageType: 'Request', ServiceID: serviceId, SaleID: key.saleId, POIID: key.poiId });
const payment = (serviceId, amount) => ({ SaleToPOIRequest: { MessageHeader: header('Payment', serviceId),
  PaymentRequest: {
    SaleData: { SaleTransactionID: { TransactionID: 'cupom-' + serviceId, TimeStamp: new Date().toISOString() },
                SaleToAcquirerData: 'method=pix' },
    PaymentTransaction: { AmountsReq: { Currency: 'BRL', RequestedAmount: amount } } } } });
const reference = (serviceId) => ({ MessageCategory: 'Payment', ServiceID: serviceId, SaleID: key.saleId });

test('payment, repeat, status, abort and reversal through the unmodified library', async () => {
  const paid = (await ask(payment('101', 12.34))).SaleToPOIResponse.PaymentResponse;
  assert.strictEqual(paid.Response.Result, 'Success');
  assert.strictEqual(paid.PaymentResult.AmountsResp.AuthorizedAmount, 12.34);
  assert.match(paid.Response.AdditionalResponse, /tPag=17/);
  // One copy each: the merchant's is not the customer's slip twice over (a Pix slip has one copy).
  const cashier = paid.PaymentReceipt.filter((r) => r.DocumentQualifier === 'CashierReceipt');
  const customer = paid.PaymentReceipt.filter((r) => r.DocumentQualifier === 'CustomerReceipt');
  assert.strictEqual(cashier.length, 1);
  assert.strictEqual(customer.length, 1);
  assert.strictEqual((textOf(customer[0]).match(/PIX RECEBIDO/g) || []).length, 1, textOf(customer[0]));
  assert.doesNotMatch(textOf(customer[0]), /PAGUE COM PIX/, 'the QR charge slip is not the receipt');
  const sale = paid.POIData.POITransactionID.TransactionID;

  const again = (await ask(payment('101', 12.34))).SaleToPOIResponse.PaymentResponse;
  assert.strictEqual(again.POIData.POITransactionID.TransactionID, sale);

  const status = (await ask({ SaleToPOIRequest: { MessageHeader: header('TransactionStatus', '102'),
    TransactionStatusRequest: { MessageReference: reference('101') } } }))
    .SaleToPOIResponse.TransactionStatusResponse;
  assert.strictEqual(status.Response.Result, 'Success');
  assert.strictEqual(
    status.RepeatedMessageResponse.RepeatedResponseMessageBody.PaymentResponse.POIData.POITransactionID.TransactionID,
    sale);

  // Aborted 1 s into a payment the payer would pay after 2 s.
  const pending = terminal.request(payment('103', 5), securityKey);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await terminal.request({ SaleToPOIRequest: { MessageHeader: header('Abort', '104'),
    AbortRequest: { AbortReason: 'MerchantAbort', MessageReference: reference('103') } } }, securityKey);
  const aborted = (await pending).SaleToPOIResponse.PaymentResponse.Response;
  assert.strictEqual(aborted.Result, 'Failure');
  assert.strictEqual(aborted.ErrorCondition, 'Aborted');

  const reversal = (await ask({ SaleToPOIRequest: { MessageHeader: header('Reversal', '105'),
    ReversalRequest: { ReversalReason: 'MerchantCancel',
      OriginalPOITransaction: { POITransactionID: { TransactionID: sale, TimeStamp: new Date().toISOString() } } } } }))
    .SaleToPOIResponse.ReversalResponse;
  assert.strictEqual(reversal.Response.Result, 'Success');
  assert.strictEqual(reversal.ReversedAmount, 12.34);
  // The refund slip comes with the answer, for the register to print.
  const refund = reversal.PaymentReceipt.find((r) => r.DocumentQualifier === 'CustomerReceipt');
  assert.ok(refund, 'a CustomerReceipt in the reversal answer');
  assert.match(textOf(refund), /12,34/);
});
