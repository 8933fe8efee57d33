import { describe, expect, it } from 'vitest';

import { technology as english } from '../../locales/en/technology';
import { technology as hindi } from '../../locales/hi/technology';

/**
 * The FAQ's security, spoofing and breach answers say what the product does against a stolen photo, a
 * stolen session or an insider (issue 21), in both languages, and nothing the code does not back.
 */
describe.each([
  ['English', english],
  ['Hindi', hindi],
])('the %s FAQ on palm pay’s safeguards', (_language, page) => {
  const { security, spoofing, breach, merchantMisuse } = page.faq;

  it('names the palm-alone limits in the security, spoofing and breach answers', () => {
    for (const { answer } of [security, spoofing, breach]) {
      expect(answer.match(/₹5,000/g)).toHaveLength(2);
      expect(answer).toMatch(/ 5 /);
      expect(answer).toContain('“Not me?”');
    }
  });

  it('says a new palm waits 24 hours, a replayed scan is refused and enrolment needs the owner', () => {
    expect(security.answer).toContain('24');
    expect(spoofing.answer).toMatch(/replay|रीप्ले/);
    // The guard catches most copies, not all (decision 025): the answer says so.
    expect(spoofing.answer).toMatch(/can still pass|फिर भी निकल सकती/);
    expect(spoofing.answer).toMatch(/admin|एडमिन/);
    expect(merchantMisuse.answer).toContain('a•••@g•••');
  });

  it('claims no infrared imaging or liveness check in the spoofing answer', () => {
    expect(spoofing.answer).not.toMatch(/infrared|liveness|इन्फ्रारेड|लाइवनेस/i);
  });
});
