// The official Node SDK's half of bench/api/node/side_by_side.sh: creates N invoices in
// batches of 100 and lists them back (the SDK's query, following the cursor), against the
// same sandbox as `balcao api`, over HTTPS. Prints CPU per item of each phase (user + system,
// process.cpuUsage) and the process's peak RSS as JSON.
// usage: SANDBOX_DATA_DIR=... node side_by_side.js N TAG
'use strict';
const { starkbank } = require('./sandbox_sdk.js');

async function main() {
  const n = Number(process.argv[2]);
  const tag = process.argv[3];
  const invoices = [];
  for (let i = 0; i < n; i++) {
    invoices.push(new starkbank.Invoice({ amount: 1000 + (i % 9000), name: 'Maria da Silva',
      taxId: '337.451.076-08', tags: [tag] }));
  }
  let start = process.cpuUsage();
  let wall = Date.now();
  let created = 0;
  for (let i = 0; i < n; i += 100) created += (await starkbank.invoice.create(invoices.slice(i, i + 100))).length;
  const create = process.cpuUsage(start);
  const createWall = Date.now() - wall;
  start = process.cpuUsage();
  wall = Date.now();
  let listed = 0;
  for await (const invoice of await starkbank.invoice.query({ tags: [tag] })) if (invoice.id) listed++;
  const list = process.cpuUsage(start);
  const listWall = Date.now() - wall;
  console.log(JSON.stringify({
    created, listed,
    create_cpu_us_per_item: (create.user + create.system) / created, create_wall_ms: createWall,
    list_cpu_us_per_item: (list.user + list.system) / listed, list_wall_ms: listWall,
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
  }));
}

main().catch((error) => { console.error(error); process.exit(1); });
