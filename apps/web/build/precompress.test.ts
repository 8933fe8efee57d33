import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

import { precompressDirectory } from './precompress';

describe('precompressDirectory', () => {
  it('writes .br and .gz beside text files worth compressing, in subfolders too, and nothing else', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hasta-precompress-'));
    mkdirSync(join(dir, 'assets'));
    mkdirSync(join(dir, '.vite'));
    const script = `export const words = ${JSON.stringify(Array.from({ length: 300 }, (_, i) => `word ${i}`))};`;
    writeFileSync(join(dir, 'assets', 'page.js'), script);
    writeFileSync(join(dir, 'index.html'), `<!doctype html>${'<p>Hasta</p>'.repeat(200)}`);
    writeFileSync(join(dir, 'assets', 'tiny.js'), 'export {};');
    writeFileSync(join(dir, 'assets', 'photo.png'), Buffer.alloc(4096, 7));
    writeFileSync(join(dir, '.vite', 'manifest.json'), JSON.stringify({ big: 'x'.repeat(4096) }));

    const compressed = precompressDirectory(dir);

    expect(compressed.sort()).toEqual([join(dir, 'assets', 'page.js'), join(dir, 'index.html')].sort());
    const br = readFileSync(join(dir, 'assets', 'page.js.br'));
    expect(brotliDecompressSync(br).toString()).toBe(script);
    expect(br.length).toBeLessThan(script.length / 2);
    expect(gunzipSync(readFileSync(join(dir, 'assets', 'page.js.gz'))).toString()).toBe(script);
    expect(existsSync(join(dir, 'index.html.br'))).toBe(true);
    expect(existsSync(join(dir, 'assets', 'tiny.js.br'))).toBe(false);
    expect(existsSync(join(dir, 'assets', 'photo.png.br'))).toBe(false);
    expect(existsSync(join(dir, '.vite', 'manifest.json.br'))).toBe(false);
  });
});
