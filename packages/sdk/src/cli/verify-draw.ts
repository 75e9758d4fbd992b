#!/usr/bin/env node
import { runVerifyDraw } from './draw-verdict.js';

process.exitCode = await runVerifyDraw(process.argv.slice(2), process.env, {
  fetch: globalThis.fetch,
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
});
