import { createRequire } from 'node:module';
import type { FastifyRateLimitOptions, FastifyRateLimitStore } from '@fastify/rate-limit';
import type { Kysely } from 'kysely';
import { hashToken } from '../auth/secrets';
import type { Schema } from '../db/schema';
import { countHit, pruneCounters } from '../rate-limits/rate-limit-repository';

/** How often a process deletes the counters whose window has passed (while it counts). */
export const PRUNE_COUNTERS_EVERY_MS = 5 * 60_000;

type Callback = Parameters<FastifyRateLimitStore['incr']>[1];

/** @fastify/rate-limit's own in-memory store (no types of its own): what the API's overall limit counts in. */
type LocalStoreCtor = new (
  continueExceeding: boolean | undefined,
  exponentialBackoff: boolean | undefined,
  cache?: number,
) => FastifyRateLimitStore;
const LocalStore = createRequire(import.meta.url)('@fastify/rate-limit/store/LocalStore') as LocalStoreCtor;

/**
 * A limit's options may name the counter it keeps in the database (createRateLimit's options, which the
 * plugin passes on to the store): the palm limits do (palm-rate-limit.ts).
 */
export interface NamedCounter {
  counter: string;
}

interface LimitOptions {
  counter?: unknown;
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  routeInfo?: { url?: string; method?: string | string[] };
}

/** A limit of one route or one createRateLimit, counted in the database for every process. */
class DatabaseCounter implements FastifyRateLimitStore {
  constructor(
    private readonly db: Kysely<Schema>,
    private readonly counter: string,
    private readonly pruneNow: () => void,
  ) {}

  incr(key: string, callback: Callback, timeWindow: number): void {
    this.pruneNow();
    const keyHash = hashToken(key);
    countHit(this.db, { counter: this.counter, keyHash, windowMs: timeWindow }).then(
      ({ hits, ttlMs }) => callback(null, { current: hits, ttl: ttlMs }),
      (error: unknown) => callback(error as Error),
    );
  }

  child(): FastifyRateLimitStore {
    throw new Error('a database counter has no children');
  }
}

/**
 * The store @fastify/rate-limit counts in (its `store` option; decision 048). Every limit of a route's config
 * or of createRateLimit is counted in the database (migration 034), so all server processes share it: the palm
 * calls', the sign-in's, the public posts', the passkeys'. The API's overall per-client limit, the plugin's
 * global one, stays in this process's memory: it sheds the load this process carries.
 */
export function sharedRateLimitStore(db: Kysely<Schema>, onPruneError: (error: unknown) => void) {
  let prunedAt = 0;
  const pruneNow = () => {
    const now = Date.now();
    if (now - prunedAt < PRUNE_COUNTERS_EVERY_MS) return;
    prunedAt = now;
    pruneCounters(db).catch(onPruneError);
  };
  return class SharedRateLimitStore implements FastifyRateLimitStore {
    readonly #local: FastifyRateLimitStore;

    constructor(options: FastifyRateLimitOptions) {
      // The plugin passes its merged settings, which have these two beside the type's fields.
      const { continueExceeding, exponentialBackoff } = options as LimitOptions;
      this.#local = new LocalStore(continueExceeding, exponentialBackoff);
    }

    incr(key: string, callback: Callback, timeWindow: number, max: number): void {
      this.#local.incr(key, callback, timeWindow, max);
    }

    // The plugin passes the limit's merged options here, not the route's (its type says the route's).
    child(routeOptions: object): FastifyRateLimitStore {
      const options = routeOptions as LimitOptions;
      const route = options.routeInfo;
      const counter =
        typeof options.counter === 'string'
          ? options.counter
          : route?.url
            ? `${[route.method ?? ''].flat().join(',')} ${route.url}`
            : undefined;
      if (!counter) throw new Error('a rate limit needs a counter name (NamedCounter) or a route');
      return new DatabaseCounter(db, counter, pruneNow);
    }
  };
}
