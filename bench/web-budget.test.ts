import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FIRST_LOAD_BUDGET_BYTES,
  firstLoadFiles,
  htmlScripts,
  totalGzipBytes,
  weigh,
  withinBudget,
  type Manifest,
} from './web-budget';

const HTML = `<!doctype html><html><head>
<script type="module" crossorigin src="/assets/index-a.js"></script>
<link rel="modulepreload" crossorigin href="/assets/react-b.js">
<link rel="stylesheet" crossorigin href="/assets/index-c.css">
</head><body></body></html>`;

/** A build like Vite's: an entry, a shared vendor chunk, a lazy home route with its own imports. */
const MANIFEST: Manifest = {
  'index.html': {
    file: 'assets/index-a.js',
    isEntry: true,
    imports: ['_react-b.js'],
    dynamicImports: ['src/routes/home.tsx', 'src/routes/admin.tsx', 'src/locales/en/home.ts'],
    css: ['assets/index-c.css'],
  },
  '_react-b.js': { file: 'assets/react-b.js' },
  '_shared-d.js': { file: 'assets/shared-d.js', imports: ['_react-b.js'] },
  'src/routes/home.tsx': {
    file: 'assets/home-e.js',
    isDynamicEntry: true,
    imports: ['_shared-d.js', 'index.html'],
  },
  'src/locales/en/home.ts': { file: 'assets/home-f.js', isDynamicEntry: true },
  'src/routes/admin.tsx': { file: 'assets/admin-g.js', isDynamicEntry: true, imports: ['_zod-h.js'] },
  '_zod-h.js': { file: 'assets/zod-h.js' },
};

describe('the first-load budget', () => {
  it('reads the entry script and its modulepreloads from index.html, not the styles', () => {
    expect(htmlScripts(HTML)).toEqual(['assets/index-a.js', 'assets/react-b.js']);
  });

  it("counts the entry, its static imports and the route's lazy chunks, each once, and nothing else", () => {
    const load = firstLoadFiles(MANIFEST, HTML, ['src/routes/home.tsx', 'src/locales/en/home.ts']);
    expect(load.entryFiles).toEqual(['assets/index-a.js', 'assets/react-b.js']);
    expect(load.routeFiles).toEqual(['assets/home-e.js', 'assets/shared-d.js', 'assets/home-f.js']);
  });

  it('refuses a route that is not a lazy chunk (route splitting undone)', () => {
    expect(() => firstLoadFiles(MANIFEST, HTML, ['_shared-d.js'])).toThrow(/not a lazy chunk/);
    expect(() => firstLoadFiles(MANIFEST, HTML, ['src/routes/missing.tsx'])).toThrow(/not a lazy chunk/);
  });

  it('fails above 150 kB gzipped and passes at or below it', () => {
    expect(FIRST_LOAD_BUDGET_BYTES).toBe(150_000);
    expect(withinBudget(150_000)).toBe(true);
    expect(withinBudget(150_001)).toBe(false);
  });

  it('weighs files by their gzipped size', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hasta-budget-'));
    writeFileSync(join(dir, 'repetitive.js'), 'x'.repeat(100_000));
    writeFileSync(join(dir, 'random.js'), randomBytes(20_000));
    const files = weigh(dir, ['repetitive.js', 'random.js']);
    expect(files[0]).toMatchObject({ file: 'repetitive.js', bytes: 100_000 });
    expect(files[0]?.gzipBytes).toBeLessThan(1_000);
    expect(files[1]?.gzipBytes).toBeGreaterThan(19_000);
    expect(totalGzipBytes(files)).toBe((files[0]?.gzipBytes ?? 0) + (files[1]?.gzipBytes ?? 0));
  });
});
