import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * What a client generator makes of the committed documents: openapi-typescript turns each into
 * types, and a small typed client (test/support/generated-client) must compile against them,
 * its wrong calls (each marked `@ts-expect-error`) refused. A document that loses a parameter,
 * a body field or an error-code enum fails here, as a consumer's build would.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
const fixtures = path.join(here, 'support/generated-client');
const workDir = mkdtempSync(path.join(tmpdir(), 'openapi-client-'));

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

async function compileClient(service: string, client: string): Promise<string[]> {
  const dir = mkdtempSync(path.join(workDir, `${service}-`));
  const document = JSON.parse(readFileSync(path.join(repoRoot, 'docs/openapi', `${service}.json`), 'utf8'));
  writeFileSync(path.join(dir, 'api.ts'), astToString(await openapiTS(document, { exportType: true, rootTypes: false })));
  copyFileSync(path.join(fixtures, 'typed-request.tsfixture'), path.join(dir, 'typed-request.ts'));
  copyFileSync(path.join(fixtures, client), path.join(dir, 'client.ts'));
  const program = ts.createProgram([path.join(dir, 'client.ts')], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts'],
    types: [],
    noUnusedLocals: false,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => `${path.basename(d.file?.fileName ?? '')}:${d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : '?'} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}

describe('a client typed by openapi-typescript from the committed documents', () => {
  it('compiles against the data plane, refusing a wrong parameter, body, path, field or error code', { timeout: 60_000 }, async () => {
    expect(await compileClient('data-plane', 'data-plane-client.tsfixture')).toEqual([]);
  });

  it('compiles against management, refusing a wrong body or a missing path parameter', { timeout: 60_000 }, async () => {
    expect(await compileClient('management', 'management-client.tsfixture')).toEqual([]);
  });

  it('would notice a wrong call that the types accept (an unused @ts-expect-error is an error)', { timeout: 60_000 }, () => {
    const file = path.join(mkdtempSync(path.join(workDir, 'control-')), 'control.ts');
    writeFileSync(file, "// @ts-expect-error nothing is wrong here\nexport const fine: string = 'yes';\n");
    const program = ts.createProgram([file], { noEmit: true, types: [], lib: ['lib.es2022.d.ts'] });
    expect(ts.getPreEmitDiagnostics(program).map((d) => d.code)).toEqual([2578]);
  });
});
