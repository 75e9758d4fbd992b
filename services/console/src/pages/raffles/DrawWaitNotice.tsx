import { useEffect, useState } from 'react';
import { secondsLeft, type DrawWait } from './draw-wait';

/** The current time, re-read every second while mounted: what a countdown redraws from. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

const WHAT: Record<DrawWait['reason'], (wait: DrawWait) => string> = {
  beacon: (wait) => `Waiting for beacon round ${wait.reason === 'beacon' && wait.round !== null ? wait.round : '(fixed at the close)'}`,
  chain: () => 'Waiting for the first block after the close',
};

const WHY: Record<DrawWait['reason'], string> = {
  beacon: 'The draw mixes in this round of the public randomness beacon, which nobody knows before it is published.',
  chain: "The draw re-reads the entrants' on-chain requirements at the first block at or after the close.",
};

/**
 * A draw waiting for its beacon round (or close block): what it waits for, a countdown, and a
 * cancel. The sentence is a status (announced once); the seconds are not live, or a screen reader
 * would read every tick.
 */
export function DrawWaitNotice({ wait, sending, onCancel }: { wait: DrawWait; sending: boolean; onCancel: () => void }) {
  const now = useNow();
  const left = secondsLeft(wait.retryAt, now);
  return (
    <div className="notice draw-wait" data-testid="draw-wait">
      <p role="status">
        <strong>{WHAT[wait.reason](wait)}</strong>: the draw is sent by itself when it exists.
      </p>
      <p className="draw-wait-countdown" aria-live="off" data-testid="draw-countdown">
        {sending ? 'Sending the draw…' : left > 0 ? `~${left} s` : 'Due now'}
      </p>
      <p className="form-hint">{WHY[wait.reason]}</p>
      <div className="actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel the draw
        </button>
      </div>
    </div>
  );
}
