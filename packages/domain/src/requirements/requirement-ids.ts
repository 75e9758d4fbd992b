import { REQUIREMENT_TYPES, type RaffleRequirementInput } from '@raffle/contracts';
import type { schema } from '@raffle/db';

const KNOWN_TYPES = new Set<string>(REQUIREMENT_TYPES);

/**
 * A requirement's id names it on entries' requirement results, so it is stable once given; a
 * client that has no name for one may leave it out, and it is generated here from the type,
 * `<type>-<n>` with the smallest n not already used in the list (given ids keep theirs, whatever
 * their place). An unknown type is named `requirement-<n>`, and refused by requirementProblems.
 */
export function withRequirementIds(requirements: readonly RaffleRequirementInput[]): schema.RaffleRequirement[] {
  const taken = new Set(requirements.flatMap((r) => (r.id === undefined ? [] : [r.id])));
  return requirements.map((requirement) => {
    if (requirement.id !== undefined) return requirement as schema.RaffleRequirement;
    const base = KNOWN_TYPES.has(requirement.type) ? requirement.type : 'requirement';
    let n = 1;
    while (taken.has(`${base}-${n}`)) n += 1;
    const id = `${base}-${n}`;
    taken.add(id);
    return { ...requirement, id, params: requirement.params ?? {} } as schema.RaffleRequirement;
  });
}
