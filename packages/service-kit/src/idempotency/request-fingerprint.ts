import { createHash } from 'node:crypto';

type CanonicalStep = { literal: string } | { value: unknown };

/**
 * JSON with object keys sorted: bodies that differ only in key order are the same request.
 * Written with its own stack rather than recursion: the body is fingerprinted before validation,
 * and a client's `[[[[…]]]]` thousands deep must not overflow the call stack (that was a 500).
 */
function canonicalJson(root: unknown): string {
  const out: string[] = [];
  const pending: CanonicalStep[] = [{ value: root }];
  while (pending.length > 0) {
    const step = pending.pop()!;
    if ('literal' in step) {
      out.push(step.literal);
      continue;
    }
    const value = step.value;
    const parts: CanonicalStep[] = [];
    if (Array.isArray(value)) {
      parts.push({ literal: '[' });
      value.forEach((item, i) => parts.push(...(i > 0 ? [{ literal: ',' }] : []), { value: item }));
      parts.push({ literal: ']' });
    } else if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      parts.push({ literal: '{' });
      Object.keys(record)
        .sort()
        .forEach((k, i) => parts.push({ literal: `${i > 0 ? ',' : ''}${JSON.stringify(k)}:` }, { value: record[k] }));
      parts.push({ literal: '}' });
    } else {
      out.push(JSON.stringify(value) ?? 'null');
      continue;
    }
    for (let i = parts.length - 1; i >= 0; i--) pending.push(parts[i]!);
  }
  return out.join('');
}

/**
 * sha256 of what the request asks for: method, route, decoded path parameters and parsed body.
 * Encoding variants of one path, whitespace and key order do not make a "different" request.
 */
export function requestFingerprint(request: { method: string; route: string; params: unknown; body: unknown }): string {
  const canonical = canonicalJson([request.method, request.route, request.params ?? {}, request.body ?? {}]);
  return createHash('sha256').update(canonical).digest('hex');
}
