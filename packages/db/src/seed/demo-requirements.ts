import type { RequirementType } from '@raffle/contracts';
import type { RaffleRequirement } from '../schema/raffles.js';
import type { RequirementEvaluation } from '../writes/entries.js';
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
};

export type EvaluationContext = { at: Date; workspaceRoles: ReadonlyMap<string, string> };

function verdict(req: RaffleRequirement, person: DemoPerson, ctx: EvaluationContext): { passed: boolean; evidence: Record<string, unknown> } {
  switch (req.type) {
    case 'wallet_connected': {
      const wallet = person.wallets.find((w) => w.chain === req.params.chain && w.verified);
      return { passed: Boolean(wallet), evidence: wallet ? { chain: wallet.chain, address: wallet.address } : { chain: req.params.chain } };
    }
    case 'account_age_days': {
      const ageDays = Math.floor((ctx.at.getTime() - person.createdAt.getTime()) / DAY_MS);
      return { passed: ageDays >= Number(req.params.min), evidence: { accountCreatedAt: person.createdAt.toISOString(), ageDays } };
    }
    case 'email_verified':
      return { passed: person.emailVerifiedAt !== null, evidence: { verifiedAt: person.emailVerifiedAt?.toISOString() ?? null } };
    case 'workspace_member': {
      const role = ctx.workspaceRoles.get(person.id);
      return { passed: role !== undefined, evidence: { role: role ?? null } };
    }
    case 'holds_role':
      return { passed: person.roles.includes(String(req.params.role)), evidence: { roles: person.roles } };
    default:
      throw new Error(`the demo cannot evaluate requirement type ${req.type}`);
  }
}

export function evaluateRequirements(reqs: RaffleRequirement[], person: DemoPerson, ctx: EvaluationContext): RequirementEvaluation[] {
  return reqs.map((req) => ({
    requirementId: req.id,
    type: req.type as RequirementType,
    label: req.label,
    ...verdict(req, person, ctx),
  }));
}

/** The statusReason of an invalid entry: which requirements failed, in the raffle's order. */
export const failedRequirementsReason = (evaluations: RequirementEvaluation[]): string =>
  `Requirements not met: ${evaluations
    .filter((e) => !e.passed)
    .map((e) => e.label)
    .join('; ')}`;
