/**
 * The home page's first-load JavaScript, worked out from a Vite build: the entry script with its static
 * imports and modulepreloads (what index.html loads), plus the lazy chunks the home route loads before it
 * shows (app/router.tsx: the page module and its texts), each gzipped as a server would send it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, gzipSync } from 'node:zlib';

/** Issue 5: the home page's first load stays within 150 kB of gzipped JavaScript (kB = 1,000 bytes). */
export const FIRST_LOAD_BUDGET_BYTES = 150_000;

/** The modules the home route loads with it on a first visit (see `page('/', ...)` in app/router.tsx). */
export const HOME_ROUTE_MODULES = [
  'src/features/marketing/routes/home.tsx',
  'src/locales/en/home.ts',
  'src/locales/en/marketing.ts',
] as const;

/** One entry of Vite's `.vite/manifest.json` (build.manifest). */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

export type Manifest = Record<string, ManifestChunk>;

export interface FirstLoad {
  /** What index.html loads: the entry and everything it imports statically (its modulepreloads). */
  entryFiles: string[];
  /** What the route adds before it shows: its lazy chunks and their static imports. */
  routeFiles: string[];
}

export interface SizedFile {
  file: string;
  bytes: number;
  gzipBytes: number;
}

/** The module scripts index.html loads: its entry and its modulepreloads, as paths inside the build. */
export function htmlScripts(html: string): string[] {
  const scripts = [...html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g)];
  const preloads = [...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)];
  return [...scripts, ...preloads].map((match) => (match[1] ?? '').replace(/^\//, ''));
}

/** The files of `keys` and of everything they import statically, depth first, each once. */
function staticClosure(manifest: Manifest, keys: readonly string[]): string[] {
  const seen = new Set<string>();
  const files: string[] = [];
  const visit = (key: string): void => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (chunk === undefined) throw new Error(`the manifest has no chunk "${key}"`);
    files.push(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return files;
}

/** The JavaScript a first visit to a route loads, from the build's manifest and index.html. */
export function firstLoadFiles(manifest: Manifest, html: string, routeModules: readonly string[]): FirstLoad {
  const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry === true);
  if (entries.length !== 1) throw new Error(`expected one entry in the manifest, found ${entries.length}`);
  const entryFiles = staticClosure(manifest, entries);
  for (const file of htmlScripts(html)) if (!entryFiles.includes(file)) entryFiles.push(file);

  for (const module of routeModules) {
    if (manifest[module]?.isDynamicEntry !== true) {
      throw new Error(`${module} is not a lazy chunk of this build: is the route still split?`);
    }
  }
  const routeFiles = staticClosure(manifest, routeModules).filter((file) => !entryFiles.includes(file));
  return { entryFiles, routeFiles };
}

/** gzip at zlib's default level, as a server compressing on the fly sends it. */
export function gzipBytes(content: Buffer): number {
  return gzipSync(content, { level: constants.Z_DEFAULT_COMPRESSION }).length;
}

export function weigh(distDir: string, files: readonly string[]): SizedFile[] {
  return files.map((file) => {
    const content = readFileSync(join(distDir, file));
    return { file, bytes: content.length, gzipBytes: gzipBytes(content) };
  });
}

export function totalGzipBytes(files: readonly SizedFile[]): number {
  return files.reduce((sum, file) => sum + file.gzipBytes, 0);
}

export function withinBudget(gzipTotalBytes: number, budgetBytes = FIRST_LOAD_BUDGET_BYTES): boolean {
  return gzipTotalBytes <= budgetBytes;
}
