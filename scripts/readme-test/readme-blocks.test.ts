import { describe, expect, it } from 'vitest';
import { runInOneBashSession } from './bash-session.js';
import { failureLinesIn, pointAtPorts, readmeShellBlocks } from './readme-blocks.js';

/** The harness itself: a README test that could not fail, or ran the wrong blocks, would prove nothing. */
describe('README block extraction', () => {
  const markdown = [
    '# Title',
    '```sh no-run',
    'npx -y pnpm@10.34.8 start',
    '```',
    '```json',
    '{ "not": "shell" }',
    '```',
    '````sh',
    'echo one',
    '```',
    'echo still one',
    '````',
    '```bash',
    'curl localhost:3000/a localhost:3001/b 127.0.0.1:3002/c localhost:30001/d',
    '```',
  ].join('\n');

  it('takes the shell blocks in order, runnable unless tagged no-run, ignoring other languages', () => {
    expect(readmeShellBlocks(markdown)).toEqual([
      { index: 1, line: 3, runnable: false, source: 'npx -y pnpm@10.34.8 start' },
      { index: 2, line: 9, runnable: true, source: 'echo one\n```\necho still one' },
      { index: 3, line: 14, runnable: true, source: 'curl localhost:3000/a localhost:3001/b 127.0.0.1:3002/c localhost:30001/d' },
    ]);
  });

  it('refuses an unknown fence flag rather than silently skipping the block', () => {
    expect(() => readmeShellBlocks('```sh norun\necho\n```')).toThrow(/unknown fence flag norun/);
    expect(() => readmeShellBlocks('```sh\necho')).toThrow(/never closed/);
  });

  it("points the README's ports at the test's, and only those", () => {
    expect(pointAtPorts(readmeShellBlocks(markdown)[2]!.source, { dataPlane: 41000, management: 41001, dispatcher: 41002 })).toBe(
      'curl 127.0.0.1:41000/a 127.0.0.1:41001/b 127.0.0.1:41002/c localhost:30001/d',
    );
    // The console's port, when the platform has one; left alone otherwise.
    expect(pointAtPorts('curl localhost:3003/x', { dataPlane: 1, management: 2, dispatcher: 3, console: 41003 })).toBe('curl 127.0.0.1:41003/x');
    expect(pointAtPorts('curl localhost:3003/x', { dataPlane: 1, management: 2, dispatcher: 3 })).toBe('curl localhost:3003/x');
  });
});

describe('what an example prints', () => {
  it('counts a verdict that is not VALID as a failure, though the example exited 0', () => {
    const output = ['hello, alice', 'the draw is NOT valid', 'INVALID:', '  beacon round     FAIL  not trusted', 'VALID: 3 winners', '12 entries, every page followed'].join('\n');
    expect(failureLinesIn(output)).toEqual(['the draw is NOT valid', 'INVALID:', '  beacon round     FAIL  not trusted']);
  });

  it('leaves error codes the README shows on purpose, and success words, alone', () => {
    const output = ['{"code":"REQUIREMENTS_NOT_MET"}', 'SESSION_TOKEN_INVALID: the token is invalid', 'VALID: the draw reproduces', '  beacon round     ok    round 5003', '422'].join('\n');
    expect(failureLinesIn(output)).toEqual([]);
  });
});

describe('one bash session', () => {
  const block = (index: number, script: string) => ({ index, line: index * 10, runnable: true, source: script, script });

  it('carries variables from block to block and splits the output by block', async () => {
    const result = await runInOneBashSession([block(1, 'A=hello'), block(2, 'echo "$A world"; echo oops >&2')], { cwd: '/tmp', env: process.env, timeoutMs: 10_000 });
    expect(result.failed).toBeNull();
    expect(result.ran.map((r) => [r.block.index, r.output])).toEqual([
      [1, ''],
      [2, 'hello world\noops'],
    ]);
  });

  it('stops at the first failing command, unset variable or failed pipeline, and names its block', async () => {
    for (const failing of ['false', 'echo "$UNSET_VARIABLE"', 'false | cat']) {
      const result = await runInOneBashSession([block(1, 'echo fine'), block(2, `echo before; ${failing}; echo after`), block(3, 'echo never')], {
        cwd: '/tmp',
        env: { PATH: process.env.PATH },
        timeoutMs: 10_000,
      });
      expect(result.failed?.block.index, failing).toBe(2);
      expect(result.failed?.output).toMatch(/^before/);
      expect(result.failed?.output).not.toMatch(/after|never/);
    }
  });

  it('kills a session that hangs', async () => {
    const result = await runInOneBashSession([block(1, 'sleep 30')], { cwd: '/tmp', env: process.env, timeoutMs: 500 });
    expect(result.failed?.output).toMatch(/did not finish within 500 ms/);
  });
});
