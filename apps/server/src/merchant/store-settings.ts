import type { merchantSettingsAnswerSchema, merchantSettingsSchema } from '@hasta/contracts/merchant';
import type { z } from 'zod';
import { codeMessage } from '../auth/notices';
import { consumeOtp, issueOtp, takeSendAllowance } from '../auth/otp';
import { assertSmsAllowed, takeSmsBudget } from '../auth/sms-budget';
import { AppError } from '../lib/app-error';
import { maskAddress } from '../notices/notify-owner';
import {
  findOwnerContacts,
  findStore,
  markContactVerified,
  saveStoreSettings as saveSettings,
  type Store,
} from './merchant-repository';
import type { MerchantDeps } from './merchant-deps';
import type { SignedInStore, StoreSession } from './signed-in-store';

export type StoreSettingsAnswer = z.infer<typeof merchantSettingsAnswerSchema>;
export type StoreSettingsInput = z.infer<typeof merchantSettingsSchema>;
export type ContactChannel = 'email' | 'phone';

function toSettings(store: Store): StoreSettingsAnswer {
  return {
    store_name: store.storeName,
    contact_email: store.contactEmail,
    contact_phone: store.contactPhone,
    notify_email: store.notifyEmail,
    notify_sms: store.notifySms,
    contact_email_verified: store.contactEmail !== null && store.contactEmail === store.verifiedContactEmail,
    contact_phone_verified: store.contactPhone !== null && store.contactPhone === store.verifiedContactPhone,
  };
}

/** The store's name, contacts (each with whether payers see it yet) and notice channels. */
export function storeSettings(store: SignedInStore): StoreSettingsAnswer {
  return toSettings(store);
}

type CodeDeps = Pick<MerchantDeps, 'db' | 'messenger' | 'secret' | 'sms'> & { now?: () => Date };

/**
 * Before a code goes to a store contact: the address's send allowance, and for a phone the allowed country
 * prefixes and the hourly SMS budgets (issue 23 item 5), as for any code texted to a number the caller names.
 * Refuses (nothing sent) with the spec's texts.
 */
async function allowContactCode(
  deps: CodeDeps,
  contact: { channel: ContactChannel; address: string },
  client: string,
): Promise<void> {
  if (contact.channel === 'phone') assertSmsAllowed(deps.sms, contact.address);
  const now = deps.now?.() ?? new Date();
  await takeSendAllowance(deps.db, contact.address, 'store_contact', now);
  if (contact.channel !== 'phone') return;
  if (!(await takeSmsBudget(deps.db, deps.sms, { phone: contact.address, client, now })))
    throw AppError.of('RATE_LIMITED', 'tooManyOtpRequests');
}

/** A code for 'store_contact' to `address` itself, bound to the session that asks for it. */
async function sendContactCode(deps: CodeDeps, sessionId: string, address: string): Promise<void> {
  const { code } = await issueOtp(deps.db, {
    secret: deps.secret,
    identifier: address,
    purpose: 'store_contact',
    sessionId,
  });
  await deps.messenger.send(codeMessage({ identifier: address, purpose: 'store_contact', code }));
}

/**
 * Saves the store's settings (the caller's own store only) and answers them as saved (issue 23). A contact
 * that changed is not shown to payers until the code sent to that new address comes back
 * (`verifyStoreContact`): until then payers see the last verified one, and none once the owner clears it.
 * The owner's own sign-in email or phone is already proven and counts at once.
 */
export async function saveStoreSettings(
  deps: CodeDeps,
  store: StoreSession,
  settings: StoreSettingsInput,
  client: string,
): Promise<StoreSettingsAnswer> {
  const owner = await findOwnerContacts(deps.db, store.ownerUserId);
  const own = (address: string) => address === owner.email || address === owner.phone;
  const next = (wanted: string | null, verified: string | null) =>
    wanted === null ? null : wanted === verified || own(wanted) ? wanted : verified;
  const verifiedContactEmail = next(settings.contact_email, store.verifiedContactEmail);
  const verifiedContactPhone = next(settings.contact_phone, store.verifiedContactPhone);
  // New addresses still to prove: a code each, allowed (prefix, allowances, SMS budget) before anything is
  // saved, so a refused send leaves the settings as they were.
  const toProve: { channel: ContactChannel; address: string }[] = [];
  if (settings.contact_email !== store.contactEmail && settings.contact_email !== verifiedContactEmail)
    toProve.push({ channel: 'email', address: settings.contact_email! });
  if (settings.contact_phone !== store.contactPhone && settings.contact_phone !== verifiedContactPhone)
    toProve.push({ channel: 'phone', address: settings.contact_phone! });
  for (const contact of toProve) await allowContactCode(deps, contact, client);
  const saved = await saveSettings(deps.db, store.id, {
    storeName: settings.store_name,
    contactEmail: settings.contact_email,
    contactPhone: settings.contact_phone,
    verifiedContactEmail,
    verifiedContactPhone,
    notifyEmail: settings.notify_email,
    notifySms: settings.notify_sms,
  });
  for (const { address } of toProve) await sendContactCode(deps, store.sessionId, address);
  return toSettings(saved);
}

function pendingContact(store: Store, channel: ContactChannel): string {
  const [wanted, verified] =
    channel === 'email'
      ? [store.contactEmail, store.verifiedContactEmail]
      : [store.contactPhone, store.verifiedContactPhone];
  if (wanted === null || wanted === verified) throw AppError.of('BAD_REQUEST', 'invalidRequest');
  return wanted;
}

/** Sends the code again to the store's contact that waits for one; answers where it went (masked). */
export async function resendStoreContactCode(
  deps: CodeDeps,
  store: StoreSession,
  channel: ContactChannel,
  client: string,
): Promise<{ sentTo: string }> {
  const address = pendingContact(store, channel);
  await allowContactCode(deps, { channel, address }, client);
  await sendContactCode(deps, store.sessionId, address);
  return { sentTo: maskAddress(address) };
}

/**
 * The code sent to the store's new contact came back: payers see that contact from now on. A wrong code
 * counts as a failed attempt of the client on that address (the one-time code machinery's limits).
 */
export async function verifyStoreContact(
  deps: CodeDeps,
  store: StoreSession,
  input: { channel: ContactChannel; code: string; client: string },
): Promise<StoreSettingsAnswer> {
  const address = pendingContact(store, input.channel);
  const ok = await consumeOtp(
    { db: deps.db, messenger: deps.messenger, now: deps.now ?? (() => new Date()) },
    {
      secret: deps.secret,
      identifier: address,
      purpose: 'store_contact',
      code: input.code,
      sessionId: store.sessionId,
      client: input.client,
    },
  );
  if (!ok) throw AppError.of('BAD_REQUEST', 'invalidVerificationCode');
  const saved =
    (await markContactVerified(deps.db, store.id, input.channel, address)) ??
    (await findStore(deps.db, store.id));
  if (!saved) throw AppError.of('NOT_FOUND', 'notFound');
  return toSettings(saved);
}
