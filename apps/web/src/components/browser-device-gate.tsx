import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { deviceStore } from '../lib/device-key';
import type { DeviceSlot } from '../lib/device-key';
import { fetchStepUpStatus, palmTrustKeys } from '../lib/palm-trust';
import { StepUpCode } from './step-up-code';

/** The query of this browser's stored device for a slot (invalidate it when the device is forgotten). */
export const browserDeviceKey = (slot: DeviceSlot) => ['devices', 'this-browser', slot] as const;

/**
 * Wraps a scan's request: when it fails, the gate reads this browser's device again, so a device forgotten
 * on the way (revoked elsewhere, see withBrowserDevice) shows the step-up instead of the scanner.
 */
export function useRecheckBrowserDevice(slot: DeviceSlot): <T>(request: Promise<T>) => Promise<T> {
  const queryClient = useQueryClient();
  return async (request) => {
    try {
      return await request;
    } catch (error) {
      void queryClient.invalidateQueries({ queryKey: browserDeviceKey(slot) });
      throw error;
    }
  };
}

/**
 * Before a signed-in person's browser takes its first palm scan it becomes a device (issue 22), which the
 * server allows after a live step-up ("Confirm it's you", purpose 'palm_enrol'): this gate shows the step-up
 * when this browser holds no device for `slot` yet and the session has no live step-up, else its children
 * (whose scan then makes the device, see lib/device-session.ts withBrowserDevice).
 */
export function BrowserDeviceGate({
  slot,
  intro,
  children,
}: {
  slot: DeviceSlot;
  /** Why the code is asked for here. */
  intro: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation('devices');
  const [verified, setVerified] = useState(false);
  const stored = useQuery({
    queryKey: browserDeviceKey(slot),
    queryFn: () => deviceStore().read(slot),
    refetchOnMount: 'always',
  });
  const hasDevice = stored.data !== undefined && stored.data !== null;
  const stepUp = useQuery({
    queryKey: palmTrustKeys.stepUp('palm_enrol'),
    queryFn: ({ signal }) => fetchStepUpStatus('palm_enrol', signal),
    enabled: stored.data === null && !verified,
    refetchOnMount: 'always',
  });
  if (hasDevice || verified || stepUp.data?.verified === true) return <>{children}</>;
  if (stored.isPending || (stored.data === null && stepUp.isPending)) {
    return (
      <p role="status" className="text-slate-600">
        {t('thisBrowser.preparing')}
      </p>
    );
  }
  return <StepUpCode purpose="palm_enrol" intro={intro} onVerified={() => setVerified(true)} />;
}
