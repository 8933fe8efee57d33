import type { SmsPolicy } from './auth/sms-budget';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AnchorWorker } from './anchor/anchor-worker';
import { createAnchorWorker } from './anchor/anchoring';
import { PalmConsentRepository } from './consent/palm-consent-repository';
import type { Database } from './db/database';
import { DisputeRepository } from './disputes/dispute-repository';
import { ledgerLimits, rewardsConfig, type Env } from './env';
import { TransferBatcher } from './ledger/batcher';
import { fastifyTrustProxy } from './lib/trust-proxy';
import { Ledger } from './ledger/ledger';
import { RewardsBook } from './rewards/rewards-book';
import { PendingExpiry } from './ledger/pending-expiry';
import { sendMoneySteps, type SendMoneyBatcher } from './wallet/send-money';
import { loadPalmKeys } from './palm/palm-keys';
import { palmPaymentExpiry } from './palm/palm-payment-confirmation';
import type { NoticeDeps } from './notices/notify-owner';
import { PalmPaymentNoticeRepository } from './palm/palm-payment-notice-repository';
import { resendUnsentPaymentNotices } from './palm/palm-payment-notice';
import { PalmPaymentRepository } from './palm/palm-payment-repository';
import { PalmService } from './palm/palm-service';
import { ChangeFeed } from './replicas/change-feed';
import { ChangePruner } from './replicas/change-pruner';
import { Leadership, type LeaderWork } from './replicas/leadership';
import { ReplayGuard } from './palm/replay-guard';
import {
  loadLogKeys,
  MAX_ENTRIES_PER_ROUND,
  PGLITE_ENTRIES_PER_ROUND,
  TransparencyLog,
} from './tlog/transparency-log';
import type { MerchantDeps } from './merchant/merchant-deps';
import { registerPayoutExpiry } from './merchant/payouts';
import type { Messenger } from './messaging/messenger';
import { registerAuth } from './plugins/auth';
import { registerErrorHandling } from './plugins/error-handler';
import { registerOpenApi } from './plugins/openapi';
import { registerPalmRateLimits } from './plugins/palm-rate-limit';
import { registerSecurity } from './plugins/security';
import { registerWebApp } from './plugins/web-app';
import { authRoutes } from './routes/auth';
import { passkeyRoutes } from './routes/passkeys';
import { sessionRoutes } from './routes/sessions';
import { devOutboxRoutes } from './routes/dev-outbox';
import { disputeRoutes } from './routes/disputes';
import { healthRoutes } from './routes/health';
import { kioskRoutes } from './routes/kiosks';
import { logRoutes } from './routes/log';
import { adminMerchantRoutes } from './routes/admin-merchants';
import { merchantStoreRoutes } from './routes/merchant-store';
import { publicFormRoutes } from './routes/public-forms';
import { qrRoutes } from './routes/qr';
import { rewardsRoutes } from './routes/rewards';
import { deviceRoutes } from './routes/devices';
import { palmRoutes } from './routes/palm';
import { palmEnrolmentRoutes } from './routes/palm-enrolment';
import { siteMapRoutes } from './routes/site-map';
import { walletRoutes } from './routes/wallet';

declare module 'fastify' {
  interface FastifyInstance {
    env: Env;
    database: Database;
    messenger: Messenger;
    /** The one ledger of this process (it caches account ids) and its group-commit path for transfers. */
    ledger: Ledger;
    transferBatcher: SendMoneyBatcher;
    /** Voids pending transfers past their timeout; kinds register what else changes with them. */
    pendingExpiry: PendingExpiry;
    /** The verifiable log of payments and consent (decision 009). */
    transparencyLog: TransparencyLog;
    /** Anchors the log's checkpoints on an EVM chain and monitors them (decision 015); null for ANCHOR=none. */
    anchorWorker: AnchorWorker | null;
    /** The palm engine and its in-memory gallery (decision 014). */
    palm: PalmService;
    /** Palm payment records: unrecognised scans, codes of payments waiting for their payer. */
    palmPayments: PalmPaymentRepository;
    /** A person's palm data and consent, as the Consent tab and registration read them. */
    palmConsents: PalmConsentRepository;
    /** The payer's notices of palm payments and their "Not me?" tokens. */
    palmNotices: PalmPaymentNoticeRepository;
    /** How a person's own notices are sent (notifyOwner's dependencies). */
    ownerNotices: NoticeDeps;
    /** The palm replay guard: each person's recent scans, a copy of one pays nothing (decision 025). */
    palmReplays: ReplayGuard;
    /**
     * Several server processes on one PostgreSQL (issue 25): the change feed keeping this process's gallery
     * and session cache current, and the election of the one that runs the work that must run once. Null on
     * PGlite (one process: that work runs here).
     */
    replicas: Replicas | null;
    /** The rewards programme's writes inside payments, reversals and enrolments (issue 24). */
    rewards: RewardsBook;
  }
}

export interface Replicas {
  feed: ChangeFeed;
  leadership: Leadership;
}

export interface AppDependencies {
  env: Env;
  database: Database;
  messenger: Messenger;
  /** pino options or a ready logger; defaults to pino at env.LOG_LEVEL. */
  logger?: FastifyServerOptions['logger'];
  loggerInstance?: FastifyServerOptions['loggerInstance'];
  /** The time as the sign-in and code limits read it (their delays); tests pass a clock they move. */
  clock?: () => Date;
}

const BODY_LIMIT_BYTES = 64 * 1024;
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Builds the server in fastify/demo's order: external plugins (security, cookies, rate limit), then the app's
 * own (database, messenger), then the routes, then the web app and its SPA fallback.
 */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { env } = deps;
  const app = Fastify({
    ...(deps.loggerInstance
      ? { loggerInstance: deps.loggerInstance }
      : {
          logger: deps.logger ?? {
            level: env.LOG_LEVEL,
            redact: [
              'req.headers.authorization',
              'req.headers.cookie',
              'req.headers["x-hasta-device"]',
              'res.headers["set-cookie"]',
            ],
          },
        }),
    bodyLimit: BODY_LIMIT_BYTES,
    requestTimeout: REQUEST_TIMEOUT_MS,
    trustProxy: fastifyTrustProxy(env.TRUST_PROXY),
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('env', env);
  app.decorate('database', deps.database);
  app.decorate('messenger', deps.messenger);
  const limits = ledgerLimits(env);
  const ledger = new Ledger(deps.database.db, limits);
  app.decorate('ledger', ledger);
  app.decorate(
    'transferBatcher',
    new TransferBatcher(deps.database.db, {
      maxInFlight: deps.database.kind === 'postgres' ? 4 : 1,
      limits,
      steps: sendMoneySteps,
      now: ledger.now,
    }),
  );
  const pendingExpiry = new PendingExpiry(ledger, (err, pendingId) =>
    app.log.error({ err, pendingId }, 'voiding a pending transfer past its timeout failed'),
  );
  app.decorate('pendingExpiry', pendingExpiry);
  app.addHook('onClose', () => pendingExpiry.stop());

  const transparencyLog = new TransparencyLog(deps.database.db, await loadLogKeys(deps.database.db, env), {
    anchoring: env.ANCHOR,
    entriesPerRound: deps.database.kind === 'pglite' ? PGLITE_ENTRIES_PER_ROUND : MAX_ENTRIES_PER_ROUND,
  });
  await transparencyLog.init();
  app.decorate('transparencyLog', transparencyLog);
  if (env.LOG_SEQUENCE_INTERVAL_MS > 0) transparencyLog.start(env.LOG_SEQUENCE_INTERVAL_MS);
  app.addHook('onClose', () => transparencyLog.stop());
  const anchorWorker = await createAnchorWorker({
    env,
    db: deps.database.db,
    origin: transparencyLog.keys.origin,
    logger: app.log,
  });
  app.decorate('anchorWorker', anchorWorker);
  app.addHook('onClose', async () => anchorWorker?.stop());
  const pruner = new ChangePruner(deps.database.db, (err) =>
    app.log.warn({ err }, 'pruning the replicas’ change feed failed'),
  );
  app.addHook('onClose', () => pruner.stop());
  // The work that must run once, on one process: the ledger's expiry rounds, the anchor worker and its
  // monitor, the change feed's pruning. (The log's sequencer runs in every process: its rounds take an
  // advisory lock in their transaction, so rounds of two processes append one after the other.)
  const leaderWork: LeaderWork = {
    lead: () => {
      if (env.LEDGER_EXPIRY_INTERVAL_MS > 0) pendingExpiry.start(env.LEDGER_EXPIRY_INTERVAL_MS);
      if (anchorWorker && env.ANCHOR_CHECK_INTERVAL_MS > 0) anchorWorker.start(env.ANCHOR_CHECK_INTERVAL_MS);
      pruner.start();
    },
    follow: async () => {
      await Promise.all([pendingExpiry.stop(), anchorWorker?.stop(), pruner.stop()]);
    },
  };
  const openDedicated = deps.database.kind === 'postgres' ? deps.database.openDedicated : undefined;
  const onReplicaError = (err: unknown, what: string) => app.log.warn({ err }, `replicas: ${what}`);
  // The feed's first position is taken before the gallery is read, so what commits meanwhile is read again.
  const feed = openDedicated
    ? new ChangeFeed(
        deps.database.db,
        openDedicated,
        {
          palms: (userIds) => app.palm.refreshUsers(userIds),
          sessions: () => app.sessionCache.clear(),
          everything: async () => {
            app.sessionCache.clear();
            await app.palm.reload();
          },
        },
        { onError: onReplicaError },
      )
    : undefined;
  await feed?.init();

  const palmKeys = await loadPalmKeys(deps.database.db, env);
  const palm = new PalmService(deps.database.db, palmKeys, {
    demoMode: env.PALM_DEMO_MODE ?? env.NODE_ENV !== 'production',
    maxPaymentPaise: BigInt(env.PALM_MAX_PAYMENT_PAISE),
  });
  await palm.init();
  app.decorate('palm', palm);
  app.decorate('palmPayments', new PalmPaymentRepository(deps.database.db));
  app.decorate('palmConsents', new PalmConsentRepository(deps.database.db));
  const palmNotices = new PalmPaymentNoticeRepository(deps.database.db);
  app.decorate('palmNotices', palmNotices);
  const ownerNotices: NoticeDeps = { db: deps.database.db, messenger: deps.messenger };
  app.decorate('ownerNotices', ownerNotices);
  app.decorate('palmReplays', new ReplayGuard(deps.database.db, palmKeys));
  app.decorate('rewards', new RewardsBook(ledger, rewardsConfig(env)));
  app.addHook('onClose', () => palm.close());

  registerErrorHandling(app);
  await registerSecurity(app, env, deps.database.db);
  registerPalmRateLimits(app, env);
  registerAuth(app, deps.clock ? { now: deps.clock } : {});
  await registerOpenApi(app);

  if (feed && openDedicated) {
    const leadership = new Leadership(openDedicated, leaderWork, {
      onError: onReplicaError,
      onChange: (leading) => app.log.info({ leading }, leading ? 'replicas: leading' : 'replicas: following'),
    });
    app.decorate('replicas', { feed, leadership });
    // The work stops (as the hooks above stop it too) and the lock is freed for another process.
    app.addHook('onClose', async () => {
      await leadership.stop();
      await feed.stop();
    });
    await feed.start();
    await leadership.start();
  } else {
    app.decorate('replicas', null);
    await leaderWork.lead();
  }

  const db = deps.database.db;
  const sms: SmsPolicy = {
    allowedPrefixes: env.SMS_ALLOWED_PREFIXES,
    perClientPerHour: env.SMS_BUDGET_PER_CLIENT_PER_HOUR,
    globalPerHour: env.SMS_BUDGET_GLOBAL_PER_HOUR,
  };
  await app.register(healthRoutes, { prefix: '/api', deps: { database: deps.database } });
  await app.register(kioskRoutes, { prefix: '/api', deps: { db } });
  await app.register(authRoutes, {
    prefix: '/api',
    deps: {
      db,
      secret: env.COOKIE_SECRET,
      messenger: deps.messenger,
      now: deps.clock ?? (() => new Date()),
      sms,
      onNoticeFailed: (err) => app.log.warn({ err }, 'failed sign-in notice not sent'),
    },
  });
  await app.register(sessionRoutes, { prefix: '/api', deps: { db, now: app.sessionClock } });
  await app.register(passkeyRoutes, {
    prefix: '/api',
    deps: {
      db,
      now: app.sessionClock,
      config: {
        rpId: env.WEBAUTHN_RP_ID,
        rpName: env.WEBAUTHN_RP_NAME,
        origins: env.WEBAUTHN_ORIGINS,
        secondFactor: env.PASSKEY_SECOND_FACTOR,
      },
    },
  });
  await app.register(walletRoutes, { prefix: '/api', deps: { db, ledger } });
  await app.register(logRoutes, { prefix: '/api', deps: { db, log: transparencyLog } });
  await app.register(publicFormRoutes, { prefix: '/api', deps: { db } });
  const merchant: MerchantDeps = {
    db: deps.database.db,
    ledger,
    messenger: deps.messenger,
    pendingExpiry,
    secret: env.COOKIE_SECRET,
    sms,
    ...(deps.clock ? { now: deps.clock } : {}),
    onNoticeFailed: (err) => app.log.warn({ err }, 'payout notice not sent'),
  };
  // What else changes when the ledger's expiry round voids a pending transfer of each kind.
  registerPayoutExpiry(merchant);
  pendingExpiry.on('payment', palmPaymentExpiry(app.palmPayments));
  // Palm payment notices whose send failed are sent again by the same round.
  pendingExpiry.eachRound(async (now) => {
    await resendUnsentPaymentNotices({ notices: palmNotices, notify: ownerNotices }, now, (err, transferId) =>
      app.log.error({ err, transferId }, 'palm payment notice not sent again'),
    );
  });
  await app.register(adminMerchantRoutes, { prefix: '/api', deps: merchant });
  await app.register(merchantStoreRoutes, { prefix: '/api', deps: merchant });
  await app.register(qrRoutes, { prefix: '/api', deps: { db } });
  await app.register(rewardsRoutes, { prefix: '/api', deps: { db, ledger, rewards: app.rewards } });
  await app.register(palmRoutes, { deps: { db } });
  await app.register(palmEnrolmentRoutes, { deps: { db } });
  await app.register(deviceRoutes, { deps: { db } });
  await app.register(disputeRoutes, {
    prefix: '/api',
    deps: {
      db,
      ledger,
      pendingExpiry,
      payments: app.palmPayments,
      notices: palmNotices,
      disputes: new DisputeRepository(db),
      notify: ownerNotices,
    },
  });
  await app.register(siteMapRoutes);
  if (env.NODE_ENV !== 'production') await app.register(devOutboxRoutes, { deps: { db } });

  await registerWebApp(app, env);
  return app;
}
