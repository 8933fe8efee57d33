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
import { messages } from '@hasta/contracts/messages';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { directoryPage } from '../admin/user-directory';
import { resetPasswordForUser } from '../auth/admin-reset-password';
import type { AuthDeps, Caller } from '../auth/auth-deps';
import { changePassword } from '../auth/change-password';
import { resetForgottenPassword } from '../auth/password-reset';
import { sendCode } from '../auth/send-code';
import { toPublicUser } from '../auth/sessions';
import { signOut } from '../auth/sign-out';
import { signUp } from '../auth/sign-up';
import type { SignedIn } from '../auth/start-session';
import { identifierOf } from '../auth/users';
import { secondFactorStep } from '../passkeys/second-factor';
import { VERIFICATION_TTL_MS, verifyCode } from '../auth/verify-code';
import { signInOnDevice } from '../devices/kiosk-sign-in';
import { clientKey } from './support/client-key';
import { publicOrigin } from './support/public-origin';
import { deviceToken } from './support/signed-scan';
import {
  authenticate,
  clearSessionCookie,
  forgetCachedSessions,
  requireAdmin,
  requireUser,
  setSessionCookie,
} from '../plugins/auth';

const VERIFICATION_COOKIE = 'hasta_verification';
const VERIFICATION_COOKIE_PATH = '/api/auth';
const RATE_WINDOW_MS = 60_000;

/** Accounts and sessions (spec §7): routes parse and authorise, the use cases in auth/ do the work. */
export const authRoutes: FastifyPluginAsyncZod<{ deps: AuthDeps }> = async (app, { deps }) => {
  /** Per-address limits are the spec's; this per-client limit stops one client spraying many addresses. */
  const perClient = {
    rateLimit: {
      max: Math.max(1, Math.floor(app.env.RATE_LIMIT_PER_MINUTE / 15)),
      timeWindow: RATE_WINDOW_MS,
    },
  };

  /** The session the request came with, if any, as the use cases take it. */
  async function callerOf(request: FastifyRequest): Promise<Caller | undefined> {
    const auth = await authenticate(request);
    return auth && { sessionId: auth.sessionId, user: auth.user };
  }

  const secondFactorConfig = { db: deps.db, config: { secondFactor: app.env.PASSKEY_SECOND_FACTOR } };

  /**
   * A new session goes to the browser as its cookie, and to devices in the answer, with the passkey step
   * that finishes it when its user is an admin or a store owner (issue 23).
   */
  async function signedIn(reply: FastifyReply, session: SignedIn) {
    setSessionCookie(reply, session.token);
    const secondFactor = await secondFactorStep(secondFactorConfig, {
      user: { id: session.user.id, role: session.user.role },
      secondFactorAt: session.secondFactorAt ?? null,
      passkeyVerifiedAt: null,
    });
    return { token: session.token, user: session.user, second_factor: secondFactor };
  }

  const otpTags = { tags: ['auth'] };

  /**
   * Checks a code and shapes the answer: a login code sets the session cookie; a registration code sets the
   * verification cookie that signup reads (callers without cookies use the token in the answer).
   */
  async function verifyAndAnswer(
    request: FastifyRequest,
    reply: FastifyReply,
    input: {
      identifier: string;
      otp?: string | undefined;
      token?: string | undefined;
      purpose?: OtpPurpose | undefined;
    },
  ) {
    const result = await verifyCode(deps, {
      identifier: input.identifier,
      otp: input.otp,
      token: input.token,
      requested: input.purpose,
      caller: await callerOf(request),
      client: clientKey(request),
    });
    if (result.purpose === 'login')
      return { success: true as const, purpose: result.purpose, ...(await signedIn(reply, result)) };
    if (result.purpose === 'transfer') return { success: true as const, purpose: result.purpose };
    reply.setCookie(VERIFICATION_COOKIE, result.verificationToken, {
      httpOnly: true,
      sameSite: 'lax',
      secure: app.env.NODE_ENV === 'production',
      path: VERIFICATION_COOKIE_PATH,
      maxAge: VERIFICATION_TTL_MS / 1000,
    });
    return { success: true as const, purpose: result.purpose, verification_token: result.verificationToken };
  }

  /** The transfer a code request names (issue 23), if it names one. */
  const transferOf = (body: {
    amount?: number | undefined;
    receiverEmail?: string | undefined;
    receiverPhone?: string | undefined;
  }) =>
    body.amount === undefined
      ? undefined
      : { amount: body.amount, receiverEmail: body.receiverEmail, receiverPhone: body.receiverPhone };

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
    async (request) =>
      sendCode(deps, {
        identifier: request.body.email,
        requested: request.body.purpose,
        caller: await callerOf(request),
        origin: publicOrigin(request),
        client: clientKey(request),
        transfer: transferOf(request.body),
      }),
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
    async (request) =>
      sendCode(deps, {
        identifier: request.body.phone,
        requested: request.body.purpose,
        caller: await callerOf(request),
        origin: publicOrigin(request),
        client: clientKey(request),
        transfer: transferOf(request.body),
      }),
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
    async (request, reply) =>
      verifyAndAnswer(request, reply, { identifier: request.body.email, ...request.body }),
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
    async (request, reply) =>
      verifyAndAnswer(request, reply, { identifier: request.body.phone, ...request.body }),
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
      const session = await signUp(deps, {
        username: request.body.username,
        password: request.body.password,
        email: request.body.email,
        phone: request.body.phone,
        verificationToken: request.body.verification_token ?? request.cookies[VERIFICATION_COOKIE],
        currentSessionId: (await authenticate(request))?.sessionId,
      });
      reply.clearCookie(VERIFICATION_COOKIE, { path: VERIFICATION_COOKIE_PATH });
      return { ...(await signedIn(reply, session)), message: messages.accountCreated };
    },
  );

  app.post(
    '/auth/login',
    {
      config: perClient,
      schema: {
        ...otpTags,
        summary:
          'Log in with a one-time code or a password (a code on a paired kiosk also counts as its palm_enrol step-up)',
        body: loginRequestSchema,
        response: { 200: loginResponseSchema },
      },
    },
    async (request, reply) => {
      const session = await signInOnDevice(deps, {
        identifier: identifierOf(request.body),
        otp: request.body.otp,
        password: request.body.password,
        currentSessionId: (await authenticate(request))?.sessionId,
        client: clientKey(request),
        deviceToken: deviceToken(request),
      });
      return signedIn(reply, session);
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
      const session = await resetForgottenPassword(deps, {
        identifier: identifierOf(request.body),
        otp: request.body.otp,
        newPassword: request.body.newPassword,
        currentSessionId: (await authenticate(request))?.sessionId,
        client: clientKey(request),
      });
      return signedIn(reply, session);
    },
  );

  app.get(
    '/auth/session',
    {
      schema: { ...otpTags, summary: 'The signed-in user', response: { 200: currentSessionResponseSchema } },
    },
    async (request) => {
      const auth = await requireUser(request, {
        allowPendingPasswordChange: true,
        allowPendingSecondFactor: true,
      });
      return {
        user: toPublicUser(auth.user),
        second_factor: await secondFactorStep(secondFactorConfig, auth),
      };
    },
  );

  app.post(
    '/auth/logout',
    { schema: { ...otpTags, summary: 'End this session', response: { 200: successResponseSchema } } },
    async (request, reply) => {
      await signOut(deps, (await authenticate(request))?.sessionId);
      forgetCachedSessions(request);
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
      const session = await changePassword(deps, {
        user: auth.user,
        userId: request.body.userId,
        originalPassword: request.body.originalPassword,
        newPassword: request.body.newPassword,
        carried: { secondFactorAt: auth.secondFactorAt, passkeyVerifiedAt: auth.passkeyVerifiedAt },
      });
      // Every session of the user ended with the change, this request's included.
      request.auth = undefined;
      return {
        success: true as const,
        message: messages.passwordChanged,
        ...(await signedIn(reply, session)),
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
      const { temporaryPassword } = await resetPasswordForUser(deps, {
        adminId: admin.user.id,
        userId: request.body.userId,
      });
      return {
        success: true as const,
        message: `Password reset. Temporary password: ${temporaryPassword} (shown once; the user must choose a new password at next login).`,
        temporary_password: temporaryPassword,
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
      return directoryPage(deps.db, request.query);
    },
  );
};
