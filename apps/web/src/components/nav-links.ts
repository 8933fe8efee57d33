/** The navigation bar's links (spec §2.2), in two groups: the public site and the app. */
export type NavLabelKey =
  | 'home'
  | 'technology'
  | 'features'
  | 'demo'
  | 'contact'
  | 'login'
  | 'userDashboard'
  | 'admin'
  | 'palmRegister'
  | 'pay'
  | 'receive'
  | 'history'
  | 'storeDashboard'
  | 'myWallet';

export interface NavItem {
  to: string;
  /** Its label in the `common` translations, under `nav.`. */
  labelKey: NavLabelKey;
}

export const SITE_LINKS: readonly NavItem[] = [
  { to: '/', labelKey: 'home' },
  { to: '/technology', labelKey: 'technology' },
  { to: '/features', labelKey: 'features' },
  { to: '/demo', labelKey: 'demo' },
  { to: '/contact', labelKey: 'contact' },
];

/** Who is signed in, as far as the navigation cares (nobody: null). */
export type NavRole = 'person' | 'merchant' | 'admin';

/**
 * The app links a visitor sees, by role (issue 27): signed out none (the public links and Launch App are
 * enough); a person their own app (dashboard, palm, pay, receive, history), never Login or Admin; a store's
 * owner the store dashboard and their own wallet; an admin the admin dashboard.
 */
export function appLinksFor(role: NavRole | null): readonly NavItem[] {
  switch (role) {
    case null:
      return [];
    case 'person':
      return [
        { to: '/user-dashboard', labelKey: 'userDashboard' },
        { to: '/palm-register', labelKey: 'palmRegister' },
        { to: '/transfer', labelKey: 'pay' },
        { to: '/receive', labelKey: 'receive' },
        { to: '/history', labelKey: 'history' },
      ];
    case 'merchant':
      return [
        { to: '/store-dashboard', labelKey: 'storeDashboard' },
        { to: '/user-dashboard', labelKey: 'myWallet' },
      ];
    case 'admin':
      return [{ to: '/admin', labelKey: 'admin' }];
  }
}
