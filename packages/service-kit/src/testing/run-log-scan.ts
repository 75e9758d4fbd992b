import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { logSourceOf, type RunSecrets } from './run-log.js';

/**
 * What must never be in a log line, whatever its level: anything in the API-key format (a key
 * prefix included), a JWT, a webhook secret, a client's IP (an IPv4 address in any field that
 * names a client address, or anywhere an address from the documentation ranges tests send as
 * clients: 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24), and every value the run's test
 * databases held as secret (draw seeds, key hashes). A server's address in a connection error
 * (`connect ECONNREFUSED 10.0.0.5:5432`) is not a client's and is allowed.
 */
const IPV4 = String.raw`(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}`;
const CLIENT_ADDRESS_FIELDS = ['remoteAddress', 'ip', 'ips', 'clientIp', 'x-forwarded-for', 'x-real-ip', 'forwarded', 'true-client-ip', 'cf-connecting-ip'];
const PATTERNS: { kind: string; pattern: RegExp }[] = [
  { kind: 'API key', pattern: /svc_[uw]_[0-9A-Za-z]{6,}/ },
  { kind: 'JWT', pattern: /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/ },
  { kind: 'webhook secret', pattern: /whsec_[A-Za-z0-9+/=]{8,}/ },
  { kind: 'client IP', pattern: new RegExp(`"(?:${CLIENT_ADDRESS_FIELDS.join('|')})":\\[?"[^"]*${IPV4}`) },
  { kind: 'client IP', pattern: /(?<![\d.])(?:192\.0\.2|198\.51\.100|203\.0\.113)\.\d{1,3}(?![\d.])/ },
];

/** Recorded seeds and key hashes are 64 hex characters (webhook secrets are caught by their prefix). */
const SECRET_SHAPED = /(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])/g;

/** Linked wallets' addresses, recorded lowercased, appear in a log in any letter case. */
const ADDRESS_SHAPED = /0x[0-9a-fA-F]{40}(?![0-9a-fA-F])/g;

const holdsRecorded = (line: string, secrets: ReadonlySet<string>): string | undefined => {
  if (line.match(SECRET_SHAPED)?.some((token) => secrets.has(token))) return 'recorded secret';
  if (line.match(ADDRESS_SHAPED)?.some((token) => secrets.has(token.toLowerCase()))) return 'linked wallet address';
  return undefined;
};

export type LogFinding = { kind: string; file: string; excerpt: string };
export type LogScanReport = {
  files: number;
  lines: number;
  /** Lines read by the source that wrote them (a service's name, or the tests' in-process apps). */
  linesBySource: Record<string, number>;
  secrets: number;
  findings: LogFinding[];
};

export function scanRunLogs(dir: string): LogScanReport {
  const secrets = new Set<string>();
  for (const file of filesIn(join(dir, 'secrets'))) {
    for (const value of (JSON.parse(readFileSync(file, 'utf8')) as RunSecrets).values) secrets.add(value);
  }
  const report: LogScanReport = { files: 0, lines: 0, linesBySource: {}, secrets: secrets.size, findings: [] };
  for (const file of filesIn(join(dir, 'logs'))) {
    report.files += 1;
    const source = logSourceOf(basename(file));
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue;
      report.lines += 1;
      report.linesBySource[source] = (report.linesBySource[source] ?? 0) + 1;
      const kind = PATTERNS.find((p) => p.pattern.test(line))?.kind ?? holdsRecorded(line, secrets);
      if (kind) report.findings.push({ kind, file, excerpt: line.slice(0, 400) });
    }
  }
  return report;
}

function filesIn(dir: string): string[] {
  try {
    return readdirSync(dir).map((name) => join(dir, name));
  } catch {
    return [];
  }
}
