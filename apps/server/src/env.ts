import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { LedgerLimits } from '@hasta/ledger/rules';
import { z } from 'zod';
import { ANCHOR_CHAIN_NAMES } from './anchor/chains';
import { databaseHosts } from './db/database-url';

const booleanFlag = z
  .enum(['0', '1', 'true', 'false'])
  .transform((value) => value === '1' || value === 'true');

/** The named ranges Fastify's trustProxy (@fastify/proxy-addr) knows besides addresses and CIDRs. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
/** More proxies than this in front of one server is a mistake, not a deployment. */
const MAX_PROXY_HOPS = 10;
const TRUST_PROXY_FORMS =
  'the number of proxies in front of the server (1 for one) or their addresses or CIDRs, comma-separated (10.0.0.1,10.0.0.0/8)';

/** An IPv4 or IPv6 address, one with a prefix length (10.0.0.0/8, fd00::/8), or a named range. */
function isProxyAddress(text: string): boolean {
  if (PROXY_RANGE_NAMES.includes(text)) return true;
  const [address = '', prefix, extra] = text.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Whose X-Forwarded-For to believe, in the forms Fastify's trustProxy takes: no proxy (unset, 0), a hop count
 * (1 = the one proxy at the socket: only the address it appended is believed), or the proxies' addresses.
 * `true` (every hop) lets any client choose its own address by sending the header: refused in production.
 */
export type TrustProxy = boolean | number | string[];

const trustProxySetting = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx): TrustProxy => {
    if (value === undefined || value === '' || value === '0' || value === 'false') return false;
    if (value === 'true') return true;
    if (/^[0-9]+$/.test(value) && Number(value) <= MAX_PROXY_HOPS) return Number(value);
    const addresses = value.split(',').map((item) => item.trim());
    if (addresses.every(isProxyAddress)) return addresses;
    ctx.addIssue({ code: 'custom', message: `must be ${TRUST_PROXY_FORMS}` });
    return z.NEVER;
  });

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value === '' ? undefined : value));

export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    HOST: z.string().min(1).default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
    DATA_DIR: z.string().min(1).default('./data'),
    /** One PostgreSQL, or a primary and its standbys in libpq's form (postgres://u:p@h1:5432,h2:5433/db). */
    DATABASE_URL: z
      .string()
      .trim()
      .superRefine((value, ctx) => {
        try {
          databaseHosts(value);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: (error as Error).message });
        }
      })
      .optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ADMIN_EMAIL: z.email().optional(),
    ADMIN_PASSWORD: z.string().min(6, 'must be at least 6 characters').optional(),
    SEED_DEMO: booleanFlag.optional(),
    WEB_DIST_DIR: optionalText,
    /** The public origin, for links in emails (https://hasta.example). Required in production. */
    PUBLIC_URL: z.url().optional(),
    TRUST_PROXY: trustProxySetting,
    /** Signs cookies. Required in production; a fresh random one per start elsewhere. */
    COOKIE_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300),
    // Palm calls (every /Palm/* call but reads, and a store's POST /api/transaction) search every enrolled
    // palm: their own limits, per client address, per session and per signed-in account (issue 21). A till
    // at its busiest takes a palm payment every 30 s (two calls when the payer's code is needed): 20 a
    // minute leaves it room for retries, and 120 an hour keeps a stolen session or a scripted client to a
    // few searches a minute. A store with several tills on one account raises the account's.
    PALM_RATE_LIMIT_PER_CLIENT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(20),
    PALM_RATE_LIMIT_PER_SESSION_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(20),
    PALM_RATE_LIMIT_PER_ACCOUNT_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(120),
    // SMS pumping (issue 23): codes are texted only to these E.164 country prefixes (comma-separated), and
    // at most so many an hour per client address and overall; past a budget a code goes to the account's
    // email, else the spec's "Too many OTP requests". A till or an office behind one address shares its
    // client budget: 10 an hour is a few people signing in, not a script rotating numbers.
    SMS_ALLOWED_PREFIXES: z
      .string()
      .default('+91')
      .transform((list) =>
        list
          .split(',')
          .map((prefix) => prefix.trim())
          .filter((prefix) => prefix !== ''),
      )
      .pipe(
        z
          .array(z.string().regex(/^\+[1-9]\d{0,3}$/, 'must list country prefixes such as +91,+977'))
          .min(1, 'must list at least one country prefix such as +91'),
      ),
    SMS_BUDGET_PER_CLIENT_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(10),
    SMS_BUDGET_GLOBAL_PER_HOUR: z.coerce.number().int().min(1).max(10_000_000).default(1_000),
    /** argon2id's cost for new password hashes: `strong` (OWASP's setting), or `fast` for test servers only. */
    PASSWORD_HASHING: z.enum(['strong', 'fast'], { error: 'must be strong or fast' }).default('strong'),
    // Email: SMTP when SMTP_HOST is set; otherwise the dev outbox (refused in production).
    SMTP_HOST: optionalText,
    SMTP_PORT: z.coerce.number().int().min(1).max(65_535).default(587),
    SMTP_SECURE: booleanFlag.default(false),
    /** Without SMTP_SECURE: refuse to send unless the server upgrades with STARTTLS. Default on in production. */
    SMTP_REQUIRE_TLS: booleanFlag.optional(),
    SMTP_USER: optionalText,
    SMTP_PASSWORD: optionalText,
    SMTP_FROM: z.string().default('Hasta <no-reply@hasta.local>'),
    // SMS: an HTTP gateway when SMS_GATEWAY_URL is set; otherwise the dev outbox (refused in production).
    SMS_GATEWAY_URL: z.url().optional(),
    SMS_GATEWAY_API_KEY: optionalText,
    SMS_SENDER_ID: z.string().default('HASTAP'),
    SMS_DLT_TEMPLATE_ID: optionalText,
    // The verifiable log: its Ed25519 signer key (C2SP note format, "PRIVATE+KEY+<name>+<id>+<key>") and the
    // secret behind its pseudonymous subjects and users' data keys. Required in production; made once and
    // kept in the database elsewhere.
    LOG_SIGNING_KEY: optionalText.refine(
      (value) => value === undefined || value.startsWith('PRIVATE+KEY+'),
      'must be a signed-note signer key (PRIVATE+KEY+…)',
    ),
    LOG_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    /** How often the log appends waiting events and signs a checkpoint; 0 turns the background round off. */
    LOG_SEQUENCE_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(250),
    // Palm templates (decision 014): the secret behind the keyed template transform and the at-rest key.
    // Required in production; made once and kept in the database elsewhere. PALM_PREVIOUS_KEY, during a
    // rotation, still recognises palms enrolled under the old key and re-makes their templates on use.
    PALM_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
    PALM_PREVIOUS_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
    /** The scanner's demo mode (synthetic palms, no camera): never in production, on by default elsewhere. */
    PALM_DEMO_MODE: z
      .enum(['true', 'false'])
      .optional()
      .transform((value) => (value === undefined ? undefined : value === 'true')),
    // The ledger's limits (decision 007), RBI's full-KYC PPI rules by default: a wallet (a person's or a
    // store's) holds at most ₹2,00,000, and the smallest amount is ₹0.01.
    LEDGER_MAX_BALANCE_PAISE: z.coerce.number().int().min(1).max(100_000_000_000_000).default(20_000_000),
    LEDGER_MIN_AMOUNT_PAISE: z.coerce.number().int().min(1).max(100_000_000_000_000).default(1),
    /** How often pending transfers past their timeout are voided (their money released); 0: no rounds. */
    LEDGER_EXPIRY_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
    // Rewards (issue 24): the configurable rules; the tiers and points per payment are spec §9's.
    /** Points to each side of a referral, at the referred person's first payment. */
    REWARDS_REFERRAL_BONUS_POINTS: z.coerce.number().int().min(0).max(100_000).default(50),
    /** Points that redeem for ₹1. */
    REWARDS_POINTS_PER_RUPEE: z.coerce.number().int().min(1).max(10_000).default(4),
    /** Fewest points one redemption takes. */
    REWARDS_REDEEM_MIN_POINTS: z.coerce.number().int().min(1).max(10_000_000).default(100),
    /** Largest palm payment the palm alone pays, in paise; above it the payer's code confirms (decision 022). */
    PALM_MAX_PAYMENT_PAISE: z.coerce.number().int().min(1).max(20_000_000).default(500_000),
    // Per-payer limits of palm-alone payments (issue 21); past any of them a payment waits for the payer's code.
    /** Most one payer's palm alone pays in a rolling 24 hours, in paise (₹5,000 by default). */
    PALM_DAILY_LIMIT_PAISE: z.coerce.number().int().min(1).max(20_000_000).default(500_000),
    /** Most palm-alone payments of one payer in a rolling hour. */
    PALM_HOURLY_PAYMENTS: z.coerce.number().int().min(1).max(1_000).default(5),
    /** Hours after its enrolment during which a palm pays only with the payer's code; 0: no hold. */
    PALM_NEW_ENROLMENT_HOLD_HOURS: z.coerce
      .number()
      .int()
      .min(0)
      .max(24 * 90)
      .default(24),
    // Anchoring the log on an EVM chain (decision 015). `none` (the default): receipts say they are not
    // anchored. `evm`: the registry at ANCHOR_CONTRACT on ANCHOR_CHAIN, written with ANCHOR_PRIVATE_KEY.
    ANCHOR: z.enum(['none', 'evm'], { error: 'must be none or evm' }).default('none'),
    /** Default: polygon in production, the polygonAmoy testnet elsewhere. */
    ANCHOR_CHAIN: z
      .enum(ANCHOR_CHAIN_NAMES, { error: `must be one of ${ANCHOR_CHAIN_NAMES.join(', ')}` })
      .optional(),
    /** JSON-RPC endpoint; outside production the chain's public endpoint when unset. */
    ANCHOR_RPC_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s):// JSON-RPC URL' }).optional(),
    ANCHOR_PRIVATE_KEY: optionalText.refine(
      (value) => value === undefined || /^0x[0-9a-fA-F]{64}$/.test(value),
      'must be 0x and 64 hex digits (the registry owner’s key)',
    ),
    ANCHOR_CONTRACT: optionalText.refine(
      (value) => value === undefined || /^0x[0-9a-fA-F]{40}$/.test(value),
      'must be the registry’s 0x address (40 hex digits)',
    ),
    /** Anchor the latest checkpoint at most this long after the previous anchor. Default 10 minutes. */
    ANCHOR_INTERVAL_MS: z.coerce.number().int().min(10_000).max(86_400_000).default(600_000),
    /** …or earlier, once this many entries arrived since it. */
    ANCHOR_MAX_ENTRIES: z.coerce.number().int().min(1).max(100_000_000).default(10_000),
    /** How often the worker looks at new checkpoints (monitor) and whether an anchor is due; 0: no rounds. */
    ANCHOR_CHECK_INTERVAL_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
    // Passkeys (WebAuthn, issue 23). The relying party: its id (the site's domain, no scheme or port:
    // hasta.example) and the origins pages run the ceremonies on (comma-separated: https://hasta.example).
    // Both required in production; elsewhere localhost on this PORT and the web dev servers (5173, 4173).
    WEBAUTHN_RP_ID: optionalText.refine(
      (value) => value === undefined || (/^[a-z0-9.-]+$/i.test(value) && isIP(value) === 0),
      'must be a domain name such as hasta.example (no scheme, no port, not an IP address)',
    ),
    WEBAUTHN_ORIGINS: optionalText.transform((value, ctx) => {
      if (value === undefined) return undefined;
      const origins = value.split(',').map((item) => item.trim());
      for (const origin of origins) {
        let parsed: URL | undefined;
        try {
          parsed = new URL(origin);
        } catch {
          parsed = undefined;
        }
        if (parsed === undefined || parsed.origin !== origin) {
          ctx.addIssue({
            code: 'custom',
            message: 'must be origins such as https://hasta.example, comma-separated',
          });
          return z.NEVER;
        }
      }
      return origins;
    }),
    WEBAUTHN_RP_NAME: z.string().trim().min(1).max(64).default('Hasta'),
    /**
     * Admins and store owners sign in with a password or code and then a passkey (`required`). `off` lets
     * them in on the first factor alone, for a demo on a machine without any authenticator: refused in
     * production.
     */
    PASSKEY_SECOND_FACTOR: z
      .enum(['required', 'off'], { error: 'must be required or off' })
      .default('required'),
  })
  .superRefine((env, ctx) => {
    if (env.LEDGER_MIN_AMOUNT_PAISE > env.LEDGER_MAX_BALANCE_PAISE) {
      ctx.addIssue({
        code: 'custom',
        path: ['LEDGER_MIN_AMOUNT_PAISE'],
        message: 'must not be above LEDGER_MAX_BALANCE_PAISE',
      });
    }
    if (env.PALM_DAILY_LIMIT_PAISE < env.PALM_MAX_PAYMENT_PAISE) {
      ctx.addIssue({
        code: 'custom',
        path: ['PALM_DAILY_LIMIT_PAISE'],
        message: 'must not be below PALM_MAX_PAYMENT_PAISE (a day allows at least one largest payment)',
      });
    }
    if (env.PALM_MAX_PAYMENT_PAISE < env.LEDGER_MIN_AMOUNT_PAISE) {
      ctx.addIssue({
        code: 'custom',
        path: ['PALM_MAX_PAYMENT_PAISE'],
        message: 'must not be below LEDGER_MIN_AMOUNT_PAISE',
      });
    }
    if (env.REWARDS_REDEEM_MIN_POINTS < env.REWARDS_POINTS_PER_RUPEE) {
      ctx.addIssue({
        code: 'custom',
        path: ['REWARDS_REDEEM_MIN_POINTS'],
        message: 'must not be below REWARDS_POINTS_PER_RUPEE (a redemption pays at least ₹1)',
      });
    }
    if ((env.ADMIN_EMAIL === undefined) !== (env.ADMIN_PASSWORD === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['ADMIN_PASSWORD'],
        message: 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
      });
    }
    if (env.NODE_ENV === 'production' && env.COOKIE_SECRET === undefined) {
      ctx.addIssue({ code: 'custom', path: ['COOKIE_SECRET'], message: 'is required in production' });
    }
    if (env.NODE_ENV === 'production' && env.PUBLIC_URL === undefined) {
      ctx.addIssue({ code: 'custom', path: ['PUBLIC_URL'], message: 'is required in production' });
    }
    if (env.NODE_ENV === 'production' && env.SMTP_HOST === undefined) {
      ctx.addIssue({ code: 'custom', path: ['SMTP_HOST'], message: 'is required in production' });
    }
    for (const key of ['LOG_SIGNING_KEY', 'LOG_SECRET', 'PALM_KEY'] as const) {
      if (env.NODE_ENV === 'production' && env[key] === undefined)
        ctx.addIssue({ code: 'custom', path: [key], message: 'is required in production' });
    }
    if (env.PASSWORD_HASHING === 'fast' && env.NODE_ENV !== 'test') {
      ctx.addIssue({
        code: 'custom',
        path: ['PASSWORD_HASHING'],
        message: 'can be fast only when NODE_ENV=test',
      });
    }
    if (env.NODE_ENV === 'production' && env.PALM_DEMO_MODE === true) {
      ctx.addIssue({ code: 'custom', path: ['PALM_DEMO_MODE'], message: 'cannot be on in production' });
    }
    if (env.ANCHOR === 'evm') {
      for (const key of ['ANCHOR_PRIVATE_KEY', 'ANCHOR_CONTRACT'] as const) {
        if (env[key] === undefined)
          ctx.addIssue({ code: 'custom', path: [key], message: 'is required when ANCHOR=evm' });
      }
      if (env.NODE_ENV === 'production' && env.ANCHOR_RPC_URL === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['ANCHOR_RPC_URL'],
          message: 'is required in production when ANCHOR=evm (a public endpoint is not for production)',
        });
      }
    }
    if (env.NODE_ENV === 'production' && env.SMS_GATEWAY_URL === undefined) {
      ctx.addIssue({ code: 'custom', path: ['SMS_GATEWAY_URL'], message: 'is required in production' });
    }
    // Deployment defaults (issue 23): production refuses what is only safe on a developer's machine.
    if (env.NODE_ENV === 'production') {
      if (env.SEED_DEMO === true) {
        ctx.addIssue({
          code: 'custom',
          path: ['SEED_DEMO'],
          message: 'cannot be on in production (the demo accounts share a published password)',
        });
      }
      if (env.SMS_GATEWAY_URL !== undefined && !env.SMS_GATEWAY_URL.startsWith('https://')) {
        ctx.addIssue({
          code: 'custom',
          path: ['SMS_GATEWAY_URL'],
          message: 'must be an https:// URL in production (codes would cross the network in clear)',
        });
      }
      if (!env.SMTP_SECURE && env.SMTP_REQUIRE_TLS === false) {
        ctx.addIssue({
          code: 'custom',
          path: ['SMTP_REQUIRE_TLS'],
          message:
            'cannot be off in production unless SMTP_SECURE=1 (mail, codes included, would go in clear)',
        });
      }
      if (env.WEBAUTHN_RP_ID === undefined)
        ctx.addIssue({ code: 'custom', path: ['WEBAUTHN_RP_ID'], message: 'is required in production' });
      if (env.WEBAUTHN_ORIGINS === undefined)
        ctx.addIssue({ code: 'custom', path: ['WEBAUTHN_ORIGINS'], message: 'is required in production' });
      for (const origin of env.WEBAUTHN_ORIGINS ?? []) {
        if (!origin.startsWith('https://'))
          ctx.addIssue({
            code: 'custom',
            path: ['WEBAUTHN_ORIGINS'],
            message: 'must be https:// origins in production',
          });
      }
      if (env.PASSKEY_SECOND_FACTOR === 'off') {
        ctx.addIssue({
          code: 'custom',
          path: ['PASSKEY_SECOND_FACTOR'],
          message: 'cannot be off in production (admins and store owners need their passkey)',
        });
      }
      if (env.TRUST_PROXY === true) {
        ctx.addIssue({
          code: 'custom',
          path: ['TRUST_PROXY'],
          message: `must be ${TRUST_PROXY_FORMS}, not true (trusting every hop lets any client pick its address)`,
        });
      }
    }
  })
  .transform((env) => ({
    ...env,
    COOKIE_SECRET: env.COOKIE_SECRET ?? randomBytes(32).toString('hex'),
    SMTP_REQUIRE_TLS: env.SMTP_REQUIRE_TLS ?? env.NODE_ENV === 'production',
    ANCHOR_CHAIN: env.ANCHOR_CHAIN ?? (env.NODE_ENV === 'production' ? 'polygon' : 'polygonAmoy'),
    WEBAUTHN_RP_ID: env.WEBAUTHN_RP_ID ?? 'localhost',
    WEBAUTHN_ORIGINS: env.WEBAUTHN_ORIGINS ?? [
      `http://localhost:${env.PORT}`,
      'http://localhost:5173',
      'http://localhost:4173',
    ],
  }))
  .superRefine((env, ctx) => {
    for (const origin of env.WEBAUTHN_ORIGINS) {
      const host = new URL(origin).hostname;
      if (host !== env.WEBAUTHN_RP_ID && !host.endsWith(`.${env.WEBAUTHN_RP_ID}`))
        ctx.addIssue({
          code: 'custom',
          path: ['WEBAUTHN_ORIGINS'],
          message: `must be on WEBAUTHN_RP_ID (${env.WEBAUTHN_RP_ID}) or a subdomain of it: ${origin} is not`,
        });
    }
  });

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {}

/** Parses the environment; a bad value throws an EnvError whose message is one clear line. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.') || 'env'} ${issue.message}`);
    throw new EnvError(`Invalid environment: ${problems.join('; ')}`);
  }
  return result.data;
}

/** The per-payer limits of palm-alone payments as configured (issue 21). */
export interface PalmPayLimits {
  /** Largest palm-alone payment (PALM_MAX_PAYMENT_PAISE). */
  maxPaymentPaise: bigint;
  /** Most a payer's palm alone pays in a rolling 24 hours. */
  dailyLimitPaise: bigint;
  /** Most palm-alone payments of a payer in a rolling hour. */
  hourlyPayments: number;
  /** How long after enrolment a palm pays only with the payer's code. */
  newEnrolmentHoldMs: number;
}

export function palmPayLimits(env: Env): PalmPayLimits {
  return {
    maxPaymentPaise: BigInt(env.PALM_MAX_PAYMENT_PAISE),
    dailyLimitPaise: BigInt(env.PALM_DAILY_LIMIT_PAISE),
    hourlyPayments: env.PALM_HOURLY_PAYMENTS,
    newEnrolmentHoldMs: env.PALM_NEW_ENROLMENT_HOLD_HOURS * 3_600_000,
  };
}

/** The ledger's limits as configured. */
export function ledgerLimits(env: Env): LedgerLimits {
  return {
    maxBalancePaise: BigInt(env.LEDGER_MAX_BALANCE_PAISE),
    minAmountPaise: BigInt(env.LEDGER_MIN_AMOUNT_PAISE),
  };
}

/** The rewards programme's configurable rules (REWARDS_*). */
export interface RewardsConfig {
  referralBonusPoints: number;
  pointsPerRupee: number;
  redeemMinPoints: number;
}

export function rewardsConfig(env: Env): RewardsConfig {
  return {
    referralBonusPoints: env.REWARDS_REFERRAL_BONUS_POINTS,
    pointsPerRupee: env.REWARDS_POINTS_PER_RUPEE,
    redeemMinPoints: env.REWARDS_REDEEM_MIN_POINTS,
  };
}
