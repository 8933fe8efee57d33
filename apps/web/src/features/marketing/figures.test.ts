import { MARKETING_FIGURES } from '@hasta/contracts/constants';
import { describe, expect, it } from 'vitest';

import { createFormatters } from '../../lib/i18n-format';
import { FIGURES } from './figures';

describe('FIGURES', () => {
  it('say what the contracts say', () => {
    const format = createFormatters('en-IN');
    expect(format.percent(FIGURES.accuracyFraction)).toBe(MARKETING_FIGURES.accuracy);
    expect(format.percent(FIGURES.privacyFraction)).toBe(MARKETING_FIGURES.privacy);
    expect(`${FIGURES.patentClaims}+`).toBe(MARKETING_FIGURES.patentClaims);
    expect(`under ${FIGURES.verificationSeconds} s`).toBe(MARKETING_FIGURES.verification);
    expect(`over ${FIGURES.dataPoints}`).toBe(MARKETING_FIGURES.dataPoints);
  });
});
