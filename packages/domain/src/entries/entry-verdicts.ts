import { evaluateUserRequirements, isChainRequirement, listVerifiedWallets, type Db, type RequirementPlan } from '@raffle/db';
import { readChainVerdicts, type ChainCheck } from '../requirements/chain-verdicts.js';
import { combineVerdicts } from '../requirements/combine-verdicts.js';
import { readSocialVerdicts, type SocialCheck } from '../requirements/social/social-verdicts.js';

/**
 * An entrant's verdicts on the requirements of a raffle's plan, evaluated before the entry's
 * statement: the platform ones are plain reads (inside the entry's transaction, READ COMMITTED
 * would promise nothing more), the on-chain ones the chain's answer within the entry's budget, the
 * social ones the providers' answers with the entrant's own linked accounts (decision 0045). No
 * lock is held meanwhile. `pending` when the chain did not answer (or there is no reader), or a
 * provider was silent or asked to wait: the entry is stored and settled later (decision 0027). A
 * refusal is never made on the reader's cached view of `latest` (seconds old: a pass minted just
 * before would read as missing): when a required on-chain requirement fails, the chain is read
 * again, past the cache, and that answer decides.
 */
export async function entryVerdictsFor(db: Db, plan: RequirementPlan, args: { userId: string; at: Date; chain?: ChainCheck; social?: SocialCheck }) {
  const { requirements } = plan;
  if (requirements.length === 0) return combineVerdicts([], { passed: [], evidence: [] }, []);
  const onChain = requirements.filter(isChainRequirement);
  const chains = [...new Set(onChain.map((r) => String(r.params.chain)))];
  const readChain = async (fresh: boolean) => {
    if (onChain.length === 0) return [];
    if (!args.chain) return null;
    const wallets = (await listVerifiedWallets(db, { userIds: [args.userId], chains })).get(args.userId) ?? [];
    const reading = await readChainVerdicts(args.chain, onChain, [{ userId: args.userId, wallets }], { fresh });
    return reading.verdicts?.[0] ?? null;
  };
  const [platform, chain, [social]] = await Promise.all([
    evaluateUserRequirements(db, { requirements, workspaceId: plan.workspaceId!, userId: args.userId, at: args.at }),
    readChain(false),
    readSocialVerdicts(args.social, requirements, [args.userId]),
  ]);
  // Only a required one refuses; an optional one only weighs, and the close re-reads its weight.
  const refusedOnChain = chain?.some((verdict, i) => !verdict.passed && onChain[i]!.params.optional !== true) ?? false;
  return combineVerdicts(requirements, platform, refusedOnChain ? await readChain(true) : chain, social!);
}
