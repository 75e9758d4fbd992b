import type { Readable } from 'node:stream';
import { copyEligibleLines, type DbOrTx, type EligibleRaffle } from '@raffle/db';
import { drawKeyHasher, drawOrder, ENTRY_ID_FORMAT, malformedDrawEntryField, USER_ID_FORMAT, WEIGHT_FORMAT, type DrawEntry, type DrawKeyHasher } from '@raffle/sdk';
import { SnapshotChunker } from './snapshot-chunker.js';

type Ranked = { key: number; id: string; userId: string };

export type RankedEligible = {
  count: number;
  /** sha256 of the canonical lines, computed as they stream past. */
  entriesDigest: string;
  /** The best `keep` entries in draw order (winners, plus whatever headroom the caller asked for). */
  ranked: { id: string; userId: string }[];
  /** The canonical lines, compressed into the snapshot's chunks (insertDrawSnapshot stores them). */
  chunks: Buffer[];
};

const inner = (format: RegExp) => format.source.replace(/^\^/, '').replace(/\$$/, '');
/** A COPY row of well-formed fields (the SDK's formats, decision 0021); ids are then 30 ASCII bytes. */
const WELL_FORMED_ROW = new RegExp(`^(?:${inner(ENTRY_ID_FORMAT)})\t(?:${inner(USER_ID_FORMAT)})\t(?:${inner(WEIGHT_FORMAT)})$`);
const ID_LENGTH = 30;
const NEWLINE = 0x0a;
const COLON = 0x3a;
/** COPY's text output escapes these (and `\\` itself) inside a value; undone for the error message. */
const COPY_ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };
const unescapeCopy = (value: string) => value.replace(/\\(.)/g, (_, c: string) => COPY_ESCAPES[c] ?? c);

/** Inserts into a window of the `keep` best entries so far, kept in draw order. */
function offer(best: Ranked[], keep: number, candidate: Ranked): void {
  if (best.length === keep && drawOrder(candidate, best[keep - 1]!) >= 0) return;
  let lo = 0;
  let hi = best.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (drawOrder(best[mid]!, candidate) <= 0) lo = mid + 1;
    else hi = mid;
  }
  best.splice(lo, 0, candidate);
  if (best.length > keep) best.pop();
}

/**
 * An entry outside the proof's formats would make its canonical line ambiguous (and the proof
 * unverifiable), so the draw is aborted rather than published (decision 0021).
 */
function malformedRow(raffle: EligibleRaffle, row: string): Error {
  const [id = '', userId = '', weight = ''] = row.split('\t').map(unescapeCopy);
  const entry: DrawEntry = { id, userId, weight };
  const field = malformedDrawEntryField(entry) ?? 'id';
  return new Error(`entry ${JSON.stringify(entry.id)} of raffle ${raffle.id} has a ${field} (${JSON.stringify(entry[field])}) a draw proof cannot carry: aborting the draw`);
}

/**
 * Ranks COPY rows as they arrive, in whatever pieces the stream cuts them, turning each into its
 * canonical line in place (its two tabs become `:`) and handing the complete lines on to `lines`.
 */
class RowRanker {
  count = 0;
  readonly best: Ranked[] = [];
  private carry: Buffer | null = null;

  constructor(
    private readonly raffle: EligibleRaffle,
    private readonly key: DrawKeyHasher,
    private readonly keep: number,
    private readonly lines: (canonical: Buffer) => void,
  ) {}

  add(bytes: Buffer): void {
    const data = this.carry ? Buffer.concat([this.carry, bytes]) : bytes;
    this.carry = null;
    let start = 0;
    for (let end = data.indexOf(NEWLINE, start); end !== -1; end = data.indexOf(NEWLINE, start)) {
      this.row(data, start, end);
      start = end + 1;
    }
    if (start > 0) this.lines(start === data.length ? data : data.subarray(0, start));
    if (start < data.length) this.carry = data.subarray(start);
  }

  finish(): void {
    if (this.carry) throw new Error(`the eligible rows of raffle ${this.raffle.id} ended without a newline: aborting the draw`);
  }

  private row(data: Buffer, start: number, end: number): void {
    // latin1 maps each byte to one character: a non-ASCII byte cannot pass the formats, and the
    // offsets below are byte offsets. A malformed row is decoded properly for the message.
    const text = data.toString('latin1', start, end);
    if (!WELL_FORMED_ROW.test(text)) throw malformedRow(this.raffle, data.toString('utf8', start, end));
    data[start + ID_LENGTH] = COLON;
    data[start + 2 * ID_LENGTH + 1] = COLON;
    const key = this.key(data, start, start + ID_LENGTH, Number(text.slice(2 * ID_LENGTH + 2)));
    this.count++;
    const { best, keep } = this;
    if (keep === 0 || (best.length === keep && key < best[keep - 1]!.key)) return;
    offer(best, keep, { key, id: text.slice(0, ID_LENGTH), userId: text.slice(ID_LENGTH + 1, 2 * ID_LENGTH + 1) });
  }
}

/**
 * Runs `consume` on every piece of the stream. A piece that throws stops the consuming, not the
 * stream: COPY is drained to its end so the transaction's connection is left usable (postgres.js
 * pauses the socket for a stream nobody reads), then the error is thrown.
 */
async function consumeStream(stream: Readable, consume: (bytes: Buffer) => void): Promise<void> {
  let failure: { error: unknown } | null = null;
  await new Promise<void>((resolve, reject) => {
    stream.on('data', (bytes: Buffer) => {
      if (failure) return;
      try {
        consume(bytes);
      } catch (error) {
        failure = { error };
      }
    });
    stream.once('end', resolve);
    stream.once('error', reject);
  });
  if (failure) throw (failure as { error: unknown }).error;
}

/**
 * Streams the eligible set (valid entries, minus flagged duplicates when the raffle excludes them)
 * in id order (one COPY), checks each row's format, makes it its canonical line, ranks each entry with
 * the SDK's key function (drawKeyHasher, bit-identical) and keeps only the best `keep`: memory
 * stays flat however many entries the raffle has. The same bytes are hashed into the digest and
 * compressed into the snapshot's chunks as they pass (SnapshotChunker).
 */
export async function rankEligibleEntries(tx: DbOrTx, raffle: EligibleRaffle, seed: Buffer, keep: number): Promise<RankedEligible> {
  const chunker = new SnapshotChunker();
  const ranker = new RowRanker(raffle, drawKeyHasher(seed), keep, (lines) => chunker.add(lines));
  await consumeStream(await copyEligibleLines(tx, raffle), (bytes) => ranker.add(bytes));
  ranker.finish();
  const { digest, chunks } = await chunker.finish();
  return { count: ranker.count, entriesDigest: digest, ranked: ranker.best.map(({ id, userId }) => ({ id, userId })), chunks };
}
