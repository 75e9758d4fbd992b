import { describe, expect, it } from 'vitest';
import { readKeysetBatches } from '../src/pagination/keyset-batches.js';

/** A sorted list of numbers read `size` (or `size + lookAhead`) at a time after a key, recording each read. */
function list(count: number, lookAhead = 0) {
  const rows = Array.from({ length: count }, (_, i) => i + 1);
  const reads: Array<number | null> = [];
  const load = async (after: number | null, size: number) => {
    reads.push(after);
    return rows.filter((r) => after === null || r > after).slice(0, size + lookAhead);
  };
  return { load, reads };
}

async function collect<T>(batches: AsyncIterable<readonly T[]>): Promise<T[][]> {
  const all: T[][] = [];
  for await (const batch of batches) all.push([...batch]);
  return all;
}

describe('readKeysetBatches', () => {
  it('reads every row once, each batch after the last key of the one before, and stops at a short batch', async () => {
    const { load, reads } = list(7);
    const batches = await collect(await readKeysetBatches(load, (r) => r, 3));
    expect(batches).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(reads).toEqual([null, 3, 6]);
  });

  it('takes a page query with its look-ahead row as it is', async () => {
    const { load } = list(7, 1);
    expect((await collect(await readKeysetBatches(load, (r) => r, 3))).flat()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('ends after an empty read when the rows fill the last batch exactly, and yields no empty batch', async () => {
    const { load, reads } = list(6);
    expect(await collect(await readKeysetBatches(load, (r) => r, 3))).toEqual([[1, 2, 3], [4, 5, 6]]);
    expect(reads).toEqual([null, 3, 6]);
    expect(await collect(await readKeysetBatches(list(0).load, (r) => r, 3))).toEqual([]);
  });

  it('reads the first batch before it resolves (its failure is the caller\'s), the rest only as they are taken', async () => {
    await expect(readKeysetBatches(async () => Promise.reject(new Error('down')), (r: number) => r, 3)).rejects.toThrow('down');
    const { load, reads } = list(100);
    const batches = await readKeysetBatches(load, (r) => r, 10);
    expect(reads).toEqual([null]);
    for await (const batch of batches) {
      expect(batch[0]).toBe(1);
      break;
    }
    expect(reads).toEqual([null]);
  });
});
