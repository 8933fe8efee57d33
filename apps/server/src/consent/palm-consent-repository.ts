import type { Hand } from '@hasta/contracts/palm';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { registeredHands } from '../palm/palm-service';

/** The most consent events one person's Consent tab lists (newest first). */
export const CONSENT_EVENTS_LIMIT = 100;

/** A consent event as its person sees it (palm scans are payments, listed in the history instead). */
export interface ConsentEvent {
  id: string;
  type: 'consent.granted' | 'consent.withdrawn' | 'palm.enrolled' | 'palm.erased';
  hand: Hand | null;
  createdAt: Date;
}

/** One person's palm data and consent: registered hands, live consents and the consent events. */
export interface PalmConsentRecord {
  hands: { hand: Hand; palmHash: string; registeredAt: Date }[];
  liveConsents: number;
  events: ConsentEvent[];
}

/**
 * What a person's palm consent is made of, read for them: whether they exist, which hands they registered,
 * and their consent and its events. (Enrolment, withdrawal and erasure write through the PalmService, which
 * keeps its in-memory gallery in step.)
 */
export class PalmConsentRepository {
  constructor(private readonly db: Kysely<Schema>) {}

  async userExists(userId: string): Promise<boolean> {
    const user = await this.db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
    return user !== undefined;
  }

  async registeredHands(userId: string): Promise<{ left: boolean; right: boolean }> {
    return (await registeredHands(this.db, [userId])).get(userId) ?? { left: false, right: false };
  }

  async consentOf(userId: string): Promise<PalmConsentRecord> {
    const [templates, consents, events] = await Promise.all([
      this.db
        .selectFrom('palm_templates')
        .select(['hand', 'palm_hash', 'created_at'])
        .where('user_id', '=', userId)
        .orderBy('hand')
        .execute(),
      this.db
        .selectFrom('palm_consents')
        .select('id')
        .where('user_id', '=', userId)
        .where('withdrawn_at', 'is', null)
        .execute(),
      this.db
        .selectFrom('palm_events')
        .select(['id', 'type', 'hand', 'created_at'])
        .where('user_id', '=', userId)
        .where('type', '<>', 'palm.scan')
        .orderBy('seq', 'desc')
        .limit(CONSENT_EVENTS_LIMIT)
        .execute(),
    ]);
    return {
      hands: templates.map((row) => ({
        hand: row.hand,
        palmHash: row.palm_hash,
        registeredAt: new Date(row.created_at),
      })),
      liveConsents: consents.length,
      events: events.map((row) => ({
        id: row.id,
        type: row.type as ConsentEvent['type'],
        hand: row.hand,
        createdAt: new Date(row.created_at),
      })),
    };
  }
}
