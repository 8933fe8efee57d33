import { outboxResponseSchema } from '@hasta/contracts/outbox';
import type { OutboxMessage } from '@hasta/contracts/outbox';
import type { APIRequestContext } from '@playwright/test';

/**
 * Reads the dev outbox (NODE_ENV=test: every SMS and email lands there, newest first) to get one-time codes
 * and registration links the way a user would.
 */

const POLL_INTERVAL_MS = 100;
/** Messages land within milliseconds on an idle machine; the bound is for a busy one. */
const DEFAULT_TIMEOUT_MS = 30_000;

async function readOutbox(request: APIRequestContext, to: string): Promise<OutboxMessage[]> {
  const response = await request.get(`/api/dev/outbox?${new URLSearchParams({ to, limit: '20' })}`);
  if (!response.ok()) throw new Error(`dev outbox answered ${response.status()}`);
  return outboxResponseSchema.parse(await response.json()).messages;
}

/** The id of the newest message to `to`, or 0: messages after it are new. */
export async function latestMessageId(request: APIRequestContext, to: string): Promise<number> {
  const [newest] = await readOutbox(request, to);
  return newest === undefined ? 0 : Number(newest.id);
}

/** Polls until a message to `to` newer than `afterId` arrives, and returns it. */
export async function waitForMessage(
  request: APIRequestContext,
  to: string,
  afterId: number,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<OutboxMessage> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [newest] = await readOutbox(request, to);
    if (newest !== undefined && Number(newest.id) > afterId) return newest;
    if (Date.now() > deadline) throw new Error(`no new message to ${to} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}

/** Runs `action` (which makes the server send something to `to`) and returns the message it sent. */
export async function nextMessage(
  request: APIRequestContext,
  to: string,
  action: () => Promise<unknown>,
): Promise<OutboxMessage> {
  const afterId = await latestMessageId(request, to);
  await action();
  return waitForMessage(request, to, afterId);
}

/** The 6-digit code in a message body. */
export function extractCode(body: string): string {
  const match = /\b(\d{6})\b/.exec(body);
  if (match?.[1] === undefined) throw new Error(`no 6-digit code in: ${body}`);
  return match[1];
}

/** The registration link in an email body, as a same-site path: `/register?token=…&email=…&type=…`. */
export function extractRegistrationLink(body: string): string {
  const match = /https?:\/\/[^\s/]+(\/register\?[^\s]+)/.exec(body);
  if (match?.[1] === undefined) throw new Error(`no registration link in: ${body}`);
  return match[1];
}
