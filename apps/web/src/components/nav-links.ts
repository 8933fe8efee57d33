/** The navigation bar's links (spec §2.2), in two groups: the public site and the app. */
export interface NavItem {
  to: string;
  label: string;
}

export const SITE_LINKS: readonly NavItem[] = [
  { to: '/', label: 'Home' },
  { to: '/technology', label: 'Technology' },
  { to: '/features', label: 'Features' },
  { to: '/demo', label: 'Demo' },
  { to: '/contact', label: 'About / Contact' },
];

export const APP_LINKS: readonly NavItem[] = [
  { to: '/login', label: 'Login' },
  { to: '/user-dashboard', label: 'User Dashboard' },
  { to: '/admin', label: 'Admin' },
  { to: '/palm-register', label: 'Palm Register' },
  { to: '/transfer', label: 'Pay' },
  { to: '/receive', label: 'Receive' },
];
