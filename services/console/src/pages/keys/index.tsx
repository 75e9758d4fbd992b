import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ApiKey } from '@raffle/sdk';
import { useScope } from '../../scope/scope.js';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice.js';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { EmptyState } from '../../ui/EmptyState.js';
import { CreateKeyDialog } from './CreateKeyDialog.js';
import { KeyTable } from './KeyTable.js';
import { RollKeyDialog } from './RollKeyDialog.js';
import { useKeyCalls, type KeyCalls } from './use-key-calls.js';
import './keys.css';

/** API keys of the current scope: the caller's own, or a workspace's (owners and admins only). */
export default function KeysPage() {
  const { scope, can, workspacesLoading } = useScope();
  const calls = useKeyCalls();
  const manage = can('manage');
  const owner = scope.kind === 'personal' ? 'your personal' : `the ${scope.workspaceName} workspace's`;

  return (
    <section className="keys-page" aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      <p>
        Keys for {owner} data-plane access. A key is shown in full only when it is created or rolled.
      </p>
      {/* Management lets only a workspace's owners and admins list its keys, so a member gets the reason instead of a 403. */}
      {manage.allowed ? (
        <ManagedKeys key={calls.listKey.join('/')} calls={calls} />
      ) : workspacesLoading ? (
        <p aria-live="polite">Loading your role…</p>
      ) : (
        <MemberNotice reason={manage.reason} />
      )}
    </section>
  );
}

function MemberNotice({ reason }: { reason?: string }) {
  return (
    <div className="keys-member">
      <p>Only owners and admins of a workspace can see and manage its API keys.</p>
      <DisabledReason label="Create key" reason={reason ?? 'Only owners and admins of this workspace can do this.'} />
      <p>Ask an owner or admin for a key, or create a personal key in your personal space.</p>
    </div>
  );
}

function ManagedKeys({ calls }: { calls: KeyCalls }) {
  const keys = useQuery({ queryKey: calls.listKey, queryFn: () => calls.list() });
  const [creating, setCreating] = useState(false);
  const [rolling, setRolling] = useState<ApiKey | null>(null);

  return (
    <>
      <div className="keys-toolbar">
        <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
          Create key
        </button>
      </div>
      {keys.error ? (
        <ApiErrorNotice error={keys.error} />
      ) : keys.isPending ? (
        <p aria-live="polite">Loading keys…</p>
      ) : keys.data.length === 0 ? (
        <EmptyState title="No API keys yet">
          Create a key to call the data plane ({calls.kind === 'personal' ? 'e.g. GET /api/v1/me' : "e.g. this workspace's raffles"}); you
          choose its scopes and, if you like, when it expires.
        </EmptyState>
      ) : (
        <KeyTable calls={calls} keys={keys.data} canManage onRoll={setRolling} />
      )}
      {creating && <CreateKeyDialog calls={calls} onClose={() => setCreating(false)} />}
      {rolling && <RollKeyDialog calls={calls} apiKey={rolling} onClose={() => setRolling(null)} />}
    </>
  );
}
