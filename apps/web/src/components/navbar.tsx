import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';

import { isAdmin, isMerchant, useStoredUser } from '../lib/auth-storage';
import { currentLanguage, setLanguage } from '../lib/i18n';
import { LANGUAGES, isLanguage } from '../lib/i18n-resources';
import { Logo } from './logo';
import { SITE_LINKS, appLinksFor } from './nav-links';
import type { NavItem, NavRole } from './nav-links';
import { focusRing, primaryButtonClass, secondaryButtonClass } from './ui-classes';
import { useLogout } from './use-logout';

const MOBILE_MENU_ID = 'mobile-menu';

function navLinkClass({ isActive }: { isActive: boolean }, size: 'sm' | 'lg'): string {
  const base = `${focusRing} rounded-md transition-colors`;
  const spacing = size === 'sm' ? 'px-3 py-1.5 text-sm' : 'block px-3 py-2 text-base';
  const tone = isActive
    ? 'bg-emerald-100 text-emerald-900 font-semibold'
    : 'font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900';
  return `${base} ${spacing} ${tone}`;
}

function NavList({
  items,
  size,
  onNavigate,
}: {
  items: readonly NavItem[];
  size: 'sm' | 'lg';
  onNavigate?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <ul className={size === 'sm' ? 'flex items-center gap-1' : 'space-y-1'}>
      {items.map((item) => (
        <li key={item.to}>
          <NavLink to={item.to} end className={(state) => navLinkClass(state, size)} onClick={onNavigate}>
            {t(`nav.${item.labelKey}`)}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

/** Launch App when logged out; User Page, Store Page or Admin Page plus Logout when logged in (spec §2.2). */
function AuthActions({ onNavigate, stacked }: { onNavigate?: () => void; stacked: boolean }) {
  const { t } = useTranslation();
  const user = useStoredUser();
  const logout = useLogout();
  const layout = stacked ? 'flex flex-col gap-2' : 'flex items-center gap-2';

  if (user === null) {
    return (
      <div className={layout}>
        <Link to="/user-dashboard" className={primaryButtonClass} onClick={onNavigate}>
          {t('nav.launchApp')}
        </Link>
      </div>
    );
  }
  // A store's owner goes to the store dashboard; an admin to the admin dashboard.
  const [to, label] = isAdmin(user)
    ? ['/admin', t('nav.adminPage')]
    : isMerchant(user)
      ? ['/store-dashboard', t('nav.storePage')]
      : ['/user-dashboard', t('nav.userPage')];
  return (
    <div className={layout}>
      <Link to={to} className={primaryButtonClass} onClick={onNavigate}>
        {label}
      </Link>
      <button
        type="button"
        className={secondaryButtonClass}
        onClick={() => {
          onNavigate?.();
          logout();
        }}
      >
        {t('nav.logout')}
      </button>
    </div>
  );
}

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg
      className="h-6 w-6"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      {open ? (
        <path strokeLinecap="round" d="M6 6l12 12M18 6L6 18" />
      ) : (
        <path strokeLinecap="round" d="M4 7h16M4 12h16M4 17h16" />
      )}
    </svg>
  );
}

function GlobeIcon() {
  return (
    <svg
      className="pointer-events-none absolute left-2.5 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-600"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z" />
    </svg>
  );
}

/** English or Hindi, remembered on the device (each language named in its own script). */
function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const id = useId();
  return (
    <div className="relative">
      <label htmlFor={id} className="sr-only">
        {t('language.label')}
      </label>
      <GlobeIcon />
      <select
        id={id}
        value={currentLanguage(i18n.language)}
        onChange={(event) => {
          if (isLanguage(event.target.value)) setLanguage(event.target.value);
        }}
        className={`${focusRing} rounded-md border border-slate-300 bg-white py-1.5 pl-8 pr-2 text-sm font-medium text-slate-800 hover:bg-slate-50`}
      >
        {LANGUAGES.map((language) => (
          <option key={language.code} value={language.code} lang={language.code}>
            {language.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The signed-in visitor's role for the navigation (null: signed out). */
function useNavRole(): NavRole | null {
  const user = useStoredUser();
  if (user === null) return null;
  return isAdmin(user) ? 'admin' : isMerchant(user) ? 'merchant' : 'person';
}

/**
 * The fixed navigation bar (spec §2.2). Below the lg breakpoint the links move into a toggled menu. The app
 * links follow the role (`appLinksFor`): none signed out, a person's own, a store's, an admin's.
 */
export function Navbar() {
  const { t } = useTranslation();
  const appLinks = appLinksFor(useNavRole());
  const { pathname } = useLocation();
  // The menu belongs to the page it was opened on, so any navigation closes it without an effect.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const menuOpen = openOn === pathname;
  const toggleRef = useRef<HTMLButtonElement>(null);
  const closeMenu = (): void => setOpenOn(null);

  useEffect(() => {
    if (!menuOpen) return undefined;
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape') return;
      setOpenOn(null);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/85">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-6 px-4 sm:px-6 lg:px-8">
        <Link to="/" className={`${focusRing} flex items-center gap-2 rounded-md`} onClick={closeMenu}>
          <Logo />
          <span className="text-xl font-bold tracking-tight text-slate-900">Hasta</span>
        </Link>

        <nav aria-label={t('nav.site')} className="hidden lg:block">
          <NavList items={SITE_LINKS} size="sm" />
        </nav>

        <div className="ml-auto">
          <LanguageSwitch />
        </div>

        <div className="hidden lg:block">
          <AuthActions stacked={false} />
        </div>

        <button
          ref={toggleRef}
          type="button"
          className={`${focusRing} -mr-2 rounded-md p-2 text-slate-700 hover:bg-slate-100 lg:hidden`}
          aria-label={t('nav.menu')}
          aria-expanded={menuOpen}
          aria-controls={MOBILE_MENU_ID}
          onClick={() => setOpenOn(menuOpen ? null : pathname)}
        >
          <MenuIcon open={menuOpen} />
        </button>
      </div>

      {appLinks.length === 0 ? null : (
        <div className="hidden border-t border-slate-100 bg-slate-50/80 lg:block">
          <nav
            aria-label={t('nav.app')}
            className="mx-auto flex h-11 max-w-7xl items-center gap-3 px-4 sm:px-6 lg:px-8"
          >
            <span className="text-xs font-semibold uppercase tracking-wider text-slate-600">
              {t('nav.appHeading')}
            </span>
            <NavList items={appLinks} size="sm" />
          </nav>
        </div>
      )}

      <nav
        id={MOBILE_MENU_ID}
        aria-label={t('nav.mobile')}
        hidden={!menuOpen}
        className="max-h-[calc(100dvh-4rem)] overflow-y-auto border-t border-slate-200 bg-white px-4 pb-6 pt-4 shadow-lg lg:hidden"
      >
        <p className="px-3 text-xs font-semibold uppercase tracking-wider text-slate-600">
          {t('nav.explore')}
        </p>
        <div className="mt-2">
          <NavList items={SITE_LINKS} size="lg" onNavigate={closeMenu} />
        </div>
        {appLinks.length === 0 ? null : (
          <>
            <p className="mt-6 px-3 text-xs font-semibold uppercase tracking-wider text-slate-600">
              {t('nav.appHeading')}
            </p>
            <div className="mt-2">
              <NavList items={appLinks} size="lg" onNavigate={closeMenu} />
            </div>
          </>
        )}
        <div className="mt-6 border-t border-slate-200 px-3 pt-6">
          <AuthActions stacked onNavigate={closeMenu} />
        </div>
      </nav>
    </header>
  );
}
