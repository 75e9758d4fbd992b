import { useRouteError } from 'react-router';
import { ApiErrorNotice } from '../ui/ApiErrorNotice.js';

/** Last resort for an error no page caught: say so instead of a blank page. */
export function RouteError() {
  const error = useRouteError();
  return (
    <main className="page page-narrow">
      <h1>Something went wrong</h1>
      <ApiErrorNotice error={error} />
      <p>
        <a href="/personal/keys">Back to the console</a>
      </p>
    </main>
  );
}
