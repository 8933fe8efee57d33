import { messages } from '@hasta/contracts/messages';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

import { ApiError, apiRequest, errorMessage } from './api-client';

type FakeFetch = (input: string, init: RequestInit) => Promise<Response>;

function stubFetch(impl: FakeFetch): ReturnType<typeof vi.fn<FakeFetch>> {
  const fake = vi.fn<FakeFetch>(impl);
  vi.stubGlobal('fetch', fake);
  return fake;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  const error: unknown = await promise.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

const okSchema = z.object({ ok: z.literal(true) });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('apiRequest', () => {
  it('sends same-origin JSON and returns the parsed answer', async () => {
    const fake = stubFetch(() => Promise.resolve(json(200, { ok: true, extra: 1 })));

    const result = await apiRequest('/api/thing', { method: 'POST', body: { a: 1 }, schema: okSchema });

    expect(result).toEqual({ ok: true });
    const [url, init] = fake.mock.calls[0] ?? [];
    expect(url).toBe('/api/thing');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('same-origin');
    expect(init?.body).toBe('{"a":1}');
    expect(init?.headers).toMatchObject({ 'Content-Type': 'application/json', Accept: 'application/json' });
  });

  it('defaults to GET without a body or content type', async () => {
    const fake = stubFetch(() => Promise.resolve(json(200, { ok: true })));

    await apiRequest('/api/thing', { schema: okSchema });

    const init = fake.mock.calls[0]?.[1];
    expect(init?.method).toBe('GET');
    expect(init?.body).toBeUndefined();
    expect(init?.headers).not.toHaveProperty('Content-Type');
  });

  it("maps 'Failed to fetch' to the server-not-responding text", async () => {
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));

    const error = await caught(apiRequest('/api/thing', { schema: okSchema }));

    expect(error.message).toBe(messages.serverNotResponding);
    expect(error.code).toBe('SERVER_NOT_RESPONDING');
    expect(error.status).toBe(0);
  });

  it.each(['NetworkError when attempting to fetch resource.', 'Load failed', 'network changed'])(
    'maps other network failures (%s) to the network-unavailable text',
    async (text) => {
      stubFetch(() => Promise.reject(new TypeError(text)));

      const error = await caught(apiRequest('/api/thing', { schema: okSchema }));

      expect(error.message).toBe(messages.networkUnavailable);
      expect(error.code).toBe('NETWORK_UNAVAILABLE');
    },
  );

  it('lets an abort through untouched', async () => {
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    stubFetch(() => Promise.reject(abort));

    await expect(apiRequest('/api/thing', { schema: okSchema })).rejects.toBe(abort);
  });

  it("uses the server's message from an error answer", async () => {
    stubFetch(() =>
      Promise.resolve(json(409, { code: 'CONFLICT', error: 'Already there.', message: 'Already there.' })),
    );

    const error = await caught(apiRequest('/api/thing', { schema: okSchema }));

    expect(error).toMatchObject({ status: 409, code: 'CONFLICT', message: 'Already there.' });
  });

  it("falls back to the server's error field when message is missing", async () => {
    stubFetch(() => Promise.resolve(json(400, { error: 'Bad input.' })));

    const error = await caught(apiRequest('/api/thing', { schema: okSchema }));

    expect(error).toMatchObject({ status: 400, code: 'BAD_REQUEST', message: 'Bad input.' });
  });

  it.each([
    [401, 'UNAUTHORIZED', messages.unauthorized],
    [403, 'FORBIDDEN', messages.forbidden],
    [404, 'NOT_FOUND', messages.notFound],
    [429, 'RATE_LIMITED', messages.rateLimited],
    [502, 'INTERNAL', messages.internal],
    [418, 'BAD_REQUEST', messages.invalidRequest],
  ])('gives a plain text for a bare %i answer', async (status, code, text) => {
    stubFetch(() => Promise.resolve(new Response('<html>oops</html>', { status })));

    const error = await caught(apiRequest('/api/thing', { schema: okSchema }));

    expect(error).toMatchObject({ status, code, message: text });
  });

  it('rejects a success answer that does not match the schema', async () => {
    stubFetch(() => Promise.resolve(json(200, { ok: 'yes' })));

    const error = await caught(apiRequest('/api/thing', { schema: okSchema }));

    expect(error).toMatchObject({ status: 200, code: 'INVALID_RESPONSE', message: messages.internal });
  });

  it('accepts an empty answer when the schema allows it', async () => {
    stubFetch(() => Promise.resolve(new Response(null, { status: 204 })));

    await expect(
      apiRequest('/api/auth/logout', { method: 'POST', schema: z.unknown() }),
    ).resolves.toBeUndefined();
  });

  it('refuses a path that is not same-origin', async () => {
    const fake = stubFetch(() => Promise.resolve(json(200, { ok: true })));

    await expect(apiRequest('https://evil.example/api', { schema: okSchema })).rejects.toThrow(TypeError);
    await expect(apiRequest('//evil.example/api', { schema: okSchema })).rejects.toThrow(TypeError);
    expect(fake).not.toHaveBeenCalled();
  });
});

describe('errorMessage', () => {
  it("shows an ApiError's text and the fallback for anything else", () => {
    expect(errorMessage(new ApiError(400, 'BAD_REQUEST', 'Nope.'), 'Fallback')).toBe('Nope.');
    expect(errorMessage(new Error('internal detail'), 'Fallback')).toBe('Fallback');
  });
});
