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
  /** How many requests Prism has received (so a test can tell that its traffic went through it). */
  requestsReceived(): number;
  /** Prism's output so far (the tail), for a failure message. */
  output(): string;
  close(): Promise<void>;
};

const START_TIMEOUT_MS = 30_000;
const MARK_TIMEOUT_MS = 5_000;
const OUTPUT_TAIL_CHARS = 20_000;
// Prism (pino, pretty-printed) writes one line per event. A request opens with `[HTTP SERVER] get
// /api/v1/me ℹ info Request received`; a violation Prism lets through (a warning, such as a status
// the document does not list) follows as `[VALIDATOR] ⚠ warning Violation: response …`; one it
// answers itself (--errors) as `[HTTP SERVER] get /api/v1/me ✖ error Request terminated with error:
// https://stoplight.io/prism/errors#VIOLATIONS: …` (or #UNAUTHORIZED, #NO_PATH_MATCHED_ERROR, …),
// its details in the body it answers with.
const REQUEST_LINE = /\[HTTP SERVER\]\s+(\w+)\s+(\S+)\s.*Request received/;
const TERMINATED_LINE = /\[HTTP SERVER\]\s+(\w+)\s+(\S+)\s.*(Request terminated with error:\s*.*)$/;
const VALIDATOR_LINE = /\[VALIDATOR\].*(Violation:\s*.*)$/;
const ANSI = /\u001b\[[0-9;]*m/g;
const MARK_PATH = '/__contract-proxy-mark';

/**
 * `prism proxy <document> <upstream> --errors` on a free loopback port: every request is checked
 * against the OpenAPI document before it is forwarded and every response before it is returned,
 * and a violation marked as an error is answered by Prism (422 for a request, 500 for a response)
 * instead of passing. Warnings pass through, so `takeViolations()` is the list a test asserts empty;
 * it is read from Prism's log, which also covers callers that are not this process (a shell's
 * curl, a child process) and the violations --errors turns into Prism's own answer (those carry
 * no `sl-violations` header, which only the warnings passed through get).
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
  let requestsReceived = 0;
  let lastRequest = '(no request yet)';
  const take = (chunk: Buffer) => {
    const text = chunk.toString().replace(ANSI, '');
    output = (output + text).slice(-OUTPUT_TAIL_CHARS);
    const lines = (partial + text).split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      const request = REQUEST_LINE.exec(line);
      if (request) {
        lastRequest = `${request[1]!.toUpperCase()} ${request[2]}`;
        if (!request[2]!.startsWith(MARK_PATH)) requestsReceived++;
        continue;
      }
      const terminated = TERMINATED_LINE.exec(line);
      if (terminated?.[2]!.startsWith(MARK_PATH)) marksSeen.add(terminated[2]!);
      else if (terminated) violations.push(`${terminated[1]!.toUpperCase()} ${terminated[2]}: ${terminated[3]!.trim()}`);
      // Validator lines name no request: the one that started last (in these tests' serial traffic, the one it is about).
      const violation = VALIDATOR_LINE.exec(line);
      if (violation) violations.push(`${lastRequest}: ${violation[1]!.trim()}`);
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
    requestsReceived: () => requestsReceived,
    output: () => output,
    close: () => stopChild(child, 'SIGTERM'),
  };
}
