import { describe, expect, it } from 'vitest';

import { appLinksFor } from './nav-links';

const targets = (role: Parameters<typeof appLinksFor>[0]) => appLinksFor(role).map((item) => item.to);

describe('appLinksFor', () => {
  it('signed out: no app links (the public links and Launch App)', () => {
    expect(targets(null)).toEqual([]);
  });

  it('a person: their own app, never Login or Admin', () => {
    expect(targets('person')).toEqual([
      '/user-dashboard',
      '/palm-register',
      '/transfer',
      '/receive',
      '/history',
    ]);
  });

  it('a store’s owner: the store dashboard and their own wallet', () => {
    expect(appLinksFor('merchant')).toEqual([
      { to: '/store-dashboard', labelKey: 'storeDashboard' },
      { to: '/user-dashboard', labelKey: 'myWallet' },
    ]);
  });

  it('an admin: the admin dashboard', () => {
    expect(targets('admin')).toEqual(['/admin']);
  });
});
