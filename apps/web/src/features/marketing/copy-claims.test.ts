import { describe, expect, it } from 'vitest';

import { loadAllResources } from '../../lib/i18n-resources';

type Tree = { [key: string]: string | Tree };

/** Every leaf as [dotted key, text]. */
function leaves(tree: Tree, prefix = ''): Array<[string, string]> {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [[`${prefix}${key}`, value] as [string, string]]
      : leaves(value, `${prefix}${key}.`),
  );
}

/**
 * What the product does not do (issue 26): a phone or kiosk camera in ordinary light takes the pictures,
 * nothing reads veins or checks that a hand is alive; and the palm figures are the benchmark's
 * (`FIGURES`, checked by `figures.test.ts`), never the spec's 99.9 %, under 2 s or over 500 data points.
 */
const UNTRUE = {
  en: [
    /infra-?red/i,
    /\bveins?\b/i,
    /liveness/i,
    /under (two|2) s(econds)?\b/i,
    /(over|more than) 500/i,
    /data points/i,
    /99\.9/,
  ],
  hi: [/इन्फ्रारेड/, /नसों|नसें|नस-/, /लाइवनेस/, /दो सेकंड से कम/, /500 से ज़्यादा/, /डेटा पॉइंट/, /99\.9/],
} as const;

describe.each(['en', 'hi'] as const)('the %s copy', (language) => {
  it('claims no infrared or vein imaging, no liveness check and none of the spec’s unmeasured figures', async () => {
    const texts = leaves((await loadAllResources(language)) as unknown as Tree);
    expect(texts.length).toBeGreaterThan(100);
    const untrue = texts.filter(([, text]) => UNTRUE[language].some((pattern) => pattern.test(text)));
    expect(untrue.map(([key]) => key)).toEqual([]);
  });

  it('quotes the measured scan-to-decision figure in the speed answer, not a number of its own', async () => {
    const { technology } = await loadAllResources(language);
    expect(technology.faq.speed.answer).toContain('{{seconds}}');
  });
});
