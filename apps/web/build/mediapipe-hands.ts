import { copyFileSync, createReadStream, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { Plugin } from 'vite';

/**
 * MediaPipe Hands from our own origin (issue #6): its script, wasm, packed assets and model are copied from
 * node_modules/@mediapipe/hands into the build under a versioned folder of `assets/` (so the server caches
 * them as immutable, like the hashed chunks), and served from node_modules by the dev server. Nothing is
 * fetched from a CDN. The app finds the folder through `import.meta.env.VITE_MEDIAPIPE_HANDS_BASE`.
 */

/** The files the hand tracker loads with `modelComplexity: 0`: the SIMD wasm or the plain one, never both. */
export const MEDIAPIPE_HANDS_FILES = [
  'hands.js',
  'hands.binarypb',
  'hand_landmark_lite.tflite',
  'hands_solution_packed_assets.data',
  'hands_solution_packed_assets_loader.js',
  'hands_solution_simd_wasm_bin.js',
  'hands_solution_simd_wasm_bin.wasm',
  'hands_solution_wasm_bin.js',
  'hands_solution_wasm_bin.wasm',
] as const;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  js: 'text/javascript; charset=utf-8',
  wasm: 'application/wasm',
};

function packageDir(): { dir: string; version: string } {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('@mediapipe/hands/package.json');
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  return { dir: dirname(manifest), version };
}

/** The URL folder of the files (with its trailing slash), for a package version. */
export function mediapipeHandsBase(version: string): string {
  return `/assets/mediapipe-hands-${version}/`;
}

export function mediapipeHands(): Plugin {
  const { dir, version } = packageDir();
  const base = mediapipeHandsBase(version);
  let outDir = '';
  return {
    name: 'hasta-mediapipe-hands',
    config() {
      return { define: { 'import.meta.env.VITE_MEDIAPIPE_HANDS_BASE': JSON.stringify(base) } };
    },
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const path = (request.url ?? '').split('?')[0] ?? '';
        const name = path.startsWith(base) ? path.slice(base.length) : '';
        if (!(MEDIAPIPE_HANDS_FILES as readonly string[]).includes(name)) {
          next();
          return;
        }
        const file = join(dir, name);
        response.setHeader(
          'content-type',
          CONTENT_TYPES[name.split('.').pop() ?? ''] ?? 'application/octet-stream',
        );
        response.setHeader('content-length', String(statSync(file).size));
        createReadStream(file).pipe(response);
      });
    },
    writeBundle() {
      // Before precompress (closeBundle): the .js files get their .br and .gz; the binary files are left as
      // they are (precompress only touches text).
      const target = join(outDir, base);
      mkdirSync(target, { recursive: true });
      for (const name of MEDIAPIPE_HANDS_FILES) copyFileSync(join(dir, name), join(target, name));
    },
  };
}
