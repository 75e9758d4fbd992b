import type { Abi, Hex } from 'viem';
import Aggregate from './artifacts/Aggregate.json' with { type: 'json' };
import AllowlistMint from './artifacts/AllowlistMint.json' with { type: 'json' };
import BoundedBalances from './artifacts/BoundedBalances.json' with { type: 'json' };
import DemoItems from './artifacts/DemoItems.json' with { type: 'json' };
import DemoPass from './artifacts/DemoPass.json' with { type: 'json' };
import DemoToken from './artifacts/DemoToken.json' with { type: 'json' };
import HostileToken from './artifacts/HostileToken.json' with { type: 'json' };
import OwnerWallet from './artifacts/OwnerWallet.json' with { type: 'json' };

/** A contract compiled from packages/chain/contracts by scripts/compile-contracts.ts. */
export type Artifact = { contractName: string; abi: Abi; bytecode: Hex; deployedBytecode: Hex; solcVersion: string; sourceSha256: string };

export const artifacts = {
  Aggregate: Aggregate as Artifact,
  AllowlistMint: AllowlistMint as Artifact,
  BoundedBalances: BoundedBalances as Artifact,
  DemoItems: DemoItems as Artifact,
  DemoPass: DemoPass as Artifact,
  DemoToken: DemoToken as Artifact,
  HostileToken: HostileToken as Artifact,
  OwnerWallet: OwnerWallet as Artifact,
};
