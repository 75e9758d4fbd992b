import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanRunLogs } from '../src/testing/run-log-scan.js';

/** The whole-run log scan finds each kind of secret, and passes what is not one. */

function runDir(lines: string[], secrets: string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'run-log-scan-'));
  mkdirSync(join(dir, 'logs'));
  mkdirSync(join(dir, 'secrets'));
  writeFileSync(join(dir, 'logs', 'a.log'), `${lines.join('\n')}\n`);
  writeFileSync(join(dir, 'secrets', 's.json'), JSON.stringify({ label: 't_1', values: secrets }));
  return dir;
}

const SEED = 'ab'.repeat(32);

describe('scanRunLogs', () => {
  it('finds keys, key prefixes, JWTs, webhook secrets, recorded seeds and client IPs', () => {
    const lines = [
      '{"msg":"x","key":"svc_u_8GqN2mWkz1Lr3pXs9YtVb4Hc5Jd6Kf7Q0a1b2C"}',
      '{"msg":"x","prefix":"svc_w_8GqN2m"}',
      '{"msg":"x","auth":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c3JfMSJ9.c2ln"}',
      '{"msg":"x","s":"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}',
      `{"msg":"Failed query: update raffles set draw_seed = $1","params":"${SEED}"}`,
      '{"req":{"remoteAddress":"10.9.0.1"}}',
      '{"req":{"headers":{"x-forwarded-for":"198.18.0.1, 10.0.0.1"}}}',
      '{"msg":"entered from 203.0.113.9"}',
    ];
    const report = scanRunLogs(runDir(lines, [SEED]));
    expect(report.findings.map((f) => f.kind)).toEqual(['API key', 'API key', 'JWT', 'webhook secret', 'recorded secret', 'client IP', 'client IP', 'client IP']);
  });

  it('passes redacted headers, a server address in a connection error, and hex that is not a recorded secret', () => {
    const lines = [
      '{"req":{"url":"/api/v1/me","headers":{"authorization":"[redacted]","x-forwarded-for":"[redacted]"}}}',
      '{"err":{"message":"connect ECONNREFUSED 10.0.0.5:5432"}}',
      `{"drawCommitment":"${'cd'.repeat(32)}"}`,
      '{"nats":"nats://127.0.0.1:4222"}',
    ];
    const report = scanRunLogs(runDir(lines, [SEED]));
    expect(report).toMatchObject({ lines: 4, secrets: 1, findings: [] });
  });

  it('finds a linked wallet address the run recorded, in any letter case, and passes other addresses', () => {
    const linked = '0x52908400098527886E0F7030069857D2E4169EE7';
    const lines = [
      `{"msg":"linked","wallet":"${linked}"}`,
      `{"req":{"url":"/api/dashboard/me/wallets/anvil/${linked.toLowerCase()}"}}`,
      '{"msg":"deployed","contract":"0xcA11bde05977b3631167028862bE2a173976CA11"}',
      '{"req":{"url":"/api/dashboard/me/wallets/anvil/0x[address]"}}',
    ];
    const report = scanRunLogs(runDir(lines, [SEED, linked.toLowerCase()]));
    expect(report.findings.map((f) => f.kind)).toEqual(['linked wallet address', 'linked wallet address']);
  });

  it('counts the lines of each source by the file it wrote, files without a source as the tests\'', () => {
    const dir = runDir(['{"msg":"in process"}']);
    writeFileSync(join(dir, 'logs', 'console-123-1700000000000.log'), '{"msg":"a"}\n{"msg":"b"}\n');
    writeFileSync(join(dir, 'logs', 'webhook-dispatcher-9-1700000000001.log'), '{"msg":"c"}\n');
    expect(scanRunLogs(dir).linesBySource).toEqual({ tests: 1, console: 2, 'webhook-dispatcher': 1 });
  });
});
