import { describe, expect, it } from 'vitest';

import { getPostLoginPath, hasRememberedOrigin } from './post-login-path';

const user = { is_admin: false };
const admin = { is_admin: true };

describe('getPostLoginPath', () => {
  it('sends an admin to /admin and anyone else to /user-dashboard when there is no origin', () => {
    expect(getPostLoginPath({ search: '' }, admin)).toBe('/admin');
    expect(getPostLoginPath({ search: '' }, user)).toBe('/user-dashboard');
    expect(getPostLoginPath({ search: '', state: null }, user)).toBe('/user-dashboard');
  });

  it('sends a merchant to the store dashboard, unless they were going somewhere', () => {
    const merchant = { is_admin: false, role: 'merchant' };
    expect(getPostLoginPath({ search: '' }, merchant)).toBe('/store-dashboard');
    expect(getPostLoginPath({ search: '?next=/transfer' }, merchant)).toBe('/transfer');
    expect(getPostLoginPath({ search: '' }, { is_admin: false, role: 'user' })).toBe('/user-dashboard');
  });

  it('returns to the origin kept in router state', () => {
    const state = { from: { pathname: '/history', search: '?page=2', hash: '' } };
    expect(getPostLoginPath({ search: '', state }, user)).toBe('/history?page=2');
    expect(getPostLoginPath({ search: '', state }, admin)).toBe('/history?page=2');
  });

  it('returns to the origin kept in ?next= (after a reload)', () => {
    expect(getPostLoginPath({ search: '?next=%2Fuser-dashboard' }, admin)).toBe('/user-dashboard');
    expect(getPostLoginPath({ search: '?next=/admin' }, admin)).toBe('/admin');
  });

  it('prefers router state over the query', () => {
    const state = { from: { pathname: '/transfer' } };
    expect(getPostLoginPath({ search: '?next=/receive', state }, user)).toBe('/transfer');
  });

  it.each([
    '?next=https://evil.example/',
    '?next=//evil.example/',
    '?next=%2F%2Fevil.example',
    '?next=/%5Cevil.example',
    '?next=javascript:alert(1)',
    '?next=user-dashboard',
    '?next=',
    '?next=/login',
    '?next=/login?next=/admin',
  ])('ignores an unsafe or looping origin %s', (search) => {
    expect(getPostLoginPath({ search }, user)).toBe('/user-dashboard');
    expect(getPostLoginPath({ search }, admin)).toBe('/admin');
  });

  it('ignores malformed router state and falls back to the query', () => {
    expect(getPostLoginPath({ search: '?next=/receive', state: { from: 'x' } }, user)).toBe('/receive');
    expect(getPostLoginPath({ search: '', state: { from: { pathname: '//evil.example' } } }, user)).toBe(
      '/user-dashboard',
    );
  });
});

describe('hasRememberedOrigin', () => {
  it('is true only for a usable origin', () => {
    expect(hasRememberedOrigin({ search: '?next=/admin' })).toBe(true);
    expect(hasRememberedOrigin({ search: '', state: { from: { pathname: '/user-dashboard' } } })).toBe(true);
    expect(hasRememberedOrigin({ search: '?next=//evil.example' })).toBe(false);
    expect(hasRememberedOrigin({ search: '' })).toBe(false);
  });
});
