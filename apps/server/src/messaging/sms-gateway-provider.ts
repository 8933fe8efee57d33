import type { OutgoingMessage, Provider } from './messenger';

const SMS_TIMEOUT_MS = 10_000;

export interface SmsGatewaySettings {
  url: string;
  apiKey?: string | undefined;
  senderId: string;
  /** India's DLT rules require a registered template id on every transactional SMS. */
  dltTemplateId?: string | undefined;
}

/**
 * A JSON-over-HTTP SMS gateway, the shape most Indian providers offer (MSG91, Gupshup, Kaleyra, Textlocal all
 * take sender, recipient, message and a DLT template id). Adapt the body here for a provider that differs.
 */
export class SmsGatewayProvider implements Provider {
  readonly name = 'sms-gateway';

  constructor(
    private readonly settings: SmsGatewaySettings,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async send(message: OutgoingMessage): Promise<void> {
    if (message.channel !== 'sms') throw new Error('The SMS gateway sends SMS only');
    const response = await this.fetchImpl(this.settings.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.settings.apiKey ? { authorization: `Bearer ${this.settings.apiKey}` } : {}),
      },
      body: JSON.stringify({
        sender: this.settings.senderId,
        to: message.to,
        message: message.body,
        dlt_template_id: this.settings.dltTemplateId,
      }),
      signal: AbortSignal.timeout(SMS_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`SMS gateway answered ${response.status}`);
  }
}
