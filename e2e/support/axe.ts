import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import type { Page } from '@playwright/test';
import type { AxeResults, Result, RunOptions } from 'axe-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeWindow {
  axe?: { run(context: Document, options: RunOptions): Promise<AxeResults> };
}

/** One readable line per violation, so a failure says what and where. */
function describe(violations: readonly Result[]): string[] {
  return violations.map(
    (violation) =>
      `${violation.id} (${violation.impact ?? 'n/a'}): ${violation.help} -> ${violation.nodes
        .map((node) => node.target.join(' '))
        .join(', ')}`,
  );
}

/**
 * Runs axe-core (all rules: WCAG 2.x A/AA and best practices) on the current page, once its transitions
 * have ended, and returns its violations, one line each. The source is evaluated rather than added as a
 * <script>, because the page's CSP (script-src 'self') rightly refuses inline scripts.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  // A page still fading in (the 0.4 s page transition) has partial opacity, which axe reads as low
  // contrast: let every finite animation finish first (spinners loop forever and are left running).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const loaded = await page.evaluate(() => (window as AxeWindow).axe !== undefined);
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(async () => {
    const runner = (window as AxeWindow).axe;
    if (runner === undefined) throw new Error('axe-core did not load');
    return runner.run(document, { resultTypes: ['violations'] });
  });
  return describe(results.violations);
}
