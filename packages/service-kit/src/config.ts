import type { Static, TObject } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

export class ConfigError extends Error {}

/**
 * Reads a service's variables from the environment once, with defaults and type conversion;
 * every problem is reported together, by variable name, and values are never echoed (some
 * are secrets).
 */
export function readConfig<S extends TObject>(schema: S, env: Record<string, string | undefined>): Static<S> {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const converted = Value.Convert(schema, Value.Default(schema, raw));
  const errors = [...Value.Errors(schema, converted)];
  if (errors.length > 0) {
    const lines = errors.map((e) => `  ${e.path.slice(1) || '(config)'}: ${e.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return converted as Static<S>;
}

/** Why a URL setting is not an http(s) URL, or not https in production (where tokens and keys travel on it); null when it is fine. */
export function httpUrlProblem(value: string, production: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an http(s) URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http(s) URL';
  if (production && url.protocol !== 'https:') return 'must be an https URL in production';
  return null;
}
