import { z } from 'zod';

export const outboxChannelSchema = z.enum(['email', 'sms']);

export const outboxMessageSchema = z.object({
  id: z.string(),
  to: z.string(),
  channel: outboxChannelSchema,
  subject: z.string().nullable(),
  body: z.string(),
  created_at: z.string(),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

export const outboxResponseSchema = z.object({ messages: z.array(outboxMessageSchema) });
export type OutboxResponse = z.infer<typeof outboxResponseSchema>;
