import type { Env } from '../../env';

const RATE_WINDOW_MS = 60_000;

/**
 * The route config of a post anyone may send without signing in (a public form, a "Not me?" link): a
 * thirtieth of the API's per-client limit per minute, so spam and token guessing stay slow.
 */
export function publicPostLimit(env: Pick<Env, 'RATE_LIMIT_PER_MINUTE'>) {
  return {
    rateLimit: {
      max: Math.max(1, Math.floor(env.RATE_LIMIT_PER_MINUTE / 30)),
      timeWindow: RATE_WINDOW_MS,
    },
  };
}
