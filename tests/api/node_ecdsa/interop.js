// Interop driver for tests/api/crypto_interop_test.cc, run with node from this folder.
// stdin: {"privateKeyPem", "publicKeyPem", "messages": [..], "signatures": [..]} (ours)
// stdout: what the bank's official library (starkbank-ecdsa) makes of them, plus a key
// pair and signatures of its own for the C++ side to check.
"use strict";
const crypto = require("crypto");
const ecdsa = require("starkbank-ecdsa");

// starkbank-ecdsa 1.2.0 hedges RFC 6979 with 32 random bytes (RFC 6979 §3.6). With that
// entropy empty it is plain RFC 6979, which is what the C++ side uses.
function withoutHedging(fn) {
  const randomBytes = crypto.randomBytes;
  crypto.randomBytes = () => Buffer.alloc(0);
  try {
    return fn();
  } finally {
    crypto.randomBytes = randomBytes;
  }
}

const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const privateKey = ecdsa.PrivateKey.fromPem(input.privateKeyPem);
const publicKey = ecdsa.PublicKey.fromPem(input.publicKeyPem);

const own = new ecdsa.PrivateKey();
const out = {
  publicKeyPemFromPrivate: privateKey.publicKey().toPem(),
  // Node signs the same messages with the same key: as it ships (hedged nonces)...
  signatures: input.messages.map((m) => ecdsa.Ecdsa.sign(m, privateKey).toBase64()),
  // ...and in plain RFC 6979, which must give exactly our bytes.
  deterministicSignatures: withoutHedging(() =>
    input.messages.map((m) => ecdsa.Ecdsa.sign(m, privateKey).toBase64())),
  // Node verifies our signatures; and a signature over a different message must fail.
  verified: input.messages.map((m, i) =>
    ecdsa.Ecdsa.verify(m, ecdsa.Signature.fromBase64(input.signatures[i]), publicKey)),
  crossChecked: input.messages.map((m, i) =>
    ecdsa.Ecdsa.verify(m + "x", ecdsa.Signature.fromBase64(input.signatures[i]), publicKey)),
  own: {
    privateKeyPem: own.toPem(),
    publicKeyPem: own.publicKey().toPem(),
    signatures: input.messages.map((m) => ecdsa.Ecdsa.sign(m, own).toBase64()),
  },
};
process.stdout.write(JSON.stringify(out));
