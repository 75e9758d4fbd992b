import { Writable } from 'node:stream';
import { captureLogLine } from '@raffle/service-kit/testing/log-scan';

/** The console's own source name in the run log (its files are `console-*.log`), as the test platform names its process. */
export const CONSOLE_LOG_SOURCE = 'console';

/**
 * Where an in-process console logs: into `lines` for the file's own assertions, and through the
 * per-file key-material scan into the run's log scan, as every other service's lines go.
 */
export function consoleLogStream(lines: string[]): Writable {
  return new Writable({
    write(chunk, _encoding, done) {
      const line = chunk.toString();
      lines.push(line);
      captureLogLine(line, CONSOLE_LOG_SOURCE);
      done();
    },
  });
}
