import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, Navigate, Outlet } from 'react-router';
import { RequireSession } from '../auth/RequireSession.js';
import { SessionProvider } from '../auth/session.js';
import { SignInPage } from '../pages/sign-in/index.js';
import { ToastProvider, Toaster } from '../ui/toast.js';
import { AppProviders } from './AppProviders.js';
import { Layout } from './Layout.js';
import { NotFound } from './NotFound.js';
import { RouteError } from './RouteError.js';

// Each area is its own chunk: the first page loads only what it shows.
const KeysPage = lazy(() => import('../pages/keys/index.js'));
const WebhooksPage = lazy(() => import('../pages/webhooks/index.js'));
const WebhookEndpointPage = lazy(() => import('../pages/webhooks/endpoint.js'));
const RafflesPage = lazy(() => import('../pages/raffles/index.js'));
const NewRafflePage = lazy(() => import('../pages/raffles/new.js'));
const RafflePage = lazy(() => import('../pages/raffles/raffle.js'));
const VerifyPage = lazy(() => import('../pages/verify/index.js'));
const WalletsPage = lazy(() => import('../pages/wallets/index.js'));
const ConnectionCallbackPage = lazy(() => import('../pages/connections/callback.js'));

function page(Page: LazyExoticComponent<ComponentType>) {
  return (
    <Suspense fallback={<p className="loading">Loading…</p>}>
      <Page />
    </Suspense>
  );
}

/** Everything shared by signed-in and public pages: session, queries, feedback. */
function Root() {
  return (
    <SessionProvider>
      <AppProviders>
        <ToastProvider>
          <Outlet />
          <Toaster />
        </ToastProvider>
      </AppProviders>
    </SessionProvider>
  );
}

export const router = createBrowserRouter([
  {
    element: <Root />,
    errorElement: <RouteError />,
    children: [
      { path: '/sign-in', element: <SignInPage /> },
      { path: '/verify/:slug', element: page(VerifyPage) },
      {
        path: '/',
        element: (
          <RequireSession>
            <Layout />
          </RequireSession>
        ),
        children: [
          { index: true, element: <Navigate to="/personal/keys" replace /> },
          { path: 'personal', element: <Navigate to="/personal/keys" replace /> },
          { path: 'personal/keys', element: page(KeysPage) },
          { path: 'personal/webhooks', element: page(WebhooksPage) },
          { path: 'personal/webhooks/:endpointId', element: page(WebhookEndpointPage) },
          { path: 'personal/wallets', element: page(WalletsPage) },
          // Where Discord and X send the browser back (CONNECTION_REDIRECT_BASE_URL + this path is registered with them).
          { path: 'connections/:provider/callback', element: page(ConnectionCallbackPage) },
          { path: 'w/:workspaceId', element: <Navigate to="keys" replace /> },
          { path: 'w/:workspaceId/keys', element: page(KeysPage) },
          { path: 'w/:workspaceId/webhooks', element: page(WebhooksPage) },
          { path: 'w/:workspaceId/webhooks/:endpointId', element: page(WebhookEndpointPage) },
          { path: 'w/:workspaceId/raffles', element: page(RafflesPage) },
          { path: 'w/:workspaceId/raffles/new', element: page(NewRafflePage) },
          { path: 'w/:workspaceId/raffles/:raffleId', element: page(RafflePage) },
          { path: '*', element: <NotFound /> },
        ],
      },
    ],
  },
]);
