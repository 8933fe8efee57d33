import {
  deviceListResponseSchema,
  pairingCodeResponseSchema,
  revokeDeviceResponseSchema,
} from '@hasta/contracts/devices';
import type { Device } from '@hasta/contracts/devices';
import type { z } from 'zod';

import { apiRequest } from '../../../lib/api-client';

/** The store's terminals (issue 22): paired by a code made here, revoked here. */

export type Terminal = Device;
export type PairingCode = z.infer<typeof pairingCodeResponseSchema>;

export const terminalKeys = {
  all: ['merchant', 'terminals'] as const,
};

/** The devices the owner holds that are this store's terminals (their personal browsers are not shown). */
export const fetchTerminals = async (signal?: AbortSignal): Promise<Terminal[]> =>
  (
    await apiRequest('/api/devices', {
      schema: deviceListResponseSchema,
      ...(signal === undefined ? {} : { signal }),
    })
  ).devices.filter((device) => device.kind === 'terminal');

export const createTerminalCode = (name: string) =>
  apiRequest('/api/devices/pairing-codes', {
    method: 'POST',
    body: { kind: 'terminal', name: name.trim() },
    schema: pairingCodeResponseSchema,
  });

export const revokeTerminal = (id: string) =>
  apiRequest(`/api/devices/${encodeURIComponent(id)}/revoke`, {
    method: 'POST',
    body: {},
    schema: revokeDeviceResponseSchema,
  });
