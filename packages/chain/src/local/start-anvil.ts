import { spawn, type ChildProcess } from 'node:child_process';
import { CANONICAL_MULTICALL3 } from '../rpc-urls.js';
import { anvilBinary } from './anvil-binary.js';
import { artifacts } from './artifacts.js';
import { rpc } from './rpc.js';

export type LocalChain = {
  /** `anvil` */
  name: string;
  rpcUrl: string;
  chainId: number;
  /** CHAIN_RPC_URLS for this chain. */
  env: { CHAIN_RPC_URLS: string };
  stop(): Promise<void>;
};

export type StartAnvilOptions = {
  /** 0 (default): a free port the kernel picks. A fixed port lets a test stop the chain and start it again at the same URL. */
  port?: number;
  /** Seconds between blocks (default 1), so block timestamps move like a real chain's; 0 mines only on transactions. */
  blockTime?: number;
};

const CHAIN_ID = 31337;
const STARTUP_MS = 30_000;
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Our own processes die with us: an anvil left behind would hold its port for the next run. */
function killOnExit(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const anvil of running) anvil.kill('SIGKILL');
  });
}

/**
 * Starts anvil (chain id 31337, the public test mnemonic's funded accounts) on 127.0.0.1, waits
 * until it answers eth_chainId, and puts our aggregate3 contract at the canonical Multicall3 address
 * so the reader finds it where it would on a public chain.
 */
export async function startAnvil(options: StartAnvilOptions = {}): Promise<LocalChain> {
  const blockTime = options.blockTime ?? 1;
  const args = ['--host', '127.0.0.1', '--port', String(options.port ?? 0), '--chain-id', String(CHAIN_ID)];
  if (blockTime > 0) args.push('--block-time', String(blockTime));
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  killOnExit(child);
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`anvil did not listen within ${STARTUP_MS} ms:\n${output}`)), STARTUP_MS);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /Listening on [\d.]+:(\d+)/.exec(output);
      if (listening) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        // Keep draining so a full pipe never blocks anvil.
        child.stdout?.resume();
        resolve(Number(listening[1]));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => fail(new Error(`anvil exited (${code}) before listening:\n${output}`)));
    child.once('error', fail);
  });
  const rpcUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  };
  try {
    await waitForChainId(rpcUrl);
    await rpc(rpcUrl, 'anvil_setCode', [CANONICAL_MULTICALL3, artifacts.Aggregate.deployedBytecode]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { name: 'anvil', rpcUrl, chainId: CHAIN_ID, env: { CHAIN_RPC_URLS: `anvil=${rpcUrl}` }, stop };
}

async function waitForChainId(rpcUrl: string): Promise<void> {
  const deadline = Date.now() + STARTUP_MS;
  for (;;) {
    try {
      const id = await rpc(rpcUrl, 'eth_chainId', []);
      if (Number(id) === CHAIN_ID) return;
      throw new Error(`anvil answered chain id ${String(id)}, not ${CHAIN_ID}`);
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
