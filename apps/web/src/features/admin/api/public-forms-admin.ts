import { successResponseSchema } from '@hasta/contracts/auth';
import {
  applicantListSchema,
  inquiryListSchema,
  kioskApplicationListSchema,
  vendorRegistrationListSchema,
} from '@hasta/contracts/forms';
import type { z } from 'zod';

import { apiRequest } from '../../../lib/api-client';

/** What visitors sent from the public site, as admins read it (spec §2.17). */

export type Applicant = z.infer<typeof applicantListSchema>['applicants'][number];
export type Inquiry = z.infer<typeof inquiryListSchema>['inquiries'][number];
export type VendorRegistration = z.infer<typeof vendorRegistrationListSchema>['registrations'][number];
export type KioskApplication = z.infer<typeof kioskApplicationListSchema>['applications'][number];

export const applicantsQueryKey = ['admin', 'applicants'] as const;
export const inquiriesQueryKey = ['admin', 'inquiries'] as const;
export const vendorRegistrationsQueryKey = ['admin', 'vendor-registrations'] as const;
export const kioskApplicationsQueryKey = ['admin', 'kiosk-applications'] as const;

const withSignal = (signal: AbortSignal | undefined) => (signal === undefined ? {} : { signal });

/** GET /api/applicants: the waitlist. */
export async function fetchApplicants(signal?: AbortSignal): Promise<Applicant[]> {
  return (await apiRequest('/api/applicants', { schema: applicantListSchema, ...withSignal(signal) }))
    .applicants;
}

/** DELETE /api/applicants/{id}. */
export function deleteApplicant(id: string) {
  return apiRequest(`/api/applicants/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    schema: successResponseSchema,
  });
}

/** GET /api/inquiry. */
export async function fetchInquiries(signal?: AbortSignal): Promise<Inquiry[]> {
  return (await apiRequest('/api/inquiry', { schema: inquiryListSchema, ...withSignal(signal) })).inquiries;
}

/** GET /api/vendor-registration, each with the merchant approved from it (if any). */
export async function fetchVendorRegistrations(signal?: AbortSignal): Promise<VendorRegistration[]> {
  return (
    await apiRequest('/api/vendor-registration', {
      schema: vendorRegistrationListSchema,
      ...withSignal(signal),
    })
  ).registrations;
}

/** GET /api/kiosk-applications: offers to host a kiosk. */
export async function fetchKioskApplications(signal?: AbortSignal): Promise<KioskApplication[]> {
  return (
    await apiRequest('/api/kiosk-applications', {
      schema: kioskApplicationListSchema,
      ...withSignal(signal),
    })
  ).applications;
}
