import { getAddress, type Address, type Hex, type LocalAccount } from 'viem';
import { artifacts, type Artifact } from './artifacts.js';
import { localPublicClient, localWalletClient, sendAll } from './chain-clients.js';
import { rpc } from './rpc.js';
import { testAccounts } from './test-accounts.js';

type LocalTarget = { rpcUrl: string };

export type DeployedDemoContracts = {
  erc20: Address;
  erc721: Address;
  erc1155: Address;
};

/** What to give whom: token amounts in base units, ERC-721 token ids, ERC-1155 id amounts, native wei. */
export type DemoHoldings = {
  erc20?: { to: Address; amount: bigint }[];
  erc721?: { to: Address; tokenId: bigint }[];
  erc1155?: { to: Address; id: bigint; amount: bigint }[];
  native?: { to: Address; wei: bigint }[];
};

const deployer = (): LocalAccount => testAccounts(1)[0]!;

async function deploy(chain: LocalTarget, artifact: Artifact, args: unknown[], from: LocalAccount = deployer()): Promise<Address> {
  const wallet = localWalletClient(chain, from);
  const hash = await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args });
  const receipt = await localPublicClient(chain).waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deploying ${artifact.contractName} failed`);
  return getAddress(receipt.contractAddress);
}

/**
 * Deploys DemoToken (ERC-20), DemoPass (ERC-721) and DemoItems (ERC-1155), owned by test account 0.
 * `name`/`symbol` name the pass and the token (e.g. "Nebula Pass"), so a failed requirement reads well.
 */
export async function deployDemoContracts(chain: LocalTarget, options: { name?: string; symbol?: string } = {}): Promise<DeployedDemoContracts> {
  const name = options.name ?? 'Nebula Pass';
  const symbol = options.symbol ?? 'NEB';
  const owner = deployer();
  const wallet = localWalletClient(chain, owner);
  const publicClient = localPublicClient(chain);
  // Sent together with consecutive nonces: one block instead of three.
  const first = await publicClient.getTransactionCount({ address: owner.address, blockTag: 'pending' });
  const plan: [Artifact, unknown[]][] = [
    [artifacts.DemoToken, [`${name} Token`, symbol]],
    [artifacts.DemoPass, [name, `${symbol}P`]],
    [artifacts.DemoItems, ['https://example.invalid/items/{id}.json']],
  ];
  const hashes: Hex[] = [];
  for (const [index, [artifact, args]] of plan.entries()) {
    hashes.push(await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args, nonce: first + index }));
  }
  const [erc20, erc721, erc1155] = await Promise.all(
    hashes.map(async (hash, index) => {
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deploying ${plan[index]![0].contractName} failed`);
      return getAddress(receipt.contractAddress);
    }),
  );
  if (!erc20 || !erc721 || !erc1155) throw new Error('deploying the demo contracts failed');
  return { erc20, erc721, erc1155 };
}

/** Mints (as the owner, test account 0) and sets native balances; returns once every mint is mined. */
export async function mintDemoHoldings(chain: LocalTarget, contracts: DeployedDemoContracts, holdings: DemoHoldings): Promise<void> {
  const owner = deployer();
  const wallet = localWalletClient(chain, owner);
  const sends: ((nonce: number) => Promise<Hex>)[] = [
    ...(holdings.erc20 ?? []).map(
      ({ to, amount }) =>
        (nonce: number) =>
          wallet.writeContract({ address: contracts.erc20, abi: artifacts.DemoToken.abi, functionName: 'mint', args: [to, amount], nonce }),
    ),
    ...(holdings.erc721 ?? []).map(
      ({ to, tokenId }) =>
        (nonce: number) =>
          wallet.writeContract({ address: contracts.erc721, abi: artifacts.DemoPass.abi, functionName: 'mint', args: [to, tokenId], nonce }),
    ),
    ...(holdings.erc1155 ?? []).map(
      ({ to, id, amount }) =>
        (nonce: number) =>
          wallet.writeContract({ address: contracts.erc1155, abi: artifacts.DemoItems.abi, functionName: 'mint', args: [to, id, amount], nonce }),
    ),
  ];
  await sendAll(chain, owner, sends);
  for (const { to, wei } of holdings.native ?? []) await setNativeBalance(chain, to, wei);
}

/** anvil_setBalance: the wallet holds exactly `wei` from the next read on (no transaction, no block). */
export async function setNativeBalance(chain: LocalTarget, address: Address, wei: bigint): Promise<void> {
  await rpc(chain.rpcUrl, 'anvil_setBalance', [address, `0x${wei.toString(16)}`]);
}

/** An OwnerWallet (ERC-1271) whose signatures are `owner`'s; deployed by test account 0. */
export async function deployOwnerWallet(chain: LocalTarget, owner: LocalAccount | Address): Promise<Address> {
  const ownerAddress = typeof owner === 'string' ? owner : owner.address;
  return deploy(chain, artifacts.OwnerWallet, [ownerAddress]);
}

/** The sender pays gas: one of test accounts 0-9, or an account given ETH with setNativeBalance. */
export async function transferErc20(chain: LocalTarget, contract: Address, from: LocalAccount, to: Address, amount: bigint): Promise<void> {
  const wallet = localWalletClient(chain, from);
  await sendAll(chain, from, [(nonce) => wallet.writeContract({ address: contract, abi: artifacts.DemoToken.abi, functionName: 'transfer', args: [to, amount], nonce })]);
}

export async function transferErc721(chain: LocalTarget, contract: Address, from: LocalAccount, to: Address, tokenId: bigint): Promise<void> {
  const wallet = localWalletClient(chain, from);
  await sendAll(chain, from, [
    (nonce) => wallet.writeContract({ address: contract, abi: artifacts.DemoPass.abi, functionName: 'transferFrom', args: [from.address, to, tokenId], nonce }),
  ]);
}

export async function transferErc1155(chain: LocalTarget, contract: Address, from: LocalAccount, to: Address, id: bigint, amount: bigint): Promise<void> {
  const wallet = localWalletClient(chain, from);
  await sendAll(chain, from, [
    (nonce) =>
      wallet.writeContract({
        address: contract,
        abi: artifacts.DemoItems.abi,
        functionName: 'safeTransferFrom',
        args: [from.address, to, id, amount, '0x'],
        nonce,
      }),
  ]);
}

/** Mines one block now (evm_mine), e.g. to fix a block number between two steps of a test. */
export async function mineBlock(chain: LocalTarget): Promise<bigint> {
  await rpc(chain.rpcUrl, 'evm_mine', []);
  return localPublicClient(chain).getBlockNumber({ cacheTime: 0 });
}
