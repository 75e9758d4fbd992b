// Starts a local chain, prints its URL, and exits without stopping it: the exit hook must kill anvil.
import { startAnvil } from '../../src/local/index.js';

const chain = await startAnvil();
console.log(chain.rpcUrl);
process.exit(0);
