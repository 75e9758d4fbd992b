import type { ChildProcess } from 'node:child_process';

const live = new Set<ChildProcess>();

// Whatever ends the run (an error, the watchdog, Ctrl-C), no child process outlives it.
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** Registers a child to be killed when the benchmark exits, for as long as it runs. */
export function killOnExit<T extends ChildProcess>(child: T): T {
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}
