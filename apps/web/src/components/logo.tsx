/** The Hasta mark: an open palm on the accent tile (same drawing as public/favicon.svg). */
export function Logo({ className = 'h-8 w-8' }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#047857" />
      <g fill="none" stroke="#fff" strokeLinecap="round" strokeWidth="5">
        <path d="M25 32V17M32 30V13M39 31V15M46 34V21" />
        <path d="M18 38l-4-6" />
      </g>
      <path fill="#fff" d="M20 31h29v10c0 8-6 13-14 13h-1c-7 0-14-5-14-13z" />
    </svg>
  );
}
