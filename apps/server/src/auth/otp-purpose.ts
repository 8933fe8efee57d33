import type { OtpPurpose } from '../db/schema';

/**
 * What a code request or check is for when its client did not say. The API's `purpose` is optional because
 * the spec's clients do not send it; this is the one place that decides it for them, so every other step
 * (the send allowance, issuing, the message, consuming) is told the purpose explicitly.
 *
 * - Sending: a signed-in caller wants a transfer code; otherwise an address with an account wants a login code,
 *   and one without an account a registration code.
 * - Checking: a signed-in caller with a live transfer code is confirming a transfer; otherwise the newest live
 *   registration or login code of the address decides, and registration when there is none (the check then
 *   fails as any wrong code does).
 */
export async function otpPurposeOf(
  requested: OtpPurpose | undefined,
  context:
    | { step: 'send'; signedIn: boolean; hasAccount: boolean }
    | {
        step: 'verify';
        signedIn: boolean;
        /** The purpose of the address's newest live code among `purposes`, if any. */
        newestLivePurpose: (purposes: OtpPurpose[]) => Promise<OtpPurpose | undefined>;
      },
): Promise<OtpPurpose> {
  if (requested !== undefined) return requested;
  if (context.step === 'send') {
    if (context.signedIn) return 'transfer';
    return context.hasAccount ? 'login' : 'registration';
  }
  if (context.signedIn && (await context.newestLivePurpose(['transfer'])) !== undefined) return 'transfer';
  return (await context.newestLivePurpose(['registration', 'login'])) ?? 'registration';
}
