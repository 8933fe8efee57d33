import { Link } from 'react-router';

import { Page } from '../../../components/page';
import { cardClass } from '../../../components/ui-classes';
import { useStoredUser } from '../../../lib/auth-storage';

const SHORTCUTS = [
  { to: '/transfer', label: 'Send Money', body: 'Pay anyone by phone number or email.' },
  { to: '/receive', label: 'Receive Money', body: 'Confirm an incoming payment with your palm.' },
  { to: '/qr-scan', label: 'Scan QR Code', body: 'Pay a merchant by scanning their code.' },
  { to: '/palm-register', label: 'Register Palm', body: 'Register your left or right hand.' },
  { to: '/history', label: 'Transaction History', body: 'Every payment you sent and received.' },
] as const;

/** Guarded by RequireUser, so a stored user exists; the name falls back as in spec §2.11. */
export function UserDashboardRoute() {
  const user = useStoredUser();
  const name = user?.username ?? user?.email ?? 'User';
  return (
    <Page title="User Dashboard" lead={`Welcome, ${name}`}>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {SHORTCUTS.map((shortcut) => (
          <li key={shortcut.to}>
            <Link
              to={shortcut.to}
              className={`${cardClass} block h-full transition-colors hover:border-emerald-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700`}
            >
              <span className="block text-lg font-semibold text-slate-900">{shortcut.label}</span>
              <span className="mt-1 block text-slate-600">{shortcut.body}</span>
            </Link>
          </li>
        ))}
      </ul>
      <p className="mt-8 max-w-3xl text-slate-600">
        Your balance, recent history, consent status and rewards will appear here in an upcoming update.
      </p>
    </Page>
  );
}
