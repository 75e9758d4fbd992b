import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';

type Proc = { pid: number; ppid: number; ticks: number };
export type CpuSnapshot = { atMs: number; procs: Map<number, Proc>; machineBusy: number; machineTotal: number };

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

export const CORES = cpus().length;

function readProc(pid: number): Proc | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields are counted after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

/** Cumulative CPU time of every process (all threads included) and of the whole machine. */
export function snapshotCpu(): CpuSnapshot {
  const procs = new Map<number, Proc>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const proc = readProc(pid);
    if (proc) procs.set(pid, proc);
  }
  const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number) as number[];
  const machineBusy = user! + nice! + system! + irq! + softirq! + steal!;
  return { atMs: performance.now(), procs, machineBusy, machineTotal: machineBusy + idle! + iowait! };
}

/** CPU seconds (user + system, all threads) a process has used so far; null once it is gone. */
export function processCpuSeconds(pid: number): number | null {
  const proc = readProc(pid);
  return proc ? proc.ticks / TICKS_PER_SECOND : null;
}

/** The postmaster is the parent of any backend; its children are all of that server's processes. */
export function parentPid(pid: number): number {
  const proc = readProc(pid);
  if (!proc) throw new Error(`no process ${pid} (is Postgres on this machine?)`);
  return proc.ppid;
}

export type CpuGroups = Record<string, (proc: { pid: number; ppid: number }) => boolean>;

/**
 * CPU used between two snapshots, in percent of one core per group (200 = both cores of a
 * 2-core machine), plus the whole machine and what no group accounts for ("other": other
 * tenants of the machine, the benchmark runner itself).
 */
export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot, groups: CpuGroups): Record<string, number> {
  const seconds = (after.atMs - before.atMs) / 1000;
  const percent = (ticks: number) => Math.round((ticks / TICKS_PER_SECOND / seconds) * 1000) / 10;
  const shares: Record<string, number> = {};
  let grouped = 0;
  for (const [name, member] of Object.entries(groups)) {
    let ticks = 0;
    for (const proc of after.procs.values()) {
      if (!member(proc)) continue;
      ticks += proc.ticks - (before.procs.get(proc.pid)?.ticks ?? 0);
    }
    grouped += ticks;
    shares[name] = percent(ticks);
  }
  const machine = ((after.machineBusy - before.machineBusy) / (after.machineTotal - before.machineTotal)) * CORES * 100;
  shares.machine = Math.round(machine * 10) / 10;
  shares.other = Math.max(0, Math.round((machine - percent(grouped)) * 10) / 10);
  return shares;
}
