#!/usr/bin/env node
import { runVerifyAllowlist } from './allowlist-verdict.js';

process.exitCode = await runVerifyAllowlist(process.argv.slice(2), process.env, {
  fetch: globalThis.fetch,
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
});
