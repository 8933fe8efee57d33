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
  | 'receive';

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

export const APP_LINKS: readonly NavItem[] = [
  { to: '/login', labelKey: 'login' },
  { to: '/user-dashboard', labelKey: 'userDashboard' },
  { to: '/admin', labelKey: 'admin' },
  { to: '/palm-register', labelKey: 'palmRegister' },
  { to: '/transfer', labelKey: 'pay' },
  { to: '/receive', labelKey: 'receive' },
];
