import { useCallback, useEffect, useState } from 'react';

const TICK_MS = 250;

export interface Countdown {
  /** Whole seconds left, 0 when idle. */
  secondsLeft: number;
  start: (seconds: number) => void;
  stop: () => void;
}

/**
 * A seconds countdown (the OTP resend cooldown of spec §4). It follows the wall clock rather than counting
 * ticks, so a throttled background tab still ends on time.
 */
export function useCountdown(): Countdown {
  const [deadline, setDeadline] = useState<number | null>(null);
  const [secondsLeft, setSecondsLeft] = useState(0);

  useEffect(() => {
    if (deadline === null) return undefined;
    const timer = window.setInterval(() => {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1_000));
      setSecondsLeft(left);
      if (left === 0) setDeadline(null);
    }, TICK_MS);
    return () => window.clearInterval(timer);
  }, [deadline]);

  const start = useCallback((seconds: number) => {
    const whole = Math.max(0, Math.ceil(seconds));
    setSecondsLeft(whole);
    setDeadline(whole > 0 ? Date.now() + whole * 1_000 : null);
  }, []);

  const stop = useCallback(() => {
    setSecondsLeft(0);
    setDeadline(null);
  }, []);

  return { secondsLeft, start, stop };
}
