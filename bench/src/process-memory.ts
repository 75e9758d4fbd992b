import { readFileSync, writeFileSync } from 'node:fs';

const KB_FIELD = (name: string) => new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm');

/** A process's resident set now (VmRSS) and its high-water mark (VmHWM), in MB, from /proc. */
export function processMemory(pid: number): { rssMb: number; peakRssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (name: string) => Math.round(Number(KB_FIELD(name).exec(status)?.[1] ?? NaN) / 102.4) / 10;
  return { rssMb: mb('VmRSS'), peakRssMb: mb('VmHWM') };
}

/**
 * Resets the process's VmHWM to its current RSS (`/proc/<pid>/clear_refs`, value 5: Linux 4.0+),
 * so the next peak is the next piece of work's alone. False when the kernel or permissions refuse.
 */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat (clock ticks of 1/100 s). */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at state, field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
