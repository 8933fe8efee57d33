import { describe, expect, it } from 'vitest';

import { IdleWatch, KIOSK_IDLE_MS } from './idle-watch';
import type { Timers } from './idle-watch';

/** A clock of the test's own: timers fire when it is moved past them. */
function manualClock() {
  let now = 0;
  let next = 0;
  const due = new Map<number, { at: number; callback: () => void }>();
  const timers: Timers = {
    setTimeout: (callback, ms) => {
      next += 1;
      due.set(next, { at: now + ms, callback });
      return next;
    },
    clearTimeout: (handle) => void due.delete(handle as number),
  };
  const advance = (ms: number): void => {
    now += ms;
    for (const [handle, timer] of [...due]) {
      if (timer.at <= now) {
        due.delete(handle);
        timer.callback();
      }
    }
  };
  return { timers, advance, pending: () => due.size };
}

describe('the kiosk idle timer', () => {
  it('signs out after 60 s without a touch, not before', () => {
    const clock = manualClock();
    let idle = 0;
    const watch = new IdleWatch(() => (idle += 1), KIOSK_IDLE_MS, clock.timers);
    watch.touch();
    clock.advance(59_999);
    expect(idle).toBe(0);
    clock.advance(1);
    expect(idle).toBe(1);
    expect(watch.running).toBe(false);
  });

  it('starts the 60 s again on every touch', () => {
    const clock = manualClock();
    let idle = 0;
    const watch = new IdleWatch(() => (idle += 1), KIOSK_IDLE_MS, clock.timers);
    watch.touch();
    clock.advance(50_000);
    watch.touch();
    clock.advance(50_000);
    expect(idle).toBe(0);
    clock.advance(10_000);
    expect(idle).toBe(1);
    expect(clock.pending()).toBe(0);
  });

  it('does nothing once stopped (the person signed out another way)', () => {
    const clock = manualClock();
    let idle = 0;
    const watch = new IdleWatch(() => (idle += 1), KIOSK_IDLE_MS, clock.timers);
    watch.touch();
    watch.stop();
    clock.advance(120_000);
    expect(idle).toBe(0);
  });

  it('refuses a zero or negative idle time', () => {
    expect(() => new IdleWatch(() => undefined, 0)).toThrow(RangeError);
  });
});
