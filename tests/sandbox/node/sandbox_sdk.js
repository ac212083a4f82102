// Shared by the official-SDK tests: points the bank's Node SDK at a running `balcao sandbox`
// (read from $SANDBOX_DATA_DIR/credentials.json). Only where the SDK connects changes: an
// https.Agent whose createConnection dials the sandbox's HTTPS port and trusts its
// self-signed certificate. Also the simulation API (plain HTTP, outside /v2: the payer's
// side) and a helper that drains the SDK's async iterables.
'use strict';
const fs = require('node:fs');
const http = require('node:http');
const https = require('node:https');
const tls = require('node:tls');
const starkbank = require('starkbank');

const cred = JSON.parse(fs.readFileSync(process.env.SANDBOX_DATA_DIR + '/credentials.json', 'utf8'));
const httpsPort = Number(new URL(cred.httpsUrl).port);
const ca = fs.readFileSync(cred.tlsCertPath);
const agent = new https.Agent({ keepAlive: true });
agent.createConnection = () => tls.connect({ host: '127.0.0.1', port: httpsPort, ca, servername: 'localhost' });
starkbank.setHttpsAgent(agent);

const project = new starkbank.Project({
  environment: 'sandbox', id: cred.projectId, privateKey: fs.readFileSync(cred.privateKeyPath, 'utf8'),
});
starkbank.user = project;

function simulate(path, body) {
  const url = new URL(cred.simulationUrl + path);
  const data = body === undefined ? '' : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: body === undefined ? 'GET' : 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) } }, (res) => {
      let text = '';
      res.on('data', (c) => { text += c; });
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(text))));
    });
    req.on('error', reject);
    req.end(data);
  });
}

async function all(iterable) {
  const out = [];
  for await (const item of iterable) out.push(item);
  return out;
}

module.exports = { starkbank, cred, project, simulate, all };
