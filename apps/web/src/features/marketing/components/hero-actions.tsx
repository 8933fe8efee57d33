import { messages } from '@hasta/contracts/messages';
import { useId } from 'react';
import { Link } from 'react-router';

import { primaryButtonClass, secondaryButtonClass } from '../../../components/ui-classes';
import { useStoredUser } from '../../../lib/auth-storage';
import { buildLoginPath } from '../../../lib/login-redirect';
import type { LoginRedirectState } from '../../../lib/login-redirect';

const ACTIONS = [
  { label: 'Palm Register', to: '/palm-register', primary: true },
  { label: 'Pay', to: '/transfer', primary: false },
  { label: 'Receive', to: '/receive', primary: false },
] as const;

/**
 * The hero's three actions (spec §2.3). Logged in they open the screen; logged out they lead to /login
 * (remembering the screen) and a tooltip says the visitor must log in.
 */
export function HeroActions() {
  const user = useStoredUser();
  const idBase = useId();

  return (
    <div className="flex flex-wrap gap-3">
      {ACTIONS.map((action, index) => {
        const className = `${action.primary ? primaryButtonClass : secondaryButtonClass} px-5 py-3 text-base`;
        if (user !== null) {
          return (
            <Link key={action.to} to={action.to} className={className}>
              {action.label}
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
              {action.label}
            </Link>
            <span
              id={tooltipId}
              role="tooltip"
              className="pointer-events-none invisible absolute left-1/2 top-full z-10 mt-2 w-max max-w-56 -translate-x-1/2 rounded-md bg-slate-900 px-3 py-1.5 text-xs font-medium text-white shadow-lg group-focus-within:visible group-hover:visible"
            >
              {messages.unauthorized}
            </span>
          </span>
        );
      })}
    </div>
  );
}
