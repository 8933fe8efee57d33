import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './support/test-app';

const CHUNK = `export const rows = [${Array.from({ length: 400 }, (_, i) => `'row ${i}'`).join(', ')}];`;

/** The first bytes of a WebAssembly module (magic and version). */
const WASM = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

function fakeBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hasta-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Hasta</title><div id="root"></div>');
  writeFileSync(join(dir, 'assets', 'app-1a2b3c.js'), 'console.log("app")');
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  // MediaPipe Hands as the build copies it (apps/web/build/mediapipe-hands.ts): binary files left as they are.
  const mediapipe = join(dir, 'assets', 'mediapipe-hands-0.4');
  mkdirSync(mediapipe);
  for (const name of ['hands_solution_simd_wasm_bin.wasm', 'hands_solution_packed_assets.data'])
    writeFileSync(join(mediapipe, name), WASM);
  writeFileSync(join(mediapipe, 'hand_landmark_lite.tflite'), WASM);
  writeFileSync(join(mediapipe, 'hands.binarypb'), WASM);
  // A chunk as the build leaves it: the file with its brotli and gzip forms beside it.
  const chunk = join(dir, 'assets', 'page-4d5e6f.js');
  writeFileSync(chunk, CHUNK);
  writeFileSync(`${chunk}.br`, brotliCompressSync(CHUNK));
  writeFileSync(`${chunk}.gz`, gzipSync(CHUNK));
  return dir;
}

describe('serving the web app', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await buildTestApp({ env: { WEB_DIST_DIR: fakeBuild() } });
  });
  afterAll(async () => {
    await test.close();
  });

  it.each(['/', '/user-dashboard', '/admin', '/palm-register?hand=left', '/no/such/page'])(
    'answers the page %s with index.html, uncached, under the CSP',
    async (url) => {
      const response = await test.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<div id="root"></div>');
      expect(response.headers['cache-control']).toBe('no-cache');
      const csp = response.headers['content-security-policy'];
      // WebAssembly (MediaPipe Hands in the palm scanner) may compile; eval() and inline scripts may not.
      expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval';");
      expect(csp).not.toMatch(/'unsafe-eval'|script-src[^;]*'unsafe-inline'/);
      expect(csp).toContain("connect-src 'self';");
      expect(csp).toContain("frame-ancestors 'none'");
    },
  );

  it.each([
    ['GET', '/api/health', 200],
    ['GET', '/api/no-such-route', 404],
    ['POST', '/api/transfer', 400],
  ] as const)('answers %s %s (%i) with the security headers', async (method, url, status) => {
    const response = await test.app.inject(
      method === 'POST' ? { method, url, payload: {} } : { method, url },
    );
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(response.headers['permissions-policy']).toContain('camera=(self)');
    // Strict-Transport-Security only in production (the test server runs over plain HTTP).
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('serves hashed assets with a year-long immutable cache', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/assets/app-1a2b3c.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('console.log("app")');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it.each([
    ['hands_solution_simd_wasm_bin.wasm', 'application/wasm'],
    ['hands_solution_packed_assets.data', 'application/octet-stream'],
    ['hand_landmark_lite.tflite', 'application/octet-stream'],
    ['hands.binarypb', 'application/octet-stream'],
  ])('serves MediaPipe’s %s as %s, unchanged and cached', async (name, type) => {
    const response = await test.app.inject({
      method: 'GET',
      url: `/assets/mediapipe-hands-0.4/${name}`,
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(type);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.rawPayload.equals(WASM)).toBe(true);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends the brotli or gzip form the browser accepts, else the file as it is', async () => {
    const url = '/assets/page-4d5e6f.js';
    const br = await test.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(CHUNK);
    expect(br.rawPayload.length).toBeLessThan(CHUNK.length / 3);
    const gz = await test.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(CHUNK);
    const plain = await test.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(CHUNK);
  });

  it('answers a missing file or API path with 404, not the page', async () => {
    expect((await test.app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
    const api = await test.app.inject({
      method: 'GET',
      url: '/api/missing',
      headers: { accept: 'text/html' },
    });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await test.app.inject({ method: 'POST', url: '/user-dashboard' })).statusCode).toBe(404);
  });

  it('publishes OpenAPI generated from the contracts, and a docs page', async () => {
    const spec = await test.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(spec.statusCode).toBe(200);
    const document = spec.json<{ openapi: string; paths: Record<string, { get?: { responses: object } }> }>();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/health', '/api/kiosks', '/api/dev/outbox']),
    );
    expect(JSON.stringify(document.paths['/api/health']!.get!.responses)).toContain('pglite');
    const docs = await test.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger-ui');
  });
});
