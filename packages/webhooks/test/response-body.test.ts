import { describe, expect, it } from 'vitest';
import { truncateUtf8 } from '../src/response-body.js';

describe('truncateUtf8', () => {
  it('keeps short text whole', () => {
    expect(truncateUtf8(Buffer.from('hello'), 1024)).toBe('hello');
  });

  it('drops a multi-byte character the limit cuts through', () => {
    expect(truncateUtf8(Buffer.from('ab€'), 4)).toBe('ab');
    expect(truncateUtf8(Buffer.from('a😀'), 4)).toBe('a');
    expect(truncateUtf8(Buffer.from('a😀'), 5)).toBe('a😀');
  });

  it('stays within the limit for binary bodies whose invalid bytes decode to U+FFFD', () => {
    const text = truncateUtf8(Buffer.alloc(2048, 0xff), 1024);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1024);
    expect(text.length).toBeGreaterThan(300);
  });

  it('removes NUL, which Postgres text cannot hold', () => {
    expect(truncateUtf8(Buffer.from('a\u0000b'), 1024)).toBe('ab');
  });
});
