import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { Env } from '../env';
import { Messenger, OutboxProvider } from './messenger';
import { SmsGatewayProvider } from './sms-gateway-provider';
import { SmtpProvider } from './smtp-provider';

export function createMessenger(env: Env, db: Kysely<Schema>): Messenger {
  const email = env.SMTP_HOST
    ? new SmtpProvider({
        host: env.SMTP_HOST,
        port: env.SMTP_PORT,
        secure: env.SMTP_SECURE,
        requireTls: env.SMTP_REQUIRE_TLS,
        user: env.SMTP_USER,
        password: env.SMTP_PASSWORD,
        from: env.SMTP_FROM,
      })
    : undefined;
  const sms = env.SMS_GATEWAY_URL
    ? new SmsGatewayProvider({
        url: env.SMS_GATEWAY_URL,
        apiKey: env.SMS_GATEWAY_API_KEY,
        senderId: env.SMS_SENDER_ID,
        dltTemplateId: env.SMS_DLT_TEMPLATE_ID,
      })
    : undefined;
  const outbox = env.NODE_ENV === 'production' ? undefined : new OutboxProvider(db);
  return new Messenger({ email, sms }, outbox);
}
