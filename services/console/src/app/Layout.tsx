import { NavLink, Outlet } from 'react-router';
import { useSession } from '../auth/session.js';
import { ScopeProvider, useScope } from '../scope/scope.js';
import { ApiErrorNotice } from '../ui/ApiErrorNotice.js';
import { SignedInUser } from './SignedInUser.js';
import { WorkspaceSwitcher } from './WorkspaceSwitcher.js';

function Navigation() {
  const { scope, basePath } = useScope();
  const linkClass = ({ isActive }: { isActive: boolean }) => (isActive ? 'nav-link nav-link-active' : 'nav-link');
  return (
    <nav aria-label="Sections" className="nav">
      <NavLink to={`${basePath}/keys`} className={linkClass}>
        Keys
      </NavLink>
      <NavLink to={`${basePath}/webhooks`} className={linkClass}>
        Webhooks
      </NavLink>
      {scope.kind === 'workspace' ? (
        <NavLink to={`${basePath}/raffles`} className={linkClass}>
          Raffles
        </NavLink>
      ) : (
        <span className="nav-link nav-link-disabled" title="Raffles belong to workspaces: pick one in Space">
          Raffles <span className="visually-hidden">(pick a workspace first)</span>
        </span>
      )}
      {/* Wallets are the signed-in user's own, whichever space is picked. */}
      <NavLink to="/personal/wallets" className={linkClass}>
        Wallets
      </NavLink>
    </nav>
  );
}

function ScopeProblems() {
  const { unknownWorkspaceId, workspacesError } = useScope();
  if (workspacesError) return <ApiErrorNotice error={workspacesError} />;
  if (unknownWorkspaceId)
    return (
      <div role="alert" className="notice notice-error">
        You are not a member of workspace <code>{unknownWorkspaceId}</code>. Pick a space you belong to above.
      </div>
    );
  return null;
}

/** The signed-in shell: header with the space switcher, the sections, sign-out; the page below. */
export function Layout() {
  const { signOut } = useSession();
  return (
    <ScopeProvider>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="header">
        <div className="header-row">
          <span className="brand">Raffle console</span>
          <WorkspaceSwitcher />
          <div className="header-user">
            <SignedInUser />
            <button type="button" className="button" onClick={() => signOut('You signed out.')}>
              Sign out
            </button>
          </div>
        </div>
        <Navigation />
      </header>
      <main id="main" className="page">
        <ScopeProblems />
        <Outlet />
      </main>
    </ScopeProvider>
  );
}
