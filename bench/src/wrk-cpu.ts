import { cpuBetween, snapshotCpu, type CpuGroups } from './cpu.js';
import { monotonicNowUs, type MonotonicWindow } from './profile-summary.js';
import { startWrk, type Load, type WrkResult } from './wrk.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One measured wrk run, with the CPU every group of processes used during it (percent of a core).
 * CPU is sampled inside the run, skipping its first and last half second: wrk's process is gone
 * once it ends. `groups` gets wrk's pid, to count wrk as a group of its own.
 */
export async function wrkWithCpu(load: Load, groups: (wrkPid: number) => CpuGroups): Promise<{ wrk: WrkResult; cpu: Record<string, number>; window: MonotonicWindow }> {
  const fromUs = monotonicNowUs();
  const wrk = startWrk(load);
  await sleep(500);
  const before = snapshotCpu();
  await sleep(Math.max(500, load.durationSeconds * 1000 - 1000));
  const after = snapshotCpu();
  const result = await wrk.result;
  return { wrk: result, cpu: cpuBetween(before, after, groups(wrk.pid)), window: { fromUs, toUs: monotonicNowUs() } };
}
