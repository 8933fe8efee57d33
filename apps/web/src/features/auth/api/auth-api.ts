import {
  loginResponseSchema,
  otpSendResponseSchema,
  otpVerifyResponseSchema,
  signupResponseSchema,
  sessionAnswerSchema,
} from '@hasta/contracts/auth';
import type { OtpPurpose } from '@hasta/contracts/auth';
import type { z } from 'zod';

import { apiRequest } from '../../../lib/api-client';
import {
  canAttemptOtp,
  canSendOtp,
  clearOtpAttempts,
  isRejectedCode,
  otpAttemptThrottledError,
  otpSendThrottledError,
  recordFailedOtpAttempt,
  recordOtpSend,
} from '../../../lib/otp-throttle';
import type { Contact } from '../utils/contact';

export type OtpSendAnswer = z.infer<typeof otpSendResponseSchema>;
export type OtpVerifyAnswer = z.infer<typeof otpVerifyResponseSchema>;
export type SessionAnswer = z.infer<typeof sessionAnswerSchema>;
export type SignupAnswer = z.infer<typeof signupResponseSchema>;

/** `{ email }` or `{ phone }`, as every auth endpoint takes it. */
export function contactBody(contact: Contact): { email: string } | { phone: string } {
  return contact.channel === 'email' ? { email: contact.value } : { phone: contact.value };
}

/** Sends a one-time code by email or SMS (spec §7), within the client-side send limit (spec §5.12). */
export async function sendOtp(contact: Contact, purpose: OtpPurpose): Promise<OtpSendAnswer> {
  if (!canSendOtp(contact.value)) throw otpSendThrottledError();
  const path = contact.channel === 'email' ? '/api/email-otp/send' : '/api/send-sms-otp';
  const answer = await apiRequest(path, {
    method: 'POST',
    body: { ...contactBody(contact), purpose },
    schema: otpSendResponseSchema,
  });
  recordOtpSend(contact.value);
  return answer;
}

/**
 * Runs a call that checks a typed code, within the client-side limit on failed attempts (spec §5.12): a
 * refused code counts, a success clears the count.
 */
export async function withCodeAttempt<T>(contact: Contact, check: () => Promise<T>): Promise<T> {
  if (!canAttemptOtp(contact.value)) throw otpAttemptThrottledError();
  try {
    const result = await check();
    clearOtpAttempts(contact.value);
    return result;
  } catch (error) {
    if (isRejectedCode(error)) recordFailedOtpAttempt(contact.value);
    throw error;
  }
}

/** Verifies a registration code, or the token of a registration email link. */
export function verifyRegistration(
  contact: Contact,
  secret: { otp: string } | { token: string },
): Promise<OtpVerifyAnswer> {
  const path = contact.channel === 'email' ? '/api/email-otp/verify' : '/api/verify-sms-otp';
  const call = () =>
    apiRequest(path, {
      method: 'POST',
      body: { ...contactBody(contact), ...secret, purpose: 'registration' },
      schema: otpVerifyResponseSchema,
    });
  return 'otp' in secret ? withCodeAttempt(contact, call) : call();
}

export function loginWithOtp(contact: Contact, otp: string): Promise<SessionAnswer> {
  return withCodeAttempt(contact, () =>
    apiRequest('/api/auth/login', {
      method: 'POST',
      body: { ...contactBody(contact), otp },
      schema: loginResponseSchema,
    }),
  );
}

export function loginWithPassword(contact: Contact, password: string): Promise<SessionAnswer> {
  return apiRequest('/api/auth/login', {
    method: 'POST',
    body: { ...contactBody(contact), password },
    schema: loginResponseSchema,
  });
}

export function resetForgottenPassword(
  contact: Contact,
  otp: string,
  newPassword: string,
): Promise<SessionAnswer> {
  return withCodeAttempt(contact, () =>
    apiRequest('/api/auth/password-reset', {
      method: 'POST',
      body: { ...contactBody(contact), otp, newPassword },
      schema: sessionAnswerSchema,
    }),
  );
}

export function signup(input: {
  username: string;
  password: string;
  contact: Contact;
  verificationToken: string | null;
}): Promise<SignupAnswer> {
  return apiRequest('/api/auth/signup', {
    method: 'POST',
    body: {
      username: input.username.trim(),
      password: input.password,
      ...contactBody(input.contact),
      ...(input.verificationToken === null ? {} : { verification_token: input.verificationToken }),
    },
    schema: signupResponseSchema,
  });
}
