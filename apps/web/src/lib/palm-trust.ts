import { successResponseSchema } from '@hasta/contracts/auth';
import { palmRegisterResponseSchema } from '@hasta/contracts/palm';
import {
  enrolmentRequestListResponseSchema,
  enrolmentRequestSchema,
  palmPayStatusResponseSchema,
  stepUpSendResponseSchema,
  stepUpStatusResponseSchema,
  stepUpVerifyResponseSchema,
} from '@hasta/contracts/palm-trust';
import type { EnrolmentRequest, StepUpPurpose } from '@hasta/contracts/palm-trust';
import type { z } from 'zod';

import { apiRequest } from './api-client';

/**
 * The owner's side of palm trust (issue 21), shared by the palm registration page, the dashboard's waiting
 * registrations and the Consent tab: the step-up code, admin-assisted registrations waiting for the owner,
 * and palm pay's pause.
 */
export type StepUpSent = z.infer<typeof stepUpSendResponseSchema>;
export type PalmPayStatus = z.infer<typeof palmPayStatusResponseSchema>;
export type { EnrolmentRequest, StepUpPurpose };

export const palmTrustKeys = {
  enrolmentRequests: ['palm', 'enrolment-requests'] as const,
  enrolmentRequest: (id: string) => ['palm', 'enrolment-requests', id] as const,
  payStatus: ['palm', 'pay-status'] as const,
  stepUp: (purpose: StepUpPurpose) => ['palm', 'step-up', purpose] as const,
};

/** GET /Palm/step-up/{purpose}: whether this session already has a live step-up for it. */
export function fetchStepUpStatus(
  purpose: StepUpPurpose,
  signal?: AbortSignal,
): Promise<z.infer<typeof stepUpStatusResponseSchema>> {
  return apiRequest(`/Palm/step-up/${purpose}`, {
    schema: stepUpStatusResponseSchema,
    ...(signal === undefined ? {} : { signal }),
  });
}

/** POST /Palm/step-up/send: a code to the signed-in owner's own phone, else email. */
export function sendStepUpCode(purpose: StepUpPurpose): Promise<StepUpSent> {
  return apiRequest('/Palm/step-up/send', {
    method: 'POST',
    body: { purpose },
    schema: stepUpSendResponseSchema,
  });
}

/** POST /Palm/step-up/verify: this session may then act for `purpose` for 5 minutes. */
export function verifyStepUpCode(
  purpose: StepUpPurpose,
  otp: string,
): Promise<z.infer<typeof stepUpVerifyResponseSchema>> {
  return apiRequest('/Palm/step-up/verify', {
    method: 'POST',
    body: { purpose, otp },
    schema: stepUpVerifyResponseSchema,
  });
}

/** GET /Palm/enrolment-requests/{id}: the admin who started it, or its owner. */
export function fetchEnrolmentRequest(id: string, signal?: AbortSignal): Promise<EnrolmentRequest> {
  return apiRequest(`/Palm/enrolment-requests/${encodeURIComponent(id)}`, {
    schema: enrolmentRequestSchema,
    ...(signal === undefined ? {} : { signal }),
  });
}

/** GET /Palm/enrolment-requests: the signed-in owner's registrations waiting for approval. */
export async function fetchWaitingEnrolmentRequests(signal?: AbortSignal): Promise<EnrolmentRequest[]> {
  const answer = await apiRequest('/Palm/enrolment-requests', {
    schema: enrolmentRequestListResponseSchema,
    ...(signal === undefined ? {} : { signal }),
  });
  return answer.requests;
}

/** POST /Palm/enrolment-requests/{id}/approve: the owner's code enrols the palm. */
export function approveEnrolmentRequest(
  id: string,
  otp: string,
): Promise<z.infer<typeof palmRegisterResponseSchema>> {
  return apiRequest(`/Palm/enrolment-requests/${encodeURIComponent(id)}/approve`, {
    method: 'POST',
    body: { otp },
    schema: palmRegisterResponseSchema,
  });
}

/** POST /Palm/enrolment-requests/{id}/decline: nothing is registered. */
export function declineEnrolmentRequest(id: string): Promise<z.infer<typeof successResponseSchema>> {
  return apiRequest(`/Palm/enrolment-requests/${encodeURIComponent(id)}/decline`, {
    method: 'POST',
    schema: successResponseSchema,
  });
}

/** GET /api/palm/status: whether palm pay is paused for the signed-in person. */
export function fetchPalmPayStatus(signal?: AbortSignal): Promise<PalmPayStatus> {
  return apiRequest('/api/palm/status', {
    schema: palmPayStatusResponseSchema,
    ...(signal === undefined ? {} : { signal }),
  });
}

/** POST /api/palm/unfreeze: after a palm_unfreeze step-up of this session. */
export function unfreezePalmPay(): Promise<z.infer<typeof successResponseSchema>> {
  return apiRequest('/api/palm/unfreeze', { method: 'POST', schema: successResponseSchema });
}
