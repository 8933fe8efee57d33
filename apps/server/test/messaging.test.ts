import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMessenger } from '../src/messaging/create-messenger';
import { SmsGatewayProvider } from '../src/messaging/sms-gateway-provider';
import { createTestDatabase, testEnv, type TestDatabase } from './support/test-app';
import { migrate } from '../src/db/migrate';

interface Received {
  from: string;
  to: string[];
  data: string;
}

describe('email over SMTP', () => {
  const received: Received[] = [];
  let smtp: SMTPServer;
  let port: number;
  let test: TestDatabase;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as AddressInfo).port;
    test = await createTestDatabase();
    await migrate(test.database);
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await test.drop();
  });

  it('delivers the message to the SMTP server and, outside production, to the outbox too', async () => {
    const env = testEnv({
      NODE_ENV: 'development',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(port),
      SMTP_FROM: 'Hasta <no-reply@hasta.test>',
    });
    const messenger = createMessenger(env, test.database.db);
    expect(messenger.describe().email).toBe('outbox + smtp');

    await messenger.send({
      channel: 'email',
      to: 'meera@example.in',
      subject: 'Welcome to Hasta',
      body: 'Code 246810',
    });

    expect(received).toHaveLength(1);
    expect(received[0]!.from).toBe('no-reply@hasta.test');
    expect(received[0]!.to).toEqual(['meera@example.in']);
    expect(received[0]!.data).toContain('Subject: Welcome to Hasta');
    expect(received[0]!.data).toContain('Code 246810');
    const stored = await test.database.db.selectFrom('outbox_messages').selectAll().execute();
    expect(stored.map((row) => row.to_address)).toEqual(['meera@example.in']);
  });

  it('fails loudly when the SMTP server is unreachable', async () => {
    const env = testEnv({ NODE_ENV: 'development', SMTP_HOST: '127.0.0.1', SMTP_PORT: '9' });
    const messenger = createMessenger(env, test.database.db);
    await expect(
      messenger.send({ channel: 'email', to: 'x@example.in', subject: 's', body: 'b' }),
    ).rejects.toThrow();
  });
});

describe('SMS over the HTTP gateway', () => {
  const requests: Array<{ headers: IncomingMessage['headers']; body: unknown }> = [];
  let status = 200;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      requests.push({ headers: request.headers, body: JSON.parse(body) });
      response.statusCode = status;
      response.end('{}');
    });
  });
  let url: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/send`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('posts sender, recipient, text and the DLT template id with the API key', async () => {
    const provider = new SmsGatewayProvider({
      url,
      apiKey: 'key-123',
      senderId: 'HASTAP',
      dltTemplateId: '1707',
    });
    await provider.send({ channel: 'sms', to: '+919800000002', body: 'Your Hasta code is 112233' });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.headers.authorization).toBe('Bearer key-123');
    expect(requests[0]!.body).toEqual({
      sender: 'HASTAP',
      to: '+919800000002',
      message: 'Your Hasta code is 112233',
      dlt_template_id: '1707',
    });
  });

  it('treats a non-2xx answer as a failure', async () => {
    status = 502;
    const provider = new SmsGatewayProvider({ url, senderId: 'HASTAP' });
    await expect(provider.send({ channel: 'sms', to: '+919800000002', body: 'x' })).rejects.toThrow(/502/);
  });
});
