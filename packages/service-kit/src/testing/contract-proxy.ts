import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { freePort, waitForListener } from './free-port.js';
import { stopChild } from './stop-child.js';

export type ContractProxy = {
  /** Where to send requests instead of the service: Prism, forwarding to it. */
  url: string;
  /**
   * The violations of the document Prism has reported since the last call (request or response,
   * warnings included, and every request Prism answered itself: no such path, no credentials,
   * an invalid request or response), each as "<METHOD> <path>: <Prism's message>".
   */
  takeViolations(): Promise<string[]>;
  /** Prism's output so far (the tail), for a failure message. */
  output(): string;
  close(): Promise<void>;
};

const START_TIMEOUT_MS = 30_000;
const MARK_TIMEOUT_MS = 5_000;
const OUTPUT_TAIL_CHARS = 20_000;
// Prism (pino, pretty-printed) writes one line per event: `[HTTP SERVER] get /api/v1/me ⚠ warning
// Violation: response.body …` for each violation, and `… ✖ error Request terminated with error:
// https://stoplight.io/prism/errors#UNAUTHORIZED: …` when it answers a request itself.
const VIOLATION_LINE = /\[HTTP SERVER\]\s+(\w+)\s+(\S+).*?((?:Violation|Request terminated with error):\s*.*)$/;
const ANSI = /\u001b\[[0-9;]*m/g;
const MARK_PATH = '/__contract-proxy-mark';

/**
 * `prism proxy <document> <upstream> --errors` on a free loopback port: every request is checked
 * against the OpenAPI document before it is forwarded and every response before it is returned,
 * and a violation marked as an error is answered by Prism (422 for a request, 500 for a response)
 * instead of passing. Warnings pass through, so `takeViolations()` is the list a test asserts empty;
 * it is read from Prism's log, which also covers callers that are not this process (a shell's
 * curl, a child process).
 */
export async function startContractProxy(options: { document: string; upstream: string }): Promise<ContractProxy> {
  const cli = path.join(path.dirname(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [cli, 'proxy', options.document, options.upstream, '--errors', '--host', '127.0.0.1', '--port', String(port), '--cors', 'false'],
    // Plain text (no colours), and none of the test runner's NODE_OPTIONS (loaders, conditions).
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '', FORCE_COLOR: '0', NO_COLOR: '1' } },
  );
  let output = '';
  let partial = '';
  const violations: string[] = [];
  const marksSeen = new Set<string>();
  const take = (chunk: Buffer) => {
    const text = chunk.toString().replace(ANSI, '');
    output = (output + text).slice(-OUTPUT_TAIL_CHARS);
    const lines = (partial + text).split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      const match = VIOLATION_LINE.exec(line);
      if (match?.[2]!.startsWith(MARK_PATH)) marksSeen.add(match[2]!);
      else if (match) violations.push(`${match[1]!.toUpperCase()} ${match[2]}: ${match[3]!.trim()}`);
    }
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  try {
    await waitForListener(port, { timeoutMs: START_TIMEOUT_MS, gaveUp: () => child.exitCode !== null, describe: () => output });
  } catch (error) {
    await stopChild(child, 'SIGKILL');
    throw new Error(`prism proxy ${options.document} did not start: ${(error as Error).message}`);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    takeViolations: async () => {
      // Prism's log reaches this process through a pipe, after its answer may have: a request for
      // a path no document has, logged after every earlier request, marks where "so far" ends.
      const mark = `${MARK_PATH}-${randomUUID()}`;
      await fetch(`http://127.0.0.1:${port}${mark}`).then((response) => response.arrayBuffer());
      const deadline = Date.now() + MARK_TIMEOUT_MS;
      while (!marksSeen.has(mark)) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`prism never logged ${mark}:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      marksSeen.delete(mark);
      return violations.splice(0);
    },
    output: () => output,
    close: () => stopChild(child, 'SIGTERM'),
  };
}
