import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSessionState } from '../../auth/session.js';
import { FormField } from '../../ui/FormField.js';

type SignInState = { returnTo?: string } | null;

/**
 * Reads `#token=…` once and removes it from the address bar at once, so the token does not stay
 * in history or get copied with the URL. Fragments never reach a server, and the console sends
 * no Referer (Referrer-Policy: no-referrer).
 */
function takeFragmentToken(): string | null {
  const hash = window.location.hash.startsWith('#') ? window.location.hash.slice(1) : '';
  const token = new URLSearchParams(hash).get('token');
  if (hash) window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  return token;
}

export function SignInPage() {
  const { session, signIn, notice } = useSessionState();
  const location = useLocation();
  const state = (location.state as SignInState) ?? null;
  const [problem, setProblem] = useState<string | null>(null);
  const [pasted, setPasted] = useState('');
  const handled = useRef(false);
  const headingId = useId();

  useEffect(() => {
    // StrictMode runs effects twice; the fragment is gone after the first run anyway.
    if (handled.current) return;
    handled.current = true;
    const token = takeFragmentToken();
    if (token !== null) setProblem(signIn(token));
  }, [signIn]);

  if (session) return <Navigate to={state?.returnTo ?? '/personal/keys'} replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(signIn(pasted));
  };

  const message = problem ?? notice;
  return (
    <main className="page page-narrow" aria-labelledby={headingId}>
      <h1 id={headingId}>Sign in to the Raffle console</h1>
      {message ? (
        <div role="alert" className={problem ? 'notice notice-error' : 'notice'}>
          {message}
        </div>
      ) : null}
      <p>
        The console signs you in with your platform session token. In production the platform&apos;s sign-in page sends you
        here with it. Running the platform locally, open one of the sign-in links that <code>pnpm start</code> prints (one per
        demo user).
      </p>
      <form onSubmit={submit} className="card">
        <FormField label="Session token" hint="A dashboard JWT, e.g. from the management token CLI.">
          <textarea
            name="token"
            rows={4}
            value={pasted}
            onChange={(e) => setPasted(e.target.value)}
            spellCheck={false}
            autoComplete="off"
            required
          />
        </FormField>
        <button type="submit" className="button button-primary">
          Sign in
        </button>
      </form>
    </main>
  );
}

export default SignInPage;
