import type { RaffleRequirementInput as RaffleRequirement, RequirementType } from '@raffle/contracts';
import type { DemoPerson } from './demo-people.js';

const DAY_MS = 24 * 60 * 60 * 1000;

const requirement = (id: string, type: RequirementType, label: string, params: Record<string, unknown> = {}): RaffleRequirement => ({
  id,
  type,
  label,
  params,
});

export const requirements = {
  walletConnected: (chain: string) =>
    requirement(`wallet-${chain}`, 'wallet_connected', `A verified ${chain} wallet is connected`, { chain }),
  accountAgeDays: (min: number) => requirement(`account-age-${min}`, 'account_age_days', `Account is at least ${min} days old`, { min }),
  emailVerified: () => requirement('email-verified', 'email_verified', 'Email address is verified'),
  workspaceMember: () => requirement('workspace-member', 'workspace_member', 'Member of the workspace'),
  holdsRole: (role: string) => requirement(`role-${role}`, 'holds_role', `Holds the ${role} role`, { role }),
  /** An ERC-721 holding on a chain: at least `min` tokens of the collection, over the entrant's verified wallets there. */
  holdsNft: (chain: string, contract: string, name: string, min = '1') =>
    requirement('holds-nebula-pass', 'token_balance', `Holds at least ${min} ${name}`, { chain, contract, standard: 'erc721', min }),
};

/** What the requirements look at besides the person: the moment, and the raffle workspace's members. */
export type RequirementFacts = { at: Date; isMember: (person: DemoPerson) => boolean };

/**
 * The plan's copy of the requirement SQL (@raffle/db's requirement-checks.ts), over the facts the
 * loader will insert. The plan must predict the domain exactly: which entries it accepts, and
 * which ones the draw's re-check keeps, decide the draw the seed search works on. The loader
 * fails loudly if the two ever disagree.
 */
function passes(req: RaffleRequirement, person: DemoPerson, facts: RequirementFacts): boolean {
  switch (req.type) {
    case 'wallet_connected':
      return person.wallets.some((w) => w.chain === req.params.chain && w.verified);
    case 'account_age_days':
      return person.createdAt.getTime() <= facts.at.getTime() - Number(req.params.min) * DAY_MS;
    case 'email_verified':
      return person.emailVerifiedAt !== null;
    case 'workspace_member':
      return facts.isMember(person);
    case 'holds_role':
      // The loader grants every role in `person.roles` in the workspace of each raffle requiring it.
      return person.roles.includes(String(req.params.role));
    default:
      // On-chain types read a chain the plan cannot see: the demo plays no entries into those raffles.
      throw new Error(`the demo cannot predict requirement type ${req.type}`);
  }
}

/** Whether `person` meets every requirement (the demo has no optional ones, so all are required). */
export const meetsRequirements = (reqs: RaffleRequirement[], person: DemoPerson, facts: RequirementFacts): boolean =>
  reqs.every((req) => passes(req, person, facts));
