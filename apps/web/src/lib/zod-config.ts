/**
 * The app runs under a CSP without 'unsafe-eval', so zod must not compile parsers with `new Function` (nor
 * probe for it, which the browser reports as a violation). Imported first by main.tsx, before any schema is
 * built, because zod decides at construction time.
 *
 * zod keeps its settings (`z.config()`) in one object on `globalThis.__zod_globalConfig`, shared by every
 * copy of zod and adopted when already there; writing it here keeps the schema library itself off the first
 * load (schemas load with the pages that use them). `zod-config.test.ts` checks zod still reads it.
 */
interface ZodGlobal {
  __zod_globalConfig?: { jitless?: boolean };
}

const zodGlobal = globalThis as ZodGlobal;
zodGlobal.__zod_globalConfig ??= {};
zodGlobal.__zod_globalConfig.jitless = true;
