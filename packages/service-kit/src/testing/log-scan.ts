import { Writable } from 'node:stream';
import { afterAll, expect } from 'vitest';
import { appendToRunLog } from './run-log.js';

/**
 * Every app a test file builds logs here (at trace level, request headers included), and
 * after the file's last test its whole log must hold no key material: neither anything in
 * the API-key format nor any plaintext a test registered as secret. Each line also goes to
 * the run's log (run-log.ts), which is scanned once more after every file has run.
 */
export const capturedLogLines: string[] = [];
const secrets = new Set<string>();

/** For log lines that do not come through testLogStream (a child process' stdout); `source` names the service in the run log. */
export function captureLogLine(line: string, source?: string): void {
  capturedLogLines.push(line);
  appendToRunLog(line, source);
}

export const testLogStream = new Writable({
  write(chunk, _encoding, done) {
    captureLogLine(chunk.toString());
    done();
  },
});

export function registerSecret(secret: string): string {
  secrets.add(secret);
  return secret;
}

const KEY_MATERIAL = /svc_[uw]_[0-9A-Za-z]{8,}/;

afterAll(() => {
  const leaks = capturedLogLines.filter((line) => KEY_MATERIAL.test(line) || [...secrets].some((s) => line.includes(s)));
  expect(leaks, 'log lines containing key material').toEqual([]);
});
