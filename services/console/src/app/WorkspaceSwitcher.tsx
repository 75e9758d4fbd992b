import { useId } from 'react';
import { useScope } from '../scope/scope.js';

/** Personal space plus every workspace, each with the user's role; changing it keeps the section. */
export function WorkspaceSwitcher() {
  const { scope, workspaces, workspacesLoading, setScope } = useScope();
  const id = useId();
  const value = scope.kind === 'personal' ? 'personal' : scope.workspaceId;
  return (
    <div className="switcher">
      <label htmlFor={id} className="switcher-label">
        Space
      </label>
      <select
        id={id}
        className="switcher-select"
        value={value}
        onChange={(e) => setScope(e.target.value === 'personal' ? { kind: 'personal' } : { kind: 'workspace', workspaceId: e.target.value })}
      >
        <option value="personal">Personal</option>
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name} ({w.role})
          </option>
        ))}
        {scope.kind === 'workspace' && !workspaces.some((w) => w.id === scope.workspaceId) ? (
          <option value={scope.workspaceId}>{workspacesLoading ? 'Loading…' : scope.workspaceId}</option>
        ) : null}
      </select>
    </div>
  );
}
