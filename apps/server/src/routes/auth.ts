import {
  adminResetPasswordRequestSchema,
  adminResetPasswordResponseSchema,
  adminUsersQuerySchema,
  adminUsersResponseSchema,
  changePasswordRequestSchema,
  changePasswordResponseSchema,
  currentSessionResponseSchema,
  emailOtpSendRequestSchema,
  emailOtpVerifyRequestSchema,
  loginRequestSchema,
  loginResponseSchema,
  otpSendResponseSchema,
  otpVerifyResponseSchema,
  passwordResetRequestSchema,
  signupRequestSchema,
  signupResponseSchema,
  smsOtpSendRequestSchema,
  smsOtpVerifyRequestSchema,
  successResponseSchema,
  type OtpPurpose,
} from '@hasta/contracts/auth';
import { OTP_RESEND_COOLDOWN_MS } from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { directoryPage } from '../admin/user-directory';
import { codeMessage, noticeMessage } from '../auth/notices';
import {
  assertAttemptsLeft,
  clearFailures,
  consumeOtp,
  issueOtp,
  latestLivePurpose,
  recordFailure,
  takeSendAllowance,
} from '../auth/otp';
import { hashToken, newToken } from '../auth/secrets';
import {
  createSession,
  revokeSession,
  revokeUserSessions,
  toPublicUser,
  type UserRow,
} from '../auth/sessions';
import { channelOf, findUserByIdentifier, identifierOf } from '../auth/users';
import { isUniqueViolation } from '../db/errors';
import { AppError } from '../lib/app-error';
import { publicOrigin } from './support/public-origin';
import {
  decoyPasswordHash,
  generatePassword,
  hashPassword,
  isCommonPassword,
  verifyPassword,
} from '../lib/password';
import {
  authenticate,
  clearSessionCookie,
  requireAdmin,
  requireUser,
  setSessionCookie,
} from '../plugins/auth';

const VERIFICATION_COOKIE = 'hasta_verification';
const VERIFICATION_TTL_MS = 15 * 60_000;
const RATE_WINDOW_MS = 60_000;

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;
  const secret = app.env.COOKIE_SECRET;
  /** Per-address limits are the spec's; this per-client limit stops one client spraying many addresses. */
  const perClient = {
    rateLimit: {
      max: Math.max(1, Math.floor(app.env.RATE_LIMIT_PER_MINUTE / 15)),
      timeWindow: RATE_WINDOW_MS,
    },
  };

  async function signIn(request: FastifyRequest, reply: FastifyReply, user: UserRow) {
    // Rotate: whatever session this browser had ends, and a fresh one begins.
    const current = await authenticate(request);
    if (current) await revokeSession(db, current.sessionId);
    const { token } = await createSession(db, user.id);
    setSessionCookie(reply, token);
    return { token, user: toPublicUser(user) };
  }

  /** Sets a password (argon2id), ends every session of the user, and returns the updated row. */
  async function setPassword(
    userId: string,
    password: string,
    mustChange: boolean,
  ): Promise<UserRow | undefined> {
    const updated = await db
      .updateTable('users')
      .set({
        password_hash: await hashPassword(password),
        must_change_password: mustChange,
        updated_at: new Date(),
      })
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirst();
    if (updated) await revokeUserSessions(db, userId);
    return updated;
  }

  function assertPasswordAllowed(password: string): void {
    if (isCommonPassword(password)) throw AppError.of('BAD_REQUEST', 'commonPassword');
  }

  async function sendCode(request: FastifyRequest, identifier: string, requested: OtpPurpose | undefined) {
    const auth = await authenticate(request);
    const user = await findUserByIdentifier(db, identifier);
    const purpose: OtpPurpose = requested ?? (auth ? 'transfer' : user ? 'login' : 'registration');
    if (purpose === 'transfer') {
      if (!auth) throw AppError.of('UNAUTHORIZED', 'unauthorized');
      if (identifier !== auth.user.email && identifier !== auth.user.phone)
        throw AppError.of('FORBIDDEN', 'forbidden');
    }
    await takeSendAllowance(db, identifier, purpose);

    const needsAccount = purpose !== 'registration';
    if (needsAccount !== (user !== undefined)) {
      await app.messenger.send(
        noticeMessage({
          identifier,
          kind: user ? 'already-registered' : 'no-account',
          origin: publicOrigin(request),
        }),
      );
    } else {
      const withLink = purpose === 'registration' && channelOf(identifier) === 'email';
      const { code, linkToken } = await issueOtp(db, {
        secret,
        identifier,
        purpose,
        ...(purpose === 'transfer' && auth ? { sessionId: auth.sessionId } : {}),
        withLink,
      });
      const registrationLink = linkToken
        ? `${publicOrigin(request)}/register?${new URLSearchParams({ token: linkToken, email: identifier, type: 'registration' })}`
        : undefined;
      await app.messenger.send(codeMessage({ identifier, purpose, code, registrationLink }));
    }
    return {
      success: true as const,
      message: channelOf(identifier) === 'sms' ? messages.otpSentPhone : messages.otpSentEmail,
      resend_after_s: OTP_RESEND_COOLDOWN_MS / 1000,
    };
  }

  async function verifyCode(
    request: FastifyRequest,
    reply: FastifyReply,
    input: {
      identifier: string;
      otp?: string | undefined;
      token?: string | undefined;
      purpose?: OtpPurpose | undefined;
    },
  ) {
    const auth = await authenticate(request);
    const purpose: OtpPurpose =
      input.purpose ??
      (auth && (await latestLivePurpose(db, input.identifier, ['transfer']))
        ? 'transfer'
        : ((await latestLivePurpose(db, input.identifier, ['registration', 'login'])) ?? 'registration'));
    if (purpose === 'password_reset') throw AppError.of('BAD_REQUEST', 'invalidRequest');
    if (purpose === 'transfer' && !auth) throw AppError.of('UNAUTHORIZED', 'unauthorized');

    const ok = await consumeOtp(db, {
      secret,
      identifier: input.identifier,
      purpose,
      code: input.otp,
      token: input.token,
      sessionId: auth?.sessionId,
    });
    if (!ok) throw AppError.of('BAD_REQUEST', 'invalidVerificationCode');

    if (purpose === 'login') {
      const user = await findUserByIdentifier(db, input.identifier);
      if (!user) throw AppError.of('BAD_REQUEST', 'invalidVerificationCode');
      return { success: true as const, purpose, ...(await signIn(request, reply, user)) };
    }
    const verificationToken = newToken();
    await db
      .insertInto('verifications')
      .values({
        token_hash: hashToken(verificationToken),
        identifier: input.identifier,
        purpose,
        session_id: purpose === 'transfer' ? (auth?.sessionId ?? null) : null,
        expires_at: new Date(Date.now() + VERIFICATION_TTL_MS),
      })
      .execute();
    if (purpose === 'transfer') return { success: true as const, purpose };
    reply.setCookie(VERIFICATION_COOKIE, verificationToken, {
      httpOnly: true,
      sameSite: 'lax',
      secure: app.env.NODE_ENV === 'production',
      path: '/api/auth',
      maxAge: VERIFICATION_TTL_MS / 1000,
    });
    return { success: true as const, purpose, verification_token: verificationToken };
  }

  const otpTags = { tags: ['auth'] };

  app.post(
    '/email-otp/send',
    {
      config: perClient,
      schema: {
        ...otpTags,
        summary: 'Send a one-time code by email',
        body: emailOtpSendRequestSchema,
        response: { 200: otpSendResponseSchema },
      },
    },
    async (request) => sendCode(request, request.body.email, request.body.purpose),
  );
  app.post(
    '/send-sms-otp',
    {
      config: perClient,
      schema: {
        ...otpTags,
        summary: 'Send a one-time code by SMS',
        body: smsOtpSendRequestSchema,
        response: { 200: otpSendResponseSchema },
      },
    },
    async (request) => sendCode(request, request.body.phone, request.body.purpose),
  );
  app.post(
    '/email-otp/verify',
    {
      config: perClient,
      schema: {
        ...otpTags,
        summary: 'Verify an emailed code or registration link',
        body: emailOtpVerifyRequestSchema,
        response: { 200: otpVerifyResponseSchema },
      },
    },
    async (request, reply) => verifyCode(request, reply, { identifier: request.body.email, ...request.body }),
  );
  app.post(
    '/verify-sms-otp',
    {
      config: perClient,
      schema: {
        ...otpTags,
        summary: 'Verify an SMS code',
        body: smsOtpVerifyRequestSchema,
        response: { 200: otpVerifyResponseSchema },
      },
    },
    async (request, reply) => verifyCode(request, reply, { identifier: request.body.phone, ...request.body }),
  );

  app.post(
    '/auth/signup',
    {
      config: perClient,
      schema: {
        ...otpTags,
        summary: 'Create an account after verifying its email or phone',
        body: signupRequestSchema,
        response: { 200: signupResponseSchema },
      },
    },
    async (request, reply) => {
      const { username, password, email, phone } = request.body;
      const token = request.body.verification_token ?? request.cookies[VERIFICATION_COOKIE];
      if (!token) throw AppError.of('BAD_REQUEST', 'verificationRequired');
      assertPasswordAllowed(password);
      const passwordHash = await hashPassword(password);

      const user = await db.transaction().execute(async (trx) => {
        const verified = await trx
          .selectFrom('verifications')
          .select(['id', 'identifier'])
          .where('token_hash', '=', hashToken(token))
          .where('purpose', '=', 'registration')
          .where('expires_at', '>', new Date())
          .where(
            'identifier',
            'in',
            [email, phone].filter((value): value is string => value !== undefined),
          )
          .executeTakeFirst();
        if (!verified) throw AppError.of('BAD_REQUEST', 'verificationRequired');
        // Spent once (migration 015): a token spent before, or by a signup racing with this one (the insert
        // waits for it), has its spend row already, and the insert writes nothing.
        const spent = await trx
          .insertInto('verification_spends')
          .values({ verification_id: verified.id })
          .onConflict((conflict) => conflict.column('verification_id').doNothing())
          .returning('verification_id')
          .executeTakeFirst();
        if (!spent) throw AppError.of('BAD_REQUEST', 'verificationRequired');
        // Only the verified contact is kept: an unverified one could be someone else's.
        const isPhone = channelOf(verified.identifier) === 'sms';
        try {
          return await trx
            .insertInto('users')
            .values({
              username,
              email: isPhone ? null : verified.identifier,
              phone: isPhone ? verified.identifier : null,
              password_hash: passwordHash,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
        } catch (error) {
          if (isUniqueViolation(error)) throw AppError.of('CONFLICT', 'accountExists');
          throw error;
        }
      });
      reply.clearCookie(VERIFICATION_COOKIE, { path: '/api/auth' });
      return { ...(await signIn(request, reply, user)), message: messages.accountCreated };
    },
  );

  app.post(
    '/auth/login',
    {
      config: perClient,
      schema: {
        ...otpTags,
        summary: 'Log in with a one-time code or a password',
        body: loginRequestSchema,
        response: { 200: loginResponseSchema },
      },
    },
    async (request, reply) => {
      const identifier = identifierOf(request.body);
      if (request.body.otp !== undefined) {
        const ok = await consumeOtp(db, { secret, identifier, purpose: 'login', code: request.body.otp });
        const user = ok ? await findUserByIdentifier(db, identifier) : undefined;
        if (!user) throw AppError.of('BAD_REQUEST', 'invalidVerificationCode');
        return signIn(request, reply, user);
      }
      await assertAttemptsLeft(db, identifier);
      const user = await findUserByIdentifier(db, identifier);
      const storedHash = user?.password_hash ?? (await decoyPasswordHash());
      const ok =
        (await verifyPassword(storedHash, request.body.password ?? '')) && user?.password_hash != null;
      if (!ok || !user) {
        await recordFailure(db, identifier);
        throw new AppError('UNAUTHORIZED', messages.wrongCredentials);
      }
      await clearFailures(db, identifier);
      return signIn(request, reply, user);
    },
  );

  app.post(
    '/auth/password-reset',
    {
      config: perClient,
      schema: {
        ...otpTags,
        summary: 'Set a new password with a password-reset code',
        body: passwordResetRequestSchema,
        response: { 200: loginResponseSchema },
      },
    },
    async (request, reply) => {
      const identifier = identifierOf(request.body);
      assertPasswordAllowed(request.body.newPassword);
      const ok = await consumeOtp(db, {
        secret,
        identifier,
        purpose: 'password_reset',
        code: request.body.otp,
      });
      const user = ok ? await findUserByIdentifier(db, identifier) : undefined;
      if (!user) throw AppError.of('BAD_REQUEST', 'invalidVerificationCode');
      const updated = await setPassword(user.id, request.body.newPassword, false);
      return signIn(request, reply, updated!);
    },
  );

  app.get(
    '/auth/session',
    {
      schema: { ...otpTags, summary: 'The signed-in user', response: { 200: currentSessionResponseSchema } },
    },
    async (request) => ({
      user: toPublicUser((await requireUser(request, { allowPendingPasswordChange: true })).user),
    }),
  );

  app.post(
    '/auth/logout',
    { schema: { ...otpTags, summary: 'End this session', response: { 200: successResponseSchema } } },
    async (request, reply) => {
      const auth = await authenticate(request);
      if (auth) await revokeSession(db, auth.sessionId);
      clearSessionCookie(reply);
      return { success: true as const, message: messages.loggedOut };
    },
  );

  app.post(
    '/auth/change-password',
    {
      config: perClient,
      schema: {
        ...otpTags,
        summary: 'Change the signed-in user’s password',
        body: changePasswordRequestSchema,
        response: { 200: changePasswordResponseSchema },
      },
    },
    async (request, reply) => {
      const auth = await requireUser(request, { allowPendingPasswordChange: true });
      if (request.body.userId !== undefined && request.body.userId !== auth.user.id)
        throw AppError.of('FORBIDDEN', 'forbidden');
      const ok =
        auth.user.password_hash !== null &&
        (await verifyPassword(auth.user.password_hash, request.body.originalPassword));
      if (!ok) throw AppError.of('BAD_REQUEST', 'wrongOriginalPassword');
      assertPasswordAllowed(request.body.newPassword);
      const updated = (await setPassword(auth.user.id, request.body.newPassword, false))!;
      request.auth = undefined;
      return {
        success: true as const,
        message: messages.passwordChanged,
        ...(await signIn(request, reply, updated)),
      };
    },
  );

  app.post(
    '/auth/reset-password',
    {
      schema: {
        tags: ['admin'],
        summary: 'Admin: give a user a one-time temporary password',
        body: adminResetPasswordRequestSchema,
        response: { 200: adminResetPasswordResponseSchema },
      },
    },
    async (request) => {
      const admin = await requireAdmin(request);
      if (request.body.userId === admin.user.id) throw AppError.of('BAD_REQUEST', 'invalidRequest');
      const temporary = generatePassword();
      const updated = await setPassword(request.body.userId, temporary, true);
      if (!updated) throw AppError.of('NOT_FOUND', 'userNotFound');
      return {
        success: true as const,
        message: `Password reset. Temporary password: ${temporary} (shown once; the user must choose a new password at next login).`,
        temporary_password: temporary,
      };
    },
  );

  app.get(
    '/auth/users',
    {
      schema: {
        tags: ['admin'],
        summary: 'Admin: the users, admins excluded, searched and paged',
        description:
          'Newest first. `q` (case-insensitive): 1-2 characters match the start of the name or email; 3 or more ' +
          'match anywhere in the name, email or phone. Pages of `limit` users (default 25, at most 500); pass ' +
          '`next_cursor` as `cursor` for the next page. `total` counts matches up to 10,000 (`total_exact` is ' +
          'false beyond). `ids` (comma-separated, at most 100) narrows the list to those users.',
        querystring: adminUsersQuerySchema,
        response: { 200: adminUsersResponseSchema },
      },
    },
    async (request) => {
      await requireAdmin(request);
      return directoryPage(db, request.query);
    },
  );
};
