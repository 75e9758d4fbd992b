import { useCallback, useEffect, useRef, useState } from 'react';
import { drawWaitOf, type DrawWait } from './draw-wait';

type DrawWhenDue = {
  /** What the draw waits for, while it waits. */
  wait: DrawWait | null;
  /** True while a draw sent at the due time is in flight. */
  sending: boolean;
  /** A refusal of a draw sent at the due time that is not another wait. */
  error: unknown;
  /**
   * Sends the draw once now. A refusal that means "not yet" (the beacon round or the close block is
   * not there) resolves and starts the wait; any other failure rejects, for the confirm dialog to show.
   */
  drawNow(): Promise<void>;
  /** Stops waiting: the timer is cleared and a draw in flight aborted. Nothing is sent afterwards. */
  cancel(): void;
};

/**
 * A draw that waits in the open for what it needs, then sends itself. The SDK would sleep through
 * the Retry-After silently (the page showing only "Working…"), or give up with the 409 as an error
 * when the wait is longer than it sleeps: here each attempt is one request (`maxRetries: 0`), and
 * the wait is state the page shows, with a countdown and a cancel.
 */
export function useDrawWhenDue(raffle: { beaconRound?: number | null }, draw: (signal: AbortSignal) => Promise<unknown>): DrawWhenDue {
  const [wait, setWait] = useState<DrawWait | null>(null);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const controller = useRef<AbortController | null>(null);
  // The latest raffle and call, read when the timer fires (the raffle is refetched meanwhile).
  const latest = useRef({ raffle, draw });
  latest.current = { raffle, draw };

  /** One attempt; resolves to the next wait (or null once drawn), rejects with any other failure. */
  const attempt = useCallback(async (): Promise<DrawWait | null> => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    try {
      await latest.current.draw(current.signal);
      return null;
    } catch (caught) {
      if (current.signal.aborted) throw current.signal.reason;
      const next = drawWaitOf(caught, latest.current.raffle);
      if (next) return next;
      throw caught;
    }
  }, []);

  const drawNow = useCallback(async () => {
    setError(null);
    setWait(await attempt());
  }, [attempt]);

  const cancel = useCallback(() => {
    controller.current?.abort(new DOMException('The draw was cancelled while it waited', 'AbortError'));
    controller.current = null;
    setWait(null);
    setSending(false);
  }, []);

  useEffect(() => {
    if (!wait) return;
    const timer = setTimeout(() => {
      setSending(true);
      attempt()
        .then((next) => setWait(next))
        .catch((caught: unknown) => {
          // A cancel aborts the attempt: nothing to show, the wait is already gone.
          if (caught instanceof DOMException && caught.name === 'AbortError') return;
          setError(caught);
          setWait(null);
        })
        .finally(() => setSending(false));
    }, Math.max(0, wait.retryAt - Date.now()));
    return () => clearTimeout(timer);
  }, [wait, attempt]);

  // Leaving the page stops the wait: nothing is sent for a page nobody is looking at.
  useEffect(() => () => controller.current?.abort(), []);

  return { wait, sending, error, drawNow, cancel };
}
