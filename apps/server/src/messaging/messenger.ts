import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';

export type Channel = 'email' | 'sms';

export interface OutgoingMessage {
  channel: Channel;
  /** An email address or an E.164 phone number. */
  to: string;
  /** Email only. */
  subject?: string;
  body: string;
}

/** Delivers one kind of message through one provider. */
export interface Provider {
  readonly name: string;
  send(message: OutgoingMessage): Promise<void>;
}

/** Stores messages where developers and tests read them (GET /api/dev/outbox). Never used in production. */
export class OutboxProvider implements Provider {
  readonly name = 'outbox';

  constructor(private readonly db: Kysely<Schema>) {}

  async send(message: OutgoingMessage): Promise<void> {
    await this.db
      .insertInto('outbox_messages')
      .values({
        channel: message.channel,
        to_address: message.to,
        subject: message.subject ?? null,
        body: message.body,
      })
      .execute();
  }
}

/**
 * Routes each message to the provider of its channel. Outside production every message is also written to
 * the outbox, whatever the provider, so a developer can always see what was sent.
 */
export class Messenger {
  constructor(
    private readonly providers: { email?: Provider | undefined; sms?: Provider | undefined },
    private readonly outbox: OutboxProvider | undefined,
  ) {}

  describe(): Record<Channel, string> {
    return {
      email: this.#describe('email'),
      sms: this.#describe('sms'),
    };
  }

  async send(message: OutgoingMessage): Promise<void> {
    const provider = this.providers[message.channel];
    if (!provider && !this.outbox) throw new Error(`No provider for ${message.channel} messages`);
    if (this.outbox) await this.outbox.send(message);
    if (provider) await provider.send(message);
  }

  #describe(channel: Channel): string {
    const names = [this.outbox?.name, this.providers[channel]?.name].filter(Boolean);
    return names.join(' + ');
  }
}
