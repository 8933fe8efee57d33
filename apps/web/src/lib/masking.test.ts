import { describe, expect, it } from 'vitest';

import { maskDestination, payeeName } from './masking';

describe('maskDestination', () => {
  it('keeps the country code and the last four digits of a phone', () => {
    expect(maskDestination('+919876543210')).toBe('+91 ••••••3210');
    expect(maskDestination('9876543210')).toBe('+91 ••••••3210');
  });

  it('keeps the first letters and the domain’s ending of an email', () => {
    expect(maskDestination('asha@gmail.com')).toBe('a•••@g•••.com');
    expect(maskDestination('r@example.co.in')).toBe('r•••@e•••.in');
  });
});

describe('payeeName', () => {
  it('is the first name and the last name’s initial', () => {
    expect(payeeName({ username: 'Asha Kumar', email: null, phone: null })).toBe('Asha K.');
    expect(payeeName({ username: '  asha  ', email: null, phone: null })).toBe('asha');
    expect(payeeName({ username: 'Asha Devi kumar', email: null, phone: null })).toBe('Asha K.');
  });

  it('without a name is the masked contact', () => {
    expect(payeeName({ username: null, email: 'asha@gmail.com', phone: null })).toBe('a•••@g•••.com');
    expect(payeeName({ username: '', email: null, phone: '+919876543210' })).toBe('+91 ••••••3210');
  });
});
