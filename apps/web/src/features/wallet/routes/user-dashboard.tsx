import { useState } from 'react';
import { Link } from 'react-router';

import { ChangePasswordDialog } from '../../../components/change-password-dialog';
import { Page } from '../../../components/page';
import { cardClass, secondaryButtonClass } from '../../../components/ui-classes';
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
  const [settingsOpen, setSettingsOpen] = useState(false);
  return (
    <Page title="User Dashboard" lead={`Welcome, ${name}`}>
      <div className="mb-6 flex justify-end">
        <button
          type="button"
          className={secondaryButtonClass}
          aria-haspopup="dialog"
          onClick={() => setSettingsOpen(true)}
        >
          <GearIcon />
          Settings
        </button>
      </div>
      <ChangePasswordDialog open={settingsOpen} onClose={() => setSettingsOpen(false)} />
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

function GearIcon() {
  return (
    <svg
      className="h-4 w-4"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <circle cx="12" cy="12" r="3" />
      <path
        strokeLinecap="round"
        strokeLinejoin="round"
        d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z"
      />
    </svg>
  );
}
