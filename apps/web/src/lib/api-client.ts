import { errorResponseSchema, errorStatus } from '@hasta/contracts/errors';
import type { ErrorCode } from '@hasta/contracts/errors';
import { messages } from '@hasta/contracts/messages';
import type { z } from 'zod';

import { ApiError } from './api-error';
import { translateMessage } from './server-message';

/** The single API client: same-origin JSON over fetch; the session rides in an httpOnly cookie. */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

// Where callers have always found them.
export { ApiError };
export type { ApiErrorCode } from './api-error';

export interface ApiRequestOptions<T> {
  method?: HttpMethod;
  /** Sent as JSON when present. */
  body?: unknown;
  /** Parses the success answer; a mismatch is an ApiError('INVALID_RESPONSE'). */
  schema: z.ZodType<T>;
  signal?: AbortSignal;
  /** Extra request headers (e.g. `Idempotency-Key`); they cannot replace Accept or Content-Type. */
  headers?: Readonly<Record<string, string>>;
}

const FAILED_TO_FETCH = 'Failed to fetch';

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** A fetch that never got an answer (spec §8 "Network"). */
export function toNetworkError(error: unknown): ApiError {
  const text = error instanceof Error ? error.message : String(error);
  if (text.includes(FAILED_TO_FETCH)) {
    return new ApiError(0, 'SERVER_NOT_RESPONDING', messages.serverNotResponding, { cause: error });
  }
  return new ApiError(0, 'NETWORK_UNAVAILABLE', messages.networkUnavailable, { cause: error });
}

function codeForStatus(status: number): ErrorCode {
  const known = (Object.keys(errorStatus) as ErrorCode[]).find((code) => errorStatus[code] === status);
  if (known !== undefined) return known;
  return status >= 500 ? 'INTERNAL' : 'BAD_REQUEST';
}

function fallbackMessage(status: number): string {
  if (status === 401) return messages.unauthorized;
  if (status === 403) return messages.forbidden;
  if (status === 404) return messages.notFound;
  if (status === 429) return messages.rateLimited;
  if (status >= 500) return messages.internal;
  return messages.invalidRequest;
}

function nonEmptyText(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** A non-2xx answer: the server's `message`, else its `error`, else a plain text for the status. */
export function toHttpError(status: number, payload: unknown): ApiError {
  const parsed = errorResponseSchema.safeParse(payload);
  if (parsed.success) {
    const text =
      nonEmptyText(parsed.data.message) ?? nonEmptyText(parsed.data.error) ?? fallbackMessage(status);
    return new ApiError(status, parsed.data.code, text);
  }
  const record = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {};
  const text = nonEmptyText(record['message']) ?? nonEmptyText(record['error']) ?? fallbackMessage(status);
  return new ApiError(status, codeForStatus(status), text);
}

const NO_BODY = Symbol('no body');

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NO_BODY;
  }
}

export async function apiRequest<T>(path: string, options: ApiRequestOptions<T>): Promise<T> {
  if (!path.startsWith('/') || path.startsWith('//')) {
    throw new TypeError(`apiRequest needs a same-origin absolute path, got ${JSON.stringify(path)}`);
  }
  const headers: Record<string, string> = { ...options.headers, Accept: 'application/json' };
  const init: RequestInit = { method: options.method ?? 'GET', credentials: 'same-origin', headers };
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  if (options.signal !== undefined) init.signal = options.signal;

  let response: Response;
  let payload: unknown;
  try {
    response = await fetch(path, init);
    payload = await readBody(response);
  } catch (error) {
    if (isAbort(error)) throw error;
    throw toNetworkError(error);
  }

  if (!response.ok) throw toHttpError(response.status, payload);
  const parsed = options.schema.safeParse(payload === NO_BODY ? undefined : payload);
  if (!parsed.success) {
    throw new ApiError(response.status, 'INVALID_RESPONSE', messages.internal, { cause: parsed.error });
  }
  return parsed.data;
}

/**
 * The text to show for a failed request: an ApiError's message, else the screen's fallback, in the page's
 * language (the server answers in the catalogue's English; see lib/server-message.ts).
 */
export function errorMessage(error: unknown, fallback: string): string {
  return translateMessage(error instanceof ApiError ? error.message : fallback);
}
