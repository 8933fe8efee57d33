import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { MEDIAPIPE_HANDS_FILES, mediapipeHands, mediapipeHandsBase } from './mediapipe-hands';
import { precompressDirectory } from './precompress';

const packageDir = dirname(createRequire(import.meta.url).resolve('@mediapipe/hands/package.json'));
const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };

/** Calls one of the plugin's hooks as Vite would (they are plain functions here). */
function callHook(hook: unknown, ...args: unknown[]): unknown {
  return (hook as (...args: unknown[]) => unknown)(...args);
}

describe('mediapipeHands (Vite plugin)', () => {
  it('names the versioned asset folder for the app', () => {
    const plugin = mediapipeHands();
    expect(callHook(plugin.config)).toEqual({
      define: { 'import.meta.env.VITE_MEDIAPIPE_HANDS_BASE': JSON.stringify(mediapipeHandsBase(version)) },
    });
    expect(mediapipeHandsBase(version)).toBe(`/assets/mediapipe-hands-${version}/`);
  });

  it('copies the files byte for byte into the build; precompress leaves the binary ones alone', () => {
    const root = mkdtempSync(join(tmpdir(), 'hasta-mediapipe-'));
    const plugin = mediapipeHands();
    callHook(plugin.configResolved, { root, build: { outDir: 'dist' } });
    callHook(plugin.writeBundle);
    const folder = join(root, 'dist', mediapipeHandsBase(version));
    for (const name of MEDIAPIPE_HANDS_FILES) {
      expect(readFileSync(join(folder, name)).equals(readFileSync(join(packageDir, name))), name).toBe(true);
    }
    const compressed = precompressDirectory(join(root, 'dist')).map((path) => path.slice(folder.length));
    expect(compressed.every((name) => name.endsWith('.js'))).toBe(true);
    expect(compressed).toContain('hands.js');
    for (const name of MEDIAPIPE_HANDS_FILES.filter((file) => !file.endsWith('.js'))) {
      expect(readFileSync(join(folder, name)).equals(readFileSync(join(packageDir, name))), name).toBe(true);
    }
  });
});
