import { describe, expect, it } from 'vitest';
import { processCpuSeconds, processMemory, resetPeakRss } from '../src/process-memory.js';

describe('process memory and CPU from /proc', () => {
  it('reads this process: an RSS, a peak at least as high, CPU time that only grows', () => {
    const { rssMb, peakRssMb } = processMemory(process.pid);
    expect(rssMb).toBeGreaterThan(10);
    expect(peakRssMb).toBeGreaterThanOrEqual(rssMb);
    const cpu = processCpuSeconds(process.pid);
    let spin = 0;
    for (let i = 0; i < 5e7; i++) spin += i;
    expect(spin).toBeGreaterThan(0);
    expect(processCpuSeconds(process.pid)).toBeGreaterThan(cpu);
  });

  it('resets the peak to the current RSS where the kernel allows it', () => {
    if (!resetPeakRss(process.pid)) return; // a kernel or sandbox that refuses clear_refs: the report says so
    const after = processMemory(process.pid);
    expect(after.peakRssMb - after.rssMb).toBeLessThan(5);
  });
});
