import { describe, expect, it } from 'vitest';

import { buildLoginPath, isLoginPath, toSafeInternalPath } from './login-redirect';

describe('toSafeInternalPath', () => {
  it.each([
    ['/user-dashboard', '/user-dashboard'],
    ['/history?page=2#top', '/history?page=2#top'],
    ['/a/../admin', '/admin'],
  ])('keeps the same-site path %s', (input, expected) => {
    expect(toSafeInternalPath(input)).toBe(expected);
  });

  it.each([
    undefined,
    42,
    '',
    'user-dashboard',
    'https://evil.example/',
    '//evil.example/',
    '/\\evil.example/',
    '/\t/evil.example/',
    'javascript:alert(1)',
    `/${'a'.repeat(3_000)}`,
  ])('refuses %s', (input) => {
    expect(toSafeInternalPath(input)).toBeNull();
  });
});

describe('buildLoginPath', () => {
  it('remembers the whole origin in the next parameter', () => {
    expect(buildLoginPath({ pathname: '/user-dashboard' })).toBe('/login?next=%2Fuser-dashboard');
    expect(buildLoginPath({ pathname: '/admin', search: '?tab=users', hash: '#x' })).toBe(
      '/login?next=%2Fadmin%3Ftab%3Dusers%23x',
    );
  });
});

describe('isLoginPath', () => {
  it('recognises the login page with or without a query', () => {
    expect(isLoginPath('/login')).toBe(true);
    expect(isLoginPath('/login?next=%2Fadmin')).toBe(true);
    expect(isLoginPath('/login-help')).toBe(false);
  });
});
