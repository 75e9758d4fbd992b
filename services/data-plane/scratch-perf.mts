import { renderDrawEntries } from './src/domain/draw-proof.ts';
const one = 'ent_01JD0000000000000000000000:usr_01JD0000000000000000000000:1\n';
const flat = Buffer.from(one.repeat(1_000_000)).toString();
let t = performance.now();
const json = renderDrawEntries(flat);
console.log('loop render', performance.now() - t, json.length); t = performance.now();
const body = flat.replace(/([^:\n]*):([^:\n]*):([^\n]*)\n/g, '{"id":"$1","userId":"$2","weight":"$3"},');
console.log('regex render', performance.now() - t); t = performance.now();
