import {
  addWorkspaceMember,
  createDatabase,
  insertProject,
  insertWorkspace,
  renderEntryColumns,
  renderProfile,
  runMigrations,
  schema,
  type Db,
  type Sql,
} from '@raffle/db';
import { and, asc, eq, gte, inArray } from 'drizzle-orm';
import postgres from 'postgres';
import { copyRows } from './copy.js';
import { entryRows, planRaffles, userRows, type DatasetSpec, type WorkspaceWithProjects } from './dataset.js';

const DAY = 86_400_000;
/** Bump when the generated data changes shape, so an old dataset is not mistaken for the current one. */
const DATASET_VERSION = 1;

/** What a run needs to know about the seeded data; stored in the database beside it. */
export type Manifest = {
  version: number;
  spec: DatasetSpec;
  ownerUserId: string;
  /** Workspace 0: owns the big raffle; the workspace key belongs to it. */
  workspaceId: string;
  bigRaffleId: string;
  /** The 1-based position, in id order, of the last entry before the deep page, and its id. */
  deepPosition: number;
  deepAfterEntryId: string;
  publicListedRaffles: number;
  seededAt: string;
  seedSeconds: number;
  phases: Record<string, number>;
};

export type DatasetTarget = { adminUrl: string; benchUrl: string; databaseName: string };

async function readManifest(target: DatasetTarget): Promise<Manifest | null> {
  const admin = postgres(target.adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [exists] = await admin`select 1 from pg_database where datname = ${target.databaseName}`;
    if (!exists) return null;
  } finally {
    await admin.end();
  }
  const sql = postgres(target.benchUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ manifest: Manifest }[]>`select manifest from bench_dataset`;
    return row?.manifest ?? null;
  } catch {
    // No marker table: a seed that never finished.
    return null;
  } finally {
    await sql.end();
  }
}

async function recreateDatabase(target: DatasetTarget) {
  const admin = postgres(target.adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin`drop database if exists ${admin(target.databaseName)} with (force)`;
    await admin`create database ${admin(target.databaseName)}`;
  } finally {
    await admin.end();
  }
}

/** Times each phase so the report can say where seeding spends its minutes. */
function phaseTimer(log: (line: string) => void) {
  const phases: Record<string, number> = {};
  return {
    phases,
    async run<T>(name: string, work: () => Promise<T>): Promise<T> {
      const started = performance.now();
      const result = await work();
      phases[name] = Math.round((performance.now() - started) / 100) / 10;
      log(`  ${name}: ${phases[name]} s`);
      return result;
    },
  };
}

async function seed(target: DatasetTarget, spec: DatasetSpec, log: (line: string) => void): Promise<Manifest> {
  const started = performance.now();
  const timer = phaseTimer(log);
  await timer.run('recreate database + migrations', async () => {
    await recreateDatabase(target);
    await runMigrations(target.benchUrl);
  });

  const database = createDatabase({ url: target.benchUrl, max: 2, applicationName: 'bench-seed' });
  try {
    const { sql, db } = database;
    const nowMs = Date.now();
    const userIds: string[] = [];
    const userCount = Math.max(spec.bigRaffleEntries, spec.smallRaffleEntries, 1);
    await timer.run(`users (${userCount})`, () => copyRows(sql, schema.users, userRows(userCount, nowMs - 500 * DAY, userIds)));
    const ownerUserId = userIds[0]!;

    const workspaces = await timer.run('workspaces + projects', async () => {
      const result: WorkspaceWithProjects[] = [];
      for (let w = 0; w < spec.workspaces; w++) {
        const workspace = await insertWorkspace(db, {
          slug: `bench-ws-${w}`,
          name: `Bench Workspace ${w}`,
          logoUrl: w % 2 === 0 ? `https://cdn.example.com/ws/${w}.png` : null,
          createdAt: new Date(nowMs - 400 * DAY),
        });
        await addWorkspaceMember(db, { workspaceId: workspace.id, userId: ownerUserId, role: 'owner' });
        const projects = [];
        for (let p = 0; p < 5; p++) {
          const project = await insertProject(db, {
            workspaceId: workspace.id,
            slug: `project-${p}`,
            name: `Project ${w}.${p}`,
            logoUrl: p % 2 === 0 ? `https://cdn.example.com/p/${w}-${p}.png` : null,
            description: 'A benchmark project',
            websiteUrl: 'https://example.com',
            chain: 'ethereum',
            createdAt: new Date(nowMs - 399 * DAY),
          });
          projects.push({ id: project.id, slug: project.slug, name: project.name, logoUrl: project.logoUrl });
        }
        result.push({ workspace, projects });
      }
      return result;
    });

    const raffles = planRaffles(spec, workspaces, nowMs);
    await timer.run(`raffles (${raffles.length})`, () => copyRows(sql, schema.raffles, raffles));

    const big = raffles[0]!;
    await timer.run(`entries of the big raffle (${spec.bigRaffleEntries})`, () =>
      copyRows(sql, schema.entries, entryRows({ id: big.id!, slug: big.slug }, userIds, spec.bigRaffleEntries, big.openedAt!.getTime())),
    );
    // Other raffles of workspace 0 (raffle i belongs to workspace i % workspaces).
    const small = raffles.filter((r, i) => i > 0 && r.workspaceId === big.workspaceId && r.openedAt).slice(0, spec.smallRaffles);
    await timer.run(`entries of ${small.length} small raffles (${spec.smallRaffleEntries} each)`, async () => {
      for (const raffle of small) {
        await copyRows(sql, schema.entries, entryRows({ id: raffle.id!, slug: raffle.slug }, userIds, spec.smallRaffleEntries, raffle.openedAt!.getTime()));
      }
    });

    // Without this (autovacuum is off on the development server, and slow to start anywhere), the
    // first benchmark reads would set hint bits, find no visibility map and plan without statistics.
    await timer.run('vacuum analyze + checkpoint', async () => {
      await sql`vacuum (analyze) users, raffles, entries`;
      await sql`checkpoint`;
    });

    const deepPosition = Math.max(1, Math.floor(spec.bigRaffleEntries * 0.9));
    const [deep] = await sql<{ id: string }[]>`
      select id from entries where raffle_id = ${big.id!} order by id offset ${deepPosition - 1} limit 1`;
    const [listed] = await sql<{ count: number }[]>`
      select count(*)::int as count from raffles
      where visibility = 'public' and status in ('scheduled', 'open', 'closed', 'drawn', 'finalized')`;

    await timer.run('verify rendered columns', () =>
      verifyRenderedSample(db, { id: big.id!, slug: big.slug }, [userIds[0]!, userIds[userIds.length - 1]!], deep!.id),
    );

    const manifest: Manifest = {
      version: DATASET_VERSION,
      spec,
      ownerUserId,
      workspaceId: big.workspaceId,
      bigRaffleId: big.id!,
      deepPosition,
      deepAfterEntryId: deep!.id,
      publicListedRaffles: listed!.count,
      seededAt: new Date().toISOString(),
      seedSeconds: Math.round((performance.now() - started) / 100) / 10,
      phases: timer.phases,
    };
    await writeManifest(sql, manifest);
    return manifest;
  } finally {
    await database.close();
  }
}

/**
 * Reads rows back through drizzle and renders them again with the package's functions: any
 * difference means the COPY path wrote something `insertEntry`/`insertUser` would not have.
 */
async function verifyRenderedSample(db: Db, raffle: { id: string; slug: string }, userIds: string[], deepEntryId: string) {
  const { entries, users } = schema;
  const sample = async (fromId: string) =>
    db.select().from(entries).where(and(eq(entries.raffleId, raffle.id), gte(entries.id, fromId))).orderBy(asc(entries.id)).limit(50);
  for (const row of [...(await sample('')), ...(await sample(deepEntryId))]) {
    const { workspaceJson, ownerJson, ...entry } = row;
    const again = renderEntryColumns(entry, raffle.slug, []);
    if (again.workspaceJson !== workspaceJson || again.ownerJson !== ownerJson) {
      throw new Error(`entry ${row.id} was stored as ${workspaceJson} but renders as ${again.workspaceJson}`);
    }
  }
  for (const row of await db.select().from(users).where(inArray(users.id, userIds))) {
    const { profileJson, ...user } = row;
    if (renderProfile(user, []) !== profileJson) throw new Error(`user ${row.id} profile differs from renderProfile`);
  }
}

/** Written last: a seed interrupted half-way leaves no marker, so the next run seeds again. */
async function writeManifest(sql: Sql, manifest: Manifest) {
  await sql`create table bench_dataset (manifest jsonb not null)`;
  await sql`insert into bench_dataset (manifest) values (${JSON.stringify(manifest)}::jsonb)`;
}

// Field by field: jsonb does not keep key order, so the stored spec's JSON text differs.
const sameSpec = (a: DatasetSpec, b: DatasetSpec) => (Object.keys(b) as (keyof DatasetSpec)[]).every((key) => a[key] === b[key]);

/** Reuses the dataset when its marker matches `spec` (seeding takes minutes), else seeds it from scratch. */
export async function ensureDataset(
  target: DatasetTarget,
  spec: DatasetSpec,
  options: { reseed: boolean; log: (line: string) => void },
): Promise<{ manifest: Manifest; seededNow: boolean }> {
  if (!options.reseed) {
    const existing = await readManifest(target);
    if (existing && existing.version === DATASET_VERSION && sameSpec(existing.spec, spec)) {
      options.log(`dataset: reusing ${target.databaseName} seeded ${existing.seededAt} in ${existing.seedSeconds} s (--reseed to rebuild)`);
      // Seeded by an older checkout: its schema catches up first (an FCFS raffle opened with the
      // current code needs the spot rows of migration 0014, for instance). Applied migrations are skipped.
      await runMigrations(target.benchUrl);
      return { manifest: existing, seededNow: false };
    }
  }
  options.log(`dataset: seeding ${target.databaseName} (${JSON.stringify(spec)})`);
  const manifest = await seed(target, spec, options.log);
  options.log(`dataset: seeded in ${manifest.seedSeconds} s`);
  return { manifest, seededNow: true };
}
