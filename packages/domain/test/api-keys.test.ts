import { addWorkspaceMember, type ApiKeyOwner } from '@raffle/db';
import { describe, expect, it } from 'vitest';
import { createApiKey, listApiKeys, revokeApiKey, rollApiKey, SCHEDULER, userPrincipal, type Principal } from '../src/index.js';
import { useWorld } from './support/world.js';

/**
 * The key functions check the acting principal themselves, inside their transactions: a route
 * that forgot its hook would still refuse an outsider.
 */
const world = useWorld();

const body = { name: 'ci', scopes: ['raffles:read'] };
const refused = { code: 'FORBIDDEN', statusCode: 403 };

/** Every key function as `actor` on `owner`'s keys, given a key of that owner to revoke and roll. */
function everyCall(actor: Principal, owner: ApiKeyOwner, keyId: string) {
  const scope = { actor, owner };
  return [
    () => createApiKey(world.db, { ...scope, body, maxActiveKeys: 10 }),
    () => listApiKeys(world.db, scope),
    () => revokeApiKey(world.db, { ...scope, keyId }),
    () => rollApiKey(world.db, { ...scope, keyId, expireOldInSeconds: 0, maxActiveKeys: 10 }),
  ];
}

describe('workspace keys', () => {
  const owner = (): ApiKeyOwner => ({ kind: 'workspace', workspaceId: world.workspace.id });

  it('an admin creates, lists, rolls and revokes; the creator is the acting user', async () => {
    const admin = await world.user();
    await addWorkspaceMember(world.db, { workspaceId: world.workspace.id, userId: admin.id, role: 'admin' });
    const actor = userPrincipal(admin.id);
    const created = await createApiKey(world.db, { actor, owner: owner(), body, maxActiveKeys: 10 });
    expect((await listApiKeys(world.db, { actor, owner: owner() })).map((k) => k.id)).toContain(created.id);
    const rolled = await rollApiKey(world.db, { actor, owner: owner(), keyId: created.id, expireOldInSeconds: 0, maxActiveKeys: 10 });
    const revoked = await revokeApiKey(world.db, { actor, owner: owner(), keyId: rolled.id });
    expect(revoked.revokedAt).toBeDefined();
  });

  it('refuses a plain member, an outsider and the system on every function', async () => {
    const { id: keyId } = await createApiKey(world.db, { actor: userPrincipal(world.owner.id), owner: owner(), body, maxActiveKeys: 10 });
    const member = await world.user();
    await addWorkspaceMember(world.db, { workspaceId: world.workspace.id, userId: member.id, role: 'member' });
    const outsider = await world.user();
    for (const actor of [userPrincipal(member.id), userPrincipal(outsider.id), SCHEDULER]) {
      for (const call of everyCall(actor, owner(), keyId)) await expect(call()).rejects.toMatchObject(refused);
    }
    // Nothing was changed by the refused calls.
    const [key] = (await listApiKeys(world.db, { actor: userPrincipal(world.owner.id), owner: owner() })).filter((k) => k.id === keyId);
    expect(key?.revokedAt).toBeUndefined();
  });

  it('refuses an unknown workspace exactly like a foreign one', async () => {
    const actor = userPrincipal(world.owner.id);
    for (const workspaceId of ['wks_01JZZZZZZZZZZZZZZZZZZZZZZZ', 'not-a-workspace']) {
      const call = () => listApiKeys(world.db, { actor, owner: { kind: 'workspace', workspaceId } });
      await expect(call()).rejects.toMatchObject({ ...refused, message: 'only owners and admins of this workspace manage its API keys' });
    }
  });
});

describe('personal keys', () => {
  it("refuses another user and the system on a user's personal keys", async () => {
    const user = await world.user();
    const owner: ApiKeyOwner = { kind: 'personal', userId: user.id };
    const { id: keyId } = await createApiKey(world.db, { actor: userPrincipal(user.id), owner, body: { name: 'mine', scopes: ['profile:read'] }, maxActiveKeys: 10 });
    const other = await world.user();
    for (const actor of [userPrincipal(other.id), SCHEDULER]) {
      for (const call of everyCall(actor, owner, keyId)) await expect(call()).rejects.toMatchObject(refused);
    }
    expect((await listApiKeys(world.db, { actor: userPrincipal(user.id), owner })).map((k) => k.id)).toEqual([keyId]);
  });
});
