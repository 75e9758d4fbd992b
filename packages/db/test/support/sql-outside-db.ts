import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

/** One place outside packages/db that writes or runs SQL. */
export type SqlFinding = { file: string; line: number; what: string };

const SOURCE_FILE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const NOT_PRODUCTION = /(\.d\.ts|\.test\.[cm]?[jt]sx?|\.spec\.[cm]?[jt]sx?)$/;
/** Build output, dependencies, and tests with their harness (service-kit's `src/testing` creates and drops databases). */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'test', 'tests', 'testing', '__tests__', '__fixtures__']);
/** Names a postgres.js client or transaction goes by in this repo, as a tag or a receiver. */
const SQL_RUNNERS = new Set(['sql', 'tx']);
/** Names a drizzle database or transaction goes by, as the receiver of `.execute(` or a query builder. */
const DRIZZLE_RUNNERS = new Set(['db', 'tx']);
/** drizzle's query builders: no import is needed to call them on a `Db` (the relational API hands over its operators). */
const DRIZZLE_BUILDERS = new Set(['select', 'selectDistinct', 'selectDistinctOn', 'insert', 'update', 'delete', '$count', '$with']);
/** A template that reads as a statement is SQL whatever its tag is called. */
const STATEMENT_START = /^\s*(select|insert\s+into|update\s+\w+\s+(\w+\s+)?set|delete\s+from|with\s+\w+\s+as\s*\()\b/i;

/** `src/` of every package and service but packages/db, relative to the repo root. */
export function productionSourceRoots(repoRoot: string): string[] {
  return ['packages', 'services'].flatMap((group) =>
    readdirSync(join(repoRoot, group), { withFileTypes: true })
      .filter((d) => d.isDirectory() && !(group === 'packages' && d.name === 'db'))
      .map((d) => join(group, d.name, 'src'))
      .filter((src) => existsSync(join(repoRoot, src)) && statSync(join(repoRoot, src)).isDirectory()),
  );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : sourceFiles(path);
    return SOURCE_FILE.test(entry.name) && !NOT_PRODUCTION.test(entry.name) ? [path] : [];
  });
}

/** The last name of `a`, `a.b` or `this.a`: what a client or transaction is called here. */
function nameOf(expression: ts.Expression): string | null {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  return null;
}

const isDrizzle = (specifier: ts.Node | undefined) =>
  specifier !== undefined && ts.isStringLiteralLike(specifier) && (specifier.text === 'drizzle-orm' || specifier.text.startsWith('drizzle-orm/'));

function templateHead(template: ts.TemplateLiteral): string {
  return ts.isNoSubstitutionTemplateLiteral(template) ? template.text : template.head.text;
}

/** `db.query.<table>.findMany` and the like. */
function isRelationalQuery(callee: ts.PropertyAccessExpression): boolean {
  const table = callee.expression;
  if (!ts.isPropertyAccessExpression(table) || !ts.isPropertyAccessExpression(table.expression)) return false;
  const query = table.expression;
  const receiver = nameOf(query.expression);
  return query.name.text === 'query' && receiver !== null && DRIZZLE_RUNNERS.has(receiver);
}

/** What a node is, when it is SQL: an import of drizzle, a SQL template, or a statement run on a client. */
function sqlIn(node: ts.Node): string | null {
  if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && isDrizzle(node.moduleSpecifier)) {
    return 'imports drizzle-orm';
  }
  if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && isDrizzle(node.argument.literal)) {
    return 'imports drizzle-orm';
  }
  if (ts.isCallExpression(node)) {
    const callee = node.expression;
    const dynamicImport = callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require');
    if (dynamicImport && isDrizzle(node.arguments[0])) return 'imports drizzle-orm';
    if (ts.isPropertyAccessExpression(callee)) {
      const receiver = nameOf(callee.expression);
      if (callee.name.text === 'execute' && receiver && DRIZZLE_RUNNERS.has(receiver)) return `${receiver}.execute(…)`;
      if (receiver && DRIZZLE_RUNNERS.has(receiver) && DRIZZLE_BUILDERS.has(callee.name.text)) return `${receiver}.${callee.name.text}(…) query`;
      if (isRelationalQuery(callee)) return 'drizzle relational query';
      if (callee.name.text === 'unsafe' && receiver && SQL_RUNNERS.has(receiver)) return `${receiver}.unsafe(…)`;
    }
  }
  if (ts.isTaggedTemplateExpression(node)) {
    const tag = nameOf(node.tag);
    if (tag && SQL_RUNNERS.has(tag)) return `${tag}\`…\` template`;
    if (STATEMENT_START.test(templateHead(node.template))) return 'SQL statement template';
  }
  return null;
}

function findingsIn(file: string, repoRoot: string): SqlFinding[] {
  const text = readFileSync(file, 'utf8');
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const findings: SqlFinding[] = [];
  const visit = (node: ts.Node) => {
    const what = sqlIn(node);
    if (what) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      const last = findings.at(-1);
      // A fragment nested in a statement on the same line is the same finding.
      if (last?.line !== line || last.what !== what) findings.push({ file: relative(repoRoot, file).split(sep).join('/'), line, what });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return findings;
}

/** Every drizzle import or query, SQL template and `.execute(` in the production sources outside packages/db. */
export function findSqlOutsideDb(repoRoot: string): SqlFinding[] {
  return productionSourceRoots(repoRoot)
    .flatMap((root) => sourceFiles(join(repoRoot, root)))
    .sort()
    .flatMap((file) => findingsIn(file, repoRoot));
}

export const describeFinding = (f: SqlFinding) => `${f.file}:${f.line}: ${f.what}`;
