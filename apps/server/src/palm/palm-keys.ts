import { randomBytes } from 'node:crypto';
import {
  DEFAULT_PROTECTION,
  TemplateProtector,
  VERSION_1_PROTECTION,
  type ProtectionParameters,
} from '@hasta/palm/protect';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { Env } from '../env';
import { deriveKey } from '../tlog/sealing';

/**
 * One template key: the secret behind the keyed Index-of-Max transform (what makes templates renewable and
 * unlinkable) and, derived from the same secret, the AES-256-GCM key that seals templates at rest.
 */
export interface PalmKey {
  protector: TemplateProtector;
  sealKey: Buffer;
  /** Hex of the protector's key id: stored beside each template (a keyed digest, not the key). */
  keyIdHex: string;
}

/**
 * The key of one secret for templates of one version (`parameters`, protect.ts): the current version by
 * default. The version is part of the key id, so templates of two versions sit in separate galleries.
 */
export function palmKeyFrom(
  secret: string,
  parameters: Readonly<ProtectionParameters> = DEFAULT_PROTECTION,
): PalmKey {
  const protector = new TemplateProtector(deriveKey(secret, 'palm template transform'), parameters);
  return {
    protector,
    sealKey: deriveKey(secret, 'palm template at rest'),
    keyIdHex: Buffer.from(protector.keyId).toString('hex'),
  };
}

export interface PalmKeys {
  current: PalmKey;
  /** During a rotation: palms enrolled under it are still recognised and re-made under `current` on use. */
  previous: PalmKey | undefined;
  /**
   * Templates of an earlier version (1, before issue 26) under the current or previous secret: recognised
   * with probes of their own version, and re-made under `current` from the scan that matched, as a previous
   * key's are (decision 014's rotation).
   */
  legacy?: readonly PalmKey[];
}

/** PALM_KEY from the environment; elsewhere than production, a key made once and kept in the database. */
export async function loadPalmKeys(db: Kysely<Schema>, env: Env): Promise<PalmKeys> {
  let secret = env.PALM_KEY;
  if (secret === undefined) {
    await db
      .insertInto('palm_settings')
      .values({ id: 1, template_key: randomBytes(32).toString('hex') })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
    secret = (await db.selectFrom('palm_settings').select('template_key').executeTakeFirstOrThrow())
      .template_key;
  }
  const secrets = env.PALM_PREVIOUS_KEY === undefined ? [secret] : [secret, env.PALM_PREVIOUS_KEY];
  return {
    current: palmKeyFrom(secret),
    previous: env.PALM_PREVIOUS_KEY === undefined ? undefined : palmKeyFrom(env.PALM_PREVIOUS_KEY),
    legacy: secrets.map((s) => palmKeyFrom(s, VERSION_1_PROTECTION)),
  };
}
