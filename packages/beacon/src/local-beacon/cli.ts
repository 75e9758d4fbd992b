#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { startLocalBeacon } from './local-beacon.js';

/**
 * `raffle-local-beacon --port 8081 --period 3 --key-file .data/local-beacon.json`: runs the local
 * beacon until SIGINT/SIGTERM and prints, as one JSON line, the URL and the chain to pin.
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    period: { type: 'string', default: '3' },
    'genesis-time': { type: 'string' },
    'key-file': { type: 'string' },
  },
});

const beacon = await startLocalBeacon({
  port: Number(values.port),
  host: values.host,
  period: Number(values.period),
  ...(values['genesis-time'] === undefined ? {} : { genesisTime: Number(values['genesis-time']) }),
  ...(values['key-file'] === undefined ? {} : { keyFile: values['key-file'] }),
});
process.stdout.write(JSON.stringify({ url: beacon.url, chain: beacon.chain }) + '\n');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void beacon.close().then(() => process.exit(0));
  });
}
