import { referralClaimResponseSchema, referralCodeSchema } from '@hasta/contracts/rewards';

import { apiRequest } from './api-client';

/**
 * A share link's referral code (/register?ref=CODE, issue 24) kept for this tab until registration is
 * complete, then sent once: the new account names who referred it.
 */
const STORAGE_KEY = 'hasta.referral';

/** Keeps a valid `ref` of the register page's address; anything else is ignored. */
export function rememberReferral(ref: string | null): void {
  const parsed = referralCodeSchema.safeParse(ref ?? '');
  if (!parsed.success) return;
  try {
    window.sessionStorage.setItem(STORAGE_KEY, parsed.data);
  } catch {
    // storage disabled: the referral is not counted, registration goes on
  }
}

/** After registration: sends the kept code once (a refused one is dropped too: it will not count later). */
export async function claimRememberedReferral(): Promise<void> {
  let code: string | null = null;
  try {
    code = window.sessionStorage.getItem(STORAGE_KEY);
    window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    return;
  }
  if (code === null) return;
  try {
    await apiRequest('/api/rewards/referral', {
      method: 'POST',
      body: { code },
      schema: referralClaimResponseSchema,
    });
  } catch {
    // An unknown or own code: registration stands, the referral does not count.
  }
}
