import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { describeError } from './ApiErrorNotice.js';

type Toast = { id: number; kind: 'success' | 'error'; message: string; requestId?: string };
type ToastApi = { success(message: string): void; error(error: unknown): void };

const ToastContext = createContext<{ toasts: Toast[]; api: ToastApi; dismiss(id: number): void } | null>(null);

const SHOW_MS = 6000;
let nextId = 1;

/** Holds the feedback messages of mutating actions; <Toaster/> shows them. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const push = useCallback(
    (toast: Omit<Toast, 'id'>) => {
      const id = nextId++;
      setToasts((all) => [...all.slice(-3), { ...toast, id }]);
      // Errors stay until dismissed: the request id may need copying.
      if (toast.kind === 'success') window.setTimeout(() => dismiss(id), SHOW_MS);
    },
    [dismiss],
  );
  const api = useMemo<ToastApi>(
    () => ({
      success: (message) => push({ kind: 'success', message }),
      error: (error) => push({ kind: 'error', ...describeError(error) }),
    }),
    [push],
  );
  const value = useMemo(() => ({ toasts, api, dismiss }), [toasts, api, dismiss]);
  return <ToastContext.Provider value={value}>{children}</ToastContext.Provider>;
}

export function useToast(): ToastApi {
  const context = useContext(ToastContext);
  if (!context) throw new Error('useToast needs a ToastProvider above it');
  return context.api;
}

/** The live region: screen readers announce each message as it appears. */
export function Toaster() {
  const context = useContext(ToastContext);
  if (!context) return null;
  return (
    <div className="toaster" aria-live="polite" role="status">
      {context.toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.kind}`}>
          <span>
            {t.message}
            {t.requestId ? (
              <>
                {' '}
                (request id <code>{t.requestId}</code>)
              </>
            ) : null}
          </span>
          <button type="button" className="toast-dismiss" aria-label="Dismiss" onClick={() => context.dismiss(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
