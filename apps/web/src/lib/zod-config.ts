import { z } from 'zod';

/**
 * The app runs under a CSP without 'unsafe-eval', so zod must not compile parsers with `new Function` (nor
 * probe for it, which the browser reports as a violation). Imported first by main.tsx, before any schema is
 * built, because zod decides at construction time.
 */
z.config({ jitless: true });
