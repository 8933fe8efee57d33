import {
  applicantCreatedSchema,
  formCreatedSchema,
  type applicantRequestSchema,
  type inquiryRequestSchema,
  type kioskApplicationRequestSchema,
  type vendorRegistrationRequestSchema,
} from '@hasta/contracts/forms';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';

import { ApiError, apiRequest } from '../../../lib/api-client';

export type ApplicantRequest = z.input<typeof applicantRequestSchema>;
export type InquiryRequest = z.input<typeof inquiryRequestSchema>;
export type VendorRegistrationRequest = z.input<typeof vendorRegistrationRequestSchema>;
export type KioskApplicationRequest = z.input<typeof kioskApplicationRequestSchema>;

/** POST /api/applicants: join the waitlist (spec §2.10). */
export function useJoinWaitlist() {
  return useMutation({
    mutationFn: (body: ApplicantRequest) =>
      apiRequest('/api/applicants', { method: 'POST', body, schema: applicantCreatedSchema }),
  });
}

/** POST /api/inquiry (spec §5.2). */
export function useSendInquiry() {
  return useMutation({
    mutationFn: (body: InquiryRequest) =>
      apiRequest('/api/inquiry', { method: 'POST', body, schema: formCreatedSchema }),
  });
}

/** POST /api/vendor-registration (spec §5.3). */
export function useRegisterVendor() {
  return useMutation({
    mutationFn: (body: VendorRegistrationRequest) =>
      apiRequest('/api/vendor-registration', { method: 'POST', body, schema: formCreatedSchema }),
  });
}

/** POST /api/kiosk-applications (spec §5.1). */
export function useApplyToHostKiosk() {
  return useMutation({
    mutationFn: (body: KioskApplicationRequest) =>
      apiRequest('/api/kiosk-applications', { method: 'POST', body, schema: formCreatedSchema }),
  });
}

/**
 * What a public form shows when sending failed (spec §8): the server's own message when it answered, else
 * the form's fallback ('Failed to send request.', 'Failed to register.').
 */
export function failureMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status > 0 && error.code !== 'INVALID_RESPONSE')
    return error.message;
  return fallback;
}
