import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { Messenger } from '../messaging/messenger';

const INDIA_TIME = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata',
  dateStyle: 'medium',
  timeStyle: 'short',
});

/** "26 Nov 2026, 3:35 pm IST": when something happened, as a person in India reads it in a notice. */
export function indiaTimeText(at: Date): string {
  return `${INDIA_TIME.format(at)} IST`;
}

/** Where a person's own messages go: their phone, else their email. */
export interface OwnContact {
  channel: 'sms' | 'email';
  address: string;
}

/** "+919876543210" -> "••••3210"; "asha@example.in" -> "as•••@example.in". */
export function maskAddress(address: string): string {
  const at = address.indexOf('@');
  if (at < 0) return `••••${address.slice(-4)}`;
  return `${address.slice(0, Math.min(2, at))}•••${address.slice(at)}`;
}

/**
 * A palm payment's payer as its receiver or a store sees them (issue 21): "asha@example.in" -> "a•••@e•••",
 * "+919876543210" -> "••••3210". Less than `maskAddress` shows its owner: not even the email's domain.
 */
export function maskPayerAddress(address: string): string {
  const at = address.indexOf('@');
  if (at < 0) return maskAddress(address);
  const [local] = Array.from(address.slice(0, at));
  const [domain] = Array.from(address.slice(at + 1));
  return `${local ?? ''}•••@${domain ?? ''}•••`;
}

/** "Asha Verma" -> "A.": all of a payer's name a palm payment's receiver sees. */
export function nameInitial(name: string): string | null {
  const [first] = Array.from(name.trim());
  return first === undefined ? null : `${first.toLocaleUpperCase('en-IN')}.`;
}

/** A person's own phone, else their email: where their codes and notices go. */
export async function ownContactOf(db: Kysely<Schema>, userId: string): Promise<OwnContact> {
  const user = await db
    .selectFrom('users')
    .select(['email', 'phone'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  if (user.phone !== null) return { channel: 'sms', address: user.phone };
  if (user.email !== null) return { channel: 'email', address: user.email };
  throw new Error(`user ${userId} has neither a phone nor an email`);
}

/** What sending a person a notice needs. */
export interface NoticeDeps {
  db: Kysely<Schema>;
  messenger: Pick<Messenger, 'send'>;
}

/**
 * Tells a person about something done with their palm or money (an enrolment, a palm payment, a refused
 * scan): an SMS to their phone, else an email. The body never holds a palm feature nor another person's
 * contact details.
 */
export async function notifyOwner(
  deps: NoticeDeps,
  userId: string,
  notice: { subject: string; body: string },
): Promise<OwnContact> {
  const contact = await ownContactOf(deps.db, userId);
  await deps.messenger.send(
    contact.channel === 'sms'
      ? { channel: 'sms', to: contact.address, body: notice.body }
      : { channel: 'email', to: contact.address, subject: notice.subject, body: notice.body },
  );
  return contact;
}
