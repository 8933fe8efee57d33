/**
 * npm run bench:web — builds the web app and weighs the home page's first-load JavaScript against its budget
 * (150 kB gzipped): the entry with its static imports and modulepreloads, plus the home route's lazy chunks.
 * Prints each file, the total beside the budget (as a ratio) and beside the whole app's JavaScript, and exits
 * non-zero above the budget. `npm test` runs it on the build the browser tests made (no second build).
 * WEB_DIST_DIR points it at another build (default apps/web/dist).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  FIRST_LOAD_BUDGET_BYTES,
  HOME_ROUTE_MODULES,
  firstLoadFiles,
  totalGzipBytes,
  weigh,
  withinBudget,
  type Manifest,
  type SizedFile,
} from './web-budget';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const distDir = resolve(REPO_ROOT, process.env.WEB_DIST_DIR ?? 'apps/web/dist');
const manifestPath = join(distDir, '.vite', 'manifest.json');

if (!existsSync(manifestPath)) {
  console.error(`No build with a manifest at ${distDir}: run "npm run build" first.`);
  process.exit(1);
}

const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
const html = readFileSync(join(distDir, 'index.html'), 'utf8');
const { entryFiles, routeFiles } = firstLoadFiles(manifest, html, HOME_ROUTE_MODULES);
const entry = weigh(distDir, entryFiles);
const route = weigh(distDir, routeFiles);
const firstLoad = [...entry, ...route];
const allScripts = weigh(
  distDir,
  readdirSync(join(distDir, 'assets'))
    .filter((name) => name.endsWith('.js'))
    .map((name) => `assets/${name}`),
);

const kB = (bytes: number): string => (bytes / 1000).toFixed(1).padStart(7);
const percent = (part: number, whole: number): string => `${((100 * part) / whole).toFixed(0)}%`;

function printGroup(title: string, files: readonly SizedFile[]): void {
  console.log(`  ${title}`);
  for (const file of [...files].sort((a, b) => b.gzipBytes - a.gzipBytes)) {
    console.log(`    ${kB(file.bytes)} kB ${kB(file.gzipBytes)} kB gzip  ${file.file}`);
  }
}

const total = totalGzipBytes(firstLoad);
const ok = withinBudget(total);
console.log(`Home page (/) first-load JavaScript, ${distDir}`);
printGroup('entry (index.html: script and modulepreloads)', entry);
printGroup(`home route (${HOME_ROUTE_MODULES.join(', ')})`, route);
console.log('');
console.log(
  `first load: ${kB(total).trim()} kB gzip in ${firstLoad.length} files, ` +
    `${percent(total, FIRST_LOAD_BUDGET_BYTES)} of the ${FIRST_LOAD_BUDGET_BYTES / 1000} kB budget` +
    ` (${ok ? 'within' : 'OVER'} budget)`,
);
const allTotal = totalGzipBytes(allScripts);
console.log(
  `whole app:  ${kB(allTotal).trim()} kB gzip in ${allScripts.length} files; ` +
    `the first load is ${percent(total, allTotal)} of it`,
);
if (!ok) process.exit(1);
