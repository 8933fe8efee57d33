import { messages } from '@hasta/contracts/messages';
import {
  passkeyAuthenticationOptionsRequestSchema,
  passkeyAuthenticationOptionsResponseSchema,
  passkeyAuthenticationVerifyRequestSchema,
  passkeyAuthenticationVerifyResponseSchema,
  passkeyListResponseSchema,
  passkeyParamsSchema,
  passkeyRegistrationOptionsResponseSchema,
  passkeyRegistrationVerifyRequestSchema,
  passkeyRegistrationVerifyResponseSchema,
  passkeyRemoveResponseSchema,
  recoveryCodeRequestSchema,
  recoveryCodeResponseSchema,
} from '@hasta/contracts/passkeys';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthContext } from '../auth/sessions';
import { finishPasskeyAuthentication, startPasskeyAuthentication } from '../passkeys/authenticate-passkey';
import { listPasskeys, removePasskey } from '../passkeys/manage-passkeys';
import type { PasskeyDeps } from '../passkeys/passkey-config';
import {
  finishPasskeyRegistration,
  startPasskeyRegistration,
  type PasskeyCaller,
} from '../passkeys/register-passkey';
import { useRecoveryCode } from '../passkeys/use-recovery-code';
import { forgetCachedSessions, requireUser } from '../plugins/auth';
import { clientKey } from './support/client-key';

/**
 * Passkeys (issue 23): the ceremonies (options, then the browser's answer checked against the session's
 * single-use challenge), the recovery code in place of a passkey at sign-in, and the owner's list in Settings.
 * These are the only routes a session that passed only its password or code may call (with the session
 * answer and sign-out).
 */
export const passkeyRoutes: FastifyPluginAsyncZod<{ deps: PasskeyDeps }> = async (app, { deps }) => {
  const tags = ['auth'];
  const attemptDeps = {
    db: deps.db,
    messenger: app.messenger,
    now: deps.now,
    config: deps.config,
    onNoticeFailed: (err: unknown) => app.log.warn({ err }, 'failed recovery code notice not sent'),
  };

  const callerOf = (auth: AuthContext): PasskeyCaller => ({
    sessionId: auth.sessionId,
    user: auth.user,
    secondFactorAt: auth.secondFactorAt,
    passkeyVerifiedAt: auth.passkeyVerifiedAt,
  });
  /** Any session, a pending one included (the passkey steps are what finishes it). */
  const anySession = async (request: FastifyRequest) =>
    callerOf(
      await requireUser(request, { allowPendingPasswordChange: true, allowPendingSecondFactor: true }),
    );

  app.get(
    '/passkeys',
    {
      schema: {
        tags,
        summary: 'Your passkeys, and the passkey step this session still needs (if any)',
        response: { 200: passkeyListResponseSchema },
      },
    },
    async (request) => {
      const { passkeys, secondFactor } = await listPasskeys(deps, await anySession(request));
      return { passkeys, second_factor: secondFactor };
    },
  );

  app.post(
    '/passkeys/registration/options',
    {
      schema: {
        tags,
        summary:
          'Start adding a passkey: at an admin’s or store owner’s first sign-in, or with a live passkey_manage step-up',
        response: { 200: passkeyRegistrationOptionsResponseSchema },
      },
    },
    async (request) => startPasskeyRegistration(deps, await anySession(request)),
  );

  app.post(
    '/passkeys/registration/verify',
    {
      schema: {
        tags,
        summary:
          'Finish adding a passkey (the first one of an admin or store owner answers recovery codes, once)',
        body: passkeyRegistrationVerifyRequestSchema,
        response: { 200: passkeyRegistrationVerifyResponseSchema },
      },
    },
    async (request) => {
      const { passkey, recoveryCodes } = await finishPasskeyRegistration(deps, await anySession(request), {
        response: request.body.response as unknown as RegistrationResponseJSON,
        name: request.body.name,
      });
      forgetCachedSessions(request);
      return {
        success: true as const,
        message: messages.passkeyRegistered,
        passkey,
        ...(recoveryCodes ? { recovery_codes: recoveryCodes } : {}),
      };
    },
  );

  app.post(
    '/passkeys/authentication/options',
    {
      schema: {
        tags,
        summary:
          'Start a passkey check for one purpose: finish a sign-in, re-confirm before moving money, approve one transfer (its amount and receiver), or a step-up',
        body: passkeyAuthenticationOptionsRequestSchema,
        response: { 200: passkeyAuthenticationOptionsResponseSchema },
      },
    },
    async (request) =>
      startPasskeyAuthentication(deps, await anySession(request), {
        purpose: request.body.purpose,
        transfer:
          request.body.amount === undefined
            ? undefined
            : {
                amount: request.body.amount,
                receiverEmail: request.body.receiverEmail,
                receiverPhone: request.body.receiverPhone,
              },
      }),
  );

  app.post(
    '/passkeys/authentication/verify',
    {
      schema: {
        tags,
        summary: 'Finish a passkey check: it does what its options were asked for, once',
        body: passkeyAuthenticationVerifyRequestSchema,
        response: { 200: passkeyAuthenticationVerifyResponseSchema },
      },
    },
    async (request) => {
      const { purpose, validUntil } = await finishPasskeyAuthentication(deps, await anySession(request), {
        response: request.body.response as unknown as AuthenticationResponseJSON,
      });
      forgetCachedSessions(request);
      return {
        success: true as const,
        purpose,
        ...(validUntil ? { valid_until: validUntil.toISOString() } : {}),
      };
    },
  );

  app.post(
    '/passkeys/recovery',
    {
      config: { rateLimit: { max: 10, timeWindow: 60_000 } },
      schema: {
        tags,
        summary: 'Finish a sign-in with a recovery code in place of the passkey (each code works once)',
        body: recoveryCodeRequestSchema,
        response: { 200: recoveryCodeResponseSchema },
      },
    },
    async (request) => {
      const { remaining } = await useRecoveryCode(attemptDeps, await anySession(request), {
        code: request.body.code,
        client: clientKey(request),
      });
      forgetCachedSessions(request);
      return { success: true as const, message: messages.secondFactorPassed, remaining };
    },
  );

  app.delete(
    '/passkeys/:id',
    {
      schema: {
        tags,
        summary: 'Remove one of your passkeys (needs a passkey_manage step-up; admins and stores keep one)',
        params: passkeyParamsSchema,
        response: { 200: passkeyRemoveResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      await removePasskey(deps, callerOf(auth), { id: request.params.id });
      return { success: true as const, message: messages.passkeyRemoved };
    },
  );
};
