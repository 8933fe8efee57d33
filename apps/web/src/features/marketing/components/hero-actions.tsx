import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { primaryButtonClass, secondaryButtonClass } from '../../../components/ui-classes';
import { useStoredUser } from '../../../lib/auth-storage';
import { buildLoginPath } from '../../../lib/login-redirect';
import type { LoginRedirectState } from '../../../lib/login-redirect';

const ACTIONS = [
  { labelKey: 'palmRegister', to: '/palm-register', primary: true },
  { labelKey: 'pay', to: '/transfer', primary: false },
  { labelKey: 'receive', to: '/receive', primary: false },
] as const;

/**
 * The hero's three actions (spec §2.3). Logged in they open the screen; logged out they lead to /login
 * (remembering the screen) and a tooltip says the visitor must log in.
 */
export function HeroActions() {
  const { t } = useTranslation();
  const user = useStoredUser();
  const idBase = useId();

  return (
    <div className="flex flex-wrap gap-3">
      {ACTIONS.map((action, index) => {
        const className = `${action.primary ? primaryButtonClass : secondaryButtonClass} px-5 py-3 text-base`;
        const label = t(`hero.${action.labelKey}`);
        if (user !== null) {
          return (
            <Link key={action.to} to={action.to} className={className}>
              {label}
            </Link>
          );
        }
        const tooltipId = `${idBase}-tip-${index}`;
        const state: LoginRedirectState = { from: { pathname: action.to } };
        return (
          <span key={action.to} className="group relative inline-flex">
            <Link
              to={buildLoginPath({ pathname: action.to })}
              state={state}
              className={className}
              aria-describedby={tooltipId}
            >
              {label}
            </Link>
            {/*
              Out of the layout until shown (display, not visibility: an invisible box still widens a phone's
              page); the last one opens leftwards from the button's right edge, so it stays on screen.
            */}
            <span
              id={tooltipId}
              role="tooltip"
              className={`pointer-events-none absolute top-full z-10 mt-2 hidden w-max max-w-56 rounded-md bg-slate-900 px-3 py-1.5 text-xs font-medium text-white shadow-lg group-focus-within:block group-hover:block ${
                index === ACTIONS.length - 1 ? 'right-0' : 'left-1/2 -translate-x-1/2'
              }`}
            >
              {t('hero.loginRequired')}
            </span>
          </span>
        );
      })}
    </div>
  );
}
