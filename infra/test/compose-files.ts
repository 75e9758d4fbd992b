import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

const REPO = new URL('../../', import.meta.url);

export type ComposeService = { environment?: Record<string, string | number | boolean> | string[]; image?: string; build?: unknown };
export type ComposeFile = { services: Record<string, ComposeService> };

/** docker-compose.yml as compose reads it: YAML anchors and `<<` merges resolved, nothing interpolated. */
export function readCompose(): { text: string; file: ComposeFile } {
  const text = readFileSync(new URL('docker-compose.yml', REPO), 'utf8');
  return { text, file: parse(text, { merge: true }) as ComposeFile };
}

/** `.env.example` as `KEY=value` pairs, in order (comments and blank lines skipped). */
export function readEnvExample(): Map<string, string> {
  const vars = new Map<string, string>();
  for (const line of readFileSync(new URL('.env.example', REPO), 'utf8').split('\n')) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) vars.set(match[1]!, match[2]!);
  }
  return vars;
}

/** The service's environment as a map (compose accepts a map or a list of KEY=value). */
export function environmentOf(service: ComposeService): Map<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env)) return new Map(env.map((entry) => [entry.split('=')[0]!, entry.slice(entry.indexOf('=') + 1)]));
  return new Map(Object.entries(env).map(([key, value]) => [key, String(value)]));
}

const REFERENCE = /\$\{([A-Z][A-Z0-9_]*)(?:(:?[-?])((?:[^}])*))?\}/g;

/** Every `${VAR…}` the text interpolates. */
export function referencedVariables(text: string): Set<string> {
  return new Set([...text.matchAll(REFERENCE)].map((m) => m[1]!));
}

/** How compose fills `${VAR}`, `${VAR:-default}` and `${VAR:?message}` (also without the colon) from `vars`. */
export function interpolate(value: string, vars: ReadonlyMap<string, string>): { value: string; errors: string[] } {
  const errors: string[] = [];
  const result = value.replace(REFERENCE, (_whole, name: string, operator: string | undefined, argument: string | undefined) => {
    const set = vars.get(name);
    const missing = operator?.startsWith(':') ? set === undefined || set === '' : set === undefined;
    if (operator?.endsWith('-')) return missing ? (argument ?? '') : set!;
    if (operator?.endsWith('?') && missing) errors.push(`${name}: ${argument ?? 'required'}`);
    return set ?? '';
  });
  return { value: result, errors };
}

/** The `${VAR:?message}` messages of the text, by variable. */
export function requiredMessages(text: string): Map<string, string[]> {
  const messages = new Map<string, string[]>();
  for (const m of text.matchAll(REFERENCE)) {
    if (m[2] !== ':?') continue;
    messages.set(m[1]!, [...(messages.get(m[1]!) ?? []), m[3] ?? '']);
  }
  return messages;
}
