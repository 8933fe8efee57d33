import { describe, expect, it } from 'vitest';

import { keepPhonePrefix, parseEmail, parsePhone, parseRegisterContact } from './contact';

describe('parseEmail and parsePhone (login, spec §5.6)', () => {
  it('accepts an email that looks like name@domain.tld', () => {
    expect(parseEmail(' Asha@Example.IN ')).toBe('asha@example.in');
    expect(parseEmail('asha@example')).toBeNull();
    expect(parseEmail('asha')).toBeNull();
  });

  it('needs at least 7 digits', () => {
    expect(parsePhone('+91 98765 43210')).toBe('+919876543210');
    expect(parsePhone('+91 12345')).toBe('+9112345');
    expect(parsePhone('+91 1234')).toBeNull();
    expect(parsePhone('+91 ')).toBeNull();
    expect(parsePhone('9876543210')).toBe('+919876543210');
  });
});

describe('parseRegisterContact (spec §5.7)', () => {
  it.each([
    ['asha@example.in', { channel: 'email', value: 'asha@example.in' }],
    ['+44 7700 900123', { channel: 'phone', value: '+447700900123' }],
    ['9876543210', { channel: 'phone', value: '+919876543210' }],
    ['1234567', { channel: 'phone', value: '+1234567' }],
    ['+123456789012345', { channel: 'phone', value: '+123456789012345' }],
  ])('reads %s', (input, expected) => {
    expect(parseRegisterContact(input)).toEqual(expected);
  });

  it.each(['asha@', 'asha', '123456', '+1234567890123456', '+91 98x76', ''])('refuses %s', (input) => {
    expect(parseRegisterContact(input)).toBeNull();
  });
});

describe('keepPhonePrefix', () => {
  it.each([
    ['+91 98765', '+91 98765'],
    ['+91', '+91 '],
    ['+9', '+91 '],
    ['', '+91 '],
    ['+1 98765', '+91 98765'], // the 9 was deleted
    ['+591 98', '+91 591 98'], // typed inside the prefix
    ['91 98765', '+91 98765'],
    ['+9198765', '+91 98765'],
    ['7', '+91 7'],
    ['1+91 98', '+91 198'],
  ])('turns %j into %j', (input, expected) => {
    expect(keepPhonePrefix(input)).toBe(expected);
  });
});
