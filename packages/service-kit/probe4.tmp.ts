import { createDatabase } from '@raffle/db';
import { startPrivatePostgres } from './src/testing/private-postgres.ts';
import { startPrivatePgBouncer } from './src/testing/private-pgbouncer.ts';
const pg = await startPrivatePostgres();
const bouncer = await startPrivatePgBouncer({ targetHost: '127.0.0.1', targetPort: pg.port, poolMode: 'transaction', connectQuery: 'select 1', targetPassword: 'postgres' });
const db = createDatabase({ url: bouncer.url('postgres'), max: 4, poolMode: 'transaction', onPoolerRelease: (ms) => console.log(Date.now() - t0, 'release', Math.round(ms), JSON.stringify(db.poolStats())) });
let t0 = Date.now();
let running = true;
const slow: string[] = [];
async function worker(i: number) {
  while (running) {
    const s = Date.now();
    let r = 'ok';
    try { const rows: any = (i % 2) ? await db.sql`select 1 as x` : await db.sql.begin(async (tx) => tx`select 1 as x`); if (rows.length !== 1) r = 'EMPTY'; } catch (e: any) { r = e.code; }
    const d = Date.now() - s;
    if (d > 0) slow.push(`${i} start ${s - t0} took ${d} ${r}`);
    await new Promise((res) => setTimeout(res, 30));
  }
}
const ws = [0,1,2,3,4,5].map(worker);
await new Promise((r) => setTimeout(r, 500));
t0 = Date.now();
await pg.stop('fast');
console.log('down', Date.now() - t0);
await new Promise((r) => setTimeout(r, 3000));
await pg.start(); console.log('back', Date.now() - t0);
await new Promise((r) => setTimeout(r, 1500));
running = false; await Promise.all(ws);
console.log(slow.join('\n'));
await db.close(); await bouncer.destroy(); await pg.destroy();
