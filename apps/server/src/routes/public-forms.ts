import {
  applicantCreatedSchema,
  applicantListSchema,
  applicantRequestSchema,
  formCreatedSchema,
  inquiryListSchema,
  inquiryRequestSchema,
  kioskApplicationListSchema,
  kioskApplicationRequestSchema,
  vendorRegistrationListSchema,
  vendorRegistrationRequestSchema,
} from '@hasta/contracts/forms';
import { messages } from '@hasta/contracts/messages';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isUniqueViolation } from '../db/errors';
import { AppError } from '../lib/app-error';
import { requireAdmin } from '../plugins/auth';

const LIST_LIMIT = 1_000;
const RATE_WINDOW_MS = 60_000;

const iso = <T extends { created_at: Date }>(row: T) => ({
  ...row,
  created_at: row.created_at.toISOString(),
});

/**
 * The public site's forms: anyone may send one (a per-client limit and a honeypot keep bots out); only
 * admins read them.
 */
export const publicFormRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;
  const perClient = {
    rateLimit: {
      max: Math.max(1, Math.floor(app.env.RATE_LIMIT_PER_MINUTE / 30)),
      timeWindow: RATE_WINDOW_MS,
    },
  };
  const tags = ['public forms'];

  app.post(
    '/applicants',
    {
      config: perClient,
      schema: {
        tags,
        summary: 'Join the waitlist',
        body: applicantRequestSchema,
        response: { 201: applicantCreatedSchema },
      },
    },
    async (request, reply) => {
      const { website, ...applicant } = request.body;
      if (!website) {
        try {
          await db.insertInto('applicants').values(applicant).execute();
        } catch (error) {
          if (isUniqueViolation(error)) throw AppError.of('CONFLICT', 'alreadyOnWaitlist');
          throw error;
        }
      }
      return reply.status(201).send({ success: true, message: messages.waitlistJoined });
    },
  );

  /** A form that is stored as sent (bots filling the honeypot get the same answer and store nothing). */
  function formRoute<Body extends { website?: string | undefined }>(
    path: string,
    summary: string,
    body: z.ZodType<Body>,
    store: (row: Omit<Body, 'website'>) => Promise<unknown>,
    message: string,
  ): void {
    app.post(
      path,
      { config: perClient, schema: { tags, summary, body, response: { 201: formCreatedSchema } } },
      async (request, reply) => {
        const { website, ...row } = request.body as Body;
        if (!website) await store(row);
        return reply.status(201).send({ success: true, message });
      },
    );
  }

  formRoute(
    '/inquiry',
    'Send a general inquiry',
    inquiryRequestSchema,
    (row) => db.insertInto('inquiries').values(row).execute(),
    messages.requestSent,
  );
  formRoute(
    '/vendor-registration',
    'Register as a vendor',
    vendorRegistrationRequestSchema,
    (row) => db.insertInto('vendor_registrations').values(row).execute(),
    messages.requestSent,
  );
  formRoute(
    '/kiosk-applications',
    'Apply to host a kiosk',
    kioskApplicationRequestSchema,
    (row) => db.insertInto('kiosk_applications').values(row).execute(),
    messages.hostThankYou,
  );

  const adminList = { tags: ['admin'] };
  app.get(
    '/applicants',
    { schema: { ...adminList, summary: 'Admin: the waitlist', response: { 200: applicantListSchema } } },
    async (request) => {
      await requireAdmin(request);
      const rows = await db
        .selectFrom('applicants')
        .selectAll()
        .orderBy('created_at', 'desc')
        .limit(LIST_LIMIT)
        .execute();
      return { applicants: rows.map(iso) };
    },
  );
  app.delete(
    '/applicants/:id',
    {
      schema: {
        ...adminList,
        summary: 'Admin: remove someone from the waitlist',
        params: z.object({ id: z.uuid(messages.applicantNotFound) }),
        response: { 200: z.object({ success: z.literal(true), message: z.string() }) },
      },
    },
    async (request) => {
      await requireAdmin(request);
      const deleted = await db
        .deleteFrom('applicants')
        .where('id', '=', request.params.id)
        .returning('id')
        .executeTakeFirst();
      if (!deleted) throw AppError.of('NOT_FOUND', 'applicantNotFound');
      return { success: true as const, message: messages.applicantDeleted };
    },
  );
  app.get(
    '/inquiry',
    { schema: { ...adminList, summary: 'Admin: inquiries', response: { 200: inquiryListSchema } } },
    async (request) => {
      await requireAdmin(request);
      const rows = await db
        .selectFrom('inquiries')
        .selectAll()
        .orderBy('created_at', 'desc')
        .limit(LIST_LIMIT)
        .execute();
      return { inquiries: rows.map(iso) };
    },
  );
  app.get(
    '/vendor-registration',
    {
      schema: {
        ...adminList,
        summary: 'Admin: vendor registrations',
        response: { 200: vendorRegistrationListSchema },
      },
    },
    async (request) => {
      await requireAdmin(request);
      const rows = await db
        .selectFrom('vendor_registrations')
        .leftJoin('merchants', 'merchants.vendor_registration_id', 'vendor_registrations.id')
        .selectAll('vendor_registrations')
        .select('merchants.id as merchant_id')
        .orderBy('vendor_registrations.created_at', 'desc')
        .limit(LIST_LIMIT)
        .execute();
      return { registrations: rows.map(iso) };
    },
  );
  app.get(
    '/kiosk-applications',
    {
      schema: {
        ...adminList,
        summary: 'Admin: kiosk hosting applications',
        response: { 200: kioskApplicationListSchema },
      },
    },
    async (request) => {
      await requireAdmin(request);
      const rows = await db
        .selectFrom('kiosk_applications')
        .selectAll()
        .orderBy('created_at', 'desc')
        .limit(LIST_LIMIT)
        .execute();
      return { applications: rows.map(iso) };
    },
  );
};
