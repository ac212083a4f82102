// Adyen's Node API library (TerminalLocalAPI, NexoCrypto), unmodified, as a store's cash
// register would use it against the box: payment (Pix, paid by the sandbox's payer), the same
// ServiceID again, TransactionStatus, Abort of a payment in progress, and Reversal.
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
  const paid = (await terminal.request(payment('101', 12.34), securityKey)).SaleToPOIResponse.PaymentResponse;
  assert.strictEqual(paid.Response.Result, 'Success');
  assert.strictEqual(paid.PaymentResult.AmountsResp.AuthorizedAmount, 12.34);
  assert.match(paid.Response.AdditionalResponse, /tPag=17/);
  const sale = paid.POIData.POITransactionID.TransactionID;

  const again = (await terminal.request(payment('101', 12.34), securityKey)).SaleToPOIResponse.PaymentResponse;
  assert.strictEqual(again.POIData.POITransactionID.TransactionID, sale);

  const status = (await terminal.request({ SaleToPOIRequest: { MessageHeader: header('TransactionStatus', '102'),
    TransactionStatusRequest: { MessageReference: reference('101') } } }, securityKey))
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

  const reversal = (await terminal.request({ SaleToPOIRequest: { MessageHeader: header('Reversal', '105'),
    ReversalRequest: { ReversalReason: 'MerchantCancel',
      OriginalPOITransaction: { POITransactionID: { TransactionID: sale, TimeStamp: new Date().toISOString() } } } } },
  securityKey)).SaleToPOIResponse.ReversalResponse;
  assert.strictEqual(reversal.Response.Result, 'Success');
  assert.strictEqual(reversal.ReversedAmount, 12.34);
});
