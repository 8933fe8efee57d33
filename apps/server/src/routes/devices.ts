import { messages } from '@hasta/contracts/messages';
import {
  createPairingCodeRequestSchema,
  deviceIdParamsSchema,
  deviceListResponseSchema,
  deviceMeResponseSchema,
  devicePaymentsResponseSchema,
  pairDeviceRequestSchema,
  pairedDeviceResponseSchema,
  pairingCodeResponseSchema,
  pairThisBrowserRequestSchema,
  revokeDeviceResponseSchema,
  scanChallengeRequestSchema,
  scanChallengeResponseSchema,
} from '@hasta/contracts/devices';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createPairingCode } from '../devices/create-pairing-code';
import { issueScanChallenge } from '../devices/issue-scan-challenge';
import {
  listManagedDevices,
  managedDevicePayments,
  revokeManagedDevice,
  thisDevice,
  thisDevicePayments,
} from '../devices/manage-devices';
import type { DeviceDeps } from '../devices/device-deps';
import { pairDevice, pairThisBrowser } from '../devices/pair-device';
import { paiseOf } from '../ledger/ledger-errors';
import { authenticate, requireUser } from '../plugins/auth';
import { deviceDeps, deviceToken } from './support/signed-scan';

/**
 * Devices (issue 22): pairing kiosks and store terminals with a code, a person's own browser with a step-up,
 * the device's own calls (itself, its payments, a scan's challenge), and the owner's or admin's list and
 * revocation. A device token (X-Hasta-Device) answers only the calls marked "device credential" here.
 */
export const deviceRoutes: FastifyPluginAsyncZod<{ deps: Pick<DeviceDeps, 'db'> }> = async (app, options) => {
  const tags = ['devices'];
  const deps = deviceDeps(app, options.deps.db);

  app.post(
    '/api/devices/pairing-codes',
    {
      schema: {
        tags,
        summary:
          'A pairing code (8 characters, 10 minutes, single use): a store’s owner for a terminal, an admin for a kiosk',
        body: createPairingCodeRequestSchema,
        response: { 200: pairingCodeResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      const made = await createPairingCode(deps, {
        caller: { userId: auth.user.id, role: auth.user.role },
        request: request.body,
      });
      return { code: made.code, kind: made.kind, name: made.name, expires_at: made.expiresAt.toISOString() };
    },
  );

  app.post(
    '/api/devices/pair',
    {
      schema: {
        tags,
        summary: 'Pair a kiosk or a terminal with its code and public key: answers the device token (once)',
        body: pairDeviceRequestSchema,
        response: { 200: pairedDeviceResponseSchema },
      },
    },
    async (request) => {
      const paired = await pairDevice(deps, {
        code: request.body.code,
        publicKey: request.body.public_key,
        name: request.body.name,
      });
      return {
        success: true as const,
        message: messages.devicePaired,
        device: paired.device,
        device_token: paired.token,
      };
    },
  );

  app.post(
    '/api/devices/this-browser',
    {
      schema: {
        tags,
        summary:
          'Make this browser a device of yours (needs a palm_enrol step-up of this session): your own, or your store’s terminal',
        body: pairThisBrowserRequestSchema,
        response: { 200: pairedDeviceResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      const paired = await pairThisBrowser(deps, {
        caller: { userId: auth.user.id, role: auth.user.role, sessionId: auth.sessionId },
        kind: request.body.kind,
        publicKey: request.body.public_key,
        name: request.body.name,
      });
      return {
        success: true as const,
        message: messages.devicePaired,
        device: paired.device,
        device_token: paired.token,
      };
    },
  );

  app.get(
    '/api/devices/me',
    {
      schema: {
        tags,
        summary: 'Device credential: this device, its store or kiosk',
        response: { 200: deviceMeResponseSchema },
      },
    },
    async (request) => ({ device: await thisDevice(deps, deviceToken(request)) }),
  );

  app.get(
    '/api/devices/me/payments',
    {
      schema: {
        tags,
        summary: 'Device credential: the palm payments this device took, newest first',
        response: { 200: devicePaymentsResponseSchema },
      },
    },
    async (request) => ({ payments: await thisDevicePayments(deps, deviceToken(request)) }),
  );

  app.get(
    '/api/devices',
    {
      schema: {
        tags,
        summary: 'Devices you manage, with their last use and payments: an admin every one',
        response: { 200: deviceListResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      return { devices: await listManagedDevices(deps, { userId: auth.user.id, role: auth.user.role }) };
    },
  );

  app.get(
    '/api/devices/:id/payments',
    {
      schema: {
        tags,
        summary: 'The palm payments one device took (admin, or the device’s owner)',
        params: deviceIdParamsSchema,
        response: { 200: devicePaymentsResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      return {
        payments: await managedDevicePayments(deps, {
          caller: { userId: auth.user.id, role: auth.user.role },
          deviceId: request.params.id,
        }),
      };
    },
  );

  app.post(
    '/api/devices/:id/revoke',
    {
      schema: {
        tags,
        summary: 'Revoke a device at once: its token, its key and its open challenges (admin, or its owner)',
        params: deviceIdParamsSchema,
        response: { 200: revokeDeviceResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      const device = await revokeManagedDevice(deps, {
        caller: { userId: auth.user.id, role: auth.user.role },
        deviceId: request.params.id,
      });
      return { success: true as const, message: messages.deviceRemoved, device };
    },
  );

  app.post(
    '/Palm/challenge',
    {
      schema: {
        tags: [...tags, 'palm'],
        summary:
          'Device credential (and the person’s session to enrol or receive): a single-use scan challenge, 60 s',
        body: scanChallengeRequestSchema,
        response: { 200: scanChallengeResponseSchema },
      },
    },
    async (request) => {
      // A person signed in beside the device counts only as a full session would (not half signed in).
      const auth = (await authenticate(request)) ? await requireUser(request) : undefined;
      const { amount } = request.body;
      return issueScanChallenge(deps, {
        deviceToken: deviceToken(request),
        sessionUserId: auth?.user.id,
        purpose: request.body.purpose,
        amountPaise: amount === undefined ? undefined : paiseOf(amount, app.ledger.limits),
      });
    },
  );
};
