import { describe, expect, it } from 'vitest';

import { formErrorMessage } from './form-errors';

describe('formErrorMessage', () => {
  it("prefers the server's answer, then the first field error, else null", () => {
    expect(formErrorMessage({})).toBeNull();
    expect(formErrorMessage({ name: { type: 'custom', message: 'Name first.' } })).toBe('Name first.');
    expect(
      formErrorMessage({
        name: { type: 'custom', message: 'Name first.' },
        root: { server: { type: 'server', message: 'Server said no.' } },
      }),
    ).toBe('Server said no.');
    expect(formErrorMessage({ name: { type: 'custom', message: '' } })).toBeNull();
  });
});
