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
import { inquiries, kioskApplications, vendorRegistrations, waitlist } from '../forms/list-forms';
import { removeFromWaitlist } from '../forms/remove-from-waitlist';
import { submitForm, type FormDeps } from '../forms/submit-form';
import { requireAdmin } from '../plugins/auth';
import { publicPostLimit } from './support/public-post-limit';

/**
 * The public site's forms: anyone may send one (a per-client limit and a honeypot keep bots out); only
 * admins read them.
 */
export const publicFormRoutes: FastifyPluginAsyncZod<{ deps: FormDeps }> = async (app, { deps }) => {
  const perClient = publicPostLimit(app.env);
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
      await submitForm(deps, { kind: 'applicant', form: request.body });
      return reply.status(201).send({ success: true, message: messages.waitlistJoined });
    },
  );

  /** A form that is stored as sent (bots filling the honeypot get the same answer and store nothing). */
  function formRoute<Body>(
    path: string,
    summary: string,
    body: z.ZodType<Body>,
    submit: (form: Body) => Promise<void>,
    message: string,
  ): void {
    app.post(
      path,
      { config: perClient, schema: { tags, summary, body, response: { 201: formCreatedSchema } } },
      async (request, reply) => {
        await submit(request.body as Body);
        return reply.status(201).send({ success: true, message });
      },
    );
  }

  formRoute(
    '/inquiry',
    'Send a general inquiry',
    inquiryRequestSchema,
    (form) => submitForm(deps, { kind: 'inquiry', form }),
    messages.requestSent,
  );
  formRoute(
    '/vendor-registration',
    'Register as a vendor',
    vendorRegistrationRequestSchema,
    (form) => submitForm(deps, { kind: 'vendor-registration', form }),
    messages.requestSent,
  );
  formRoute(
    '/kiosk-applications',
    'Apply to host a kiosk',
    kioskApplicationRequestSchema,
    (form) => submitForm(deps, { kind: 'kiosk-application', form }),
    messages.hostThankYou,
  );

  const adminList = { tags: ['admin'] };
  app.get(
    '/applicants',
    { schema: { ...adminList, summary: 'Admin: the waitlist', response: { 200: applicantListSchema } } },
    async (request) => {
      await requireAdmin(request);
      return { applicants: await waitlist(deps) };
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
      await removeFromWaitlist(deps, request.params.id);
      return { success: true as const, message: messages.applicantDeleted };
    },
  );
  app.get(
    '/inquiry',
    { schema: { ...adminList, summary: 'Admin: inquiries', response: { 200: inquiryListSchema } } },
    async (request) => {
      await requireAdmin(request);
      return { inquiries: await inquiries(deps) };
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
      return { registrations: await vendorRegistrations(deps) };
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
      return { applications: await kioskApplications(deps) };
    },
  );
};
