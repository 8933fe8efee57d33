import { TX_ID_SHOWN_CHARS } from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { toast } from 'react-hot-toast';
import { useTranslation } from 'react-i18next';

import { FormAlert, TextField } from '../../../components/form-field';
import { Modal } from '../../../components/modal';
import { DeviceRevokeControl } from '../../../components/device-revoke-control';
import { PairingCodeCard } from '../../../components/pairing-code-card';
import {
  cardClass,
  disabledClass,
  inputClass,
  labelClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime, formatMoney } from '../../../lib/i18n-format';
import { translateMessage } from '../../../lib/server-message';
import {
  createKioskCode,
  devicePaymentsQueryKey,
  devicesQueryKey,
  fetchDevicePayments,
  fetchDevices,
  fetchLocatorKiosks,
  locatorKiosksQueryKey,
  revokeDevice,
} from '../api/devices-admin';
import type { Device, PairingCode } from '../api/devices-admin';
import { AdminSection, AdminTable, cellClass, ListState, loadOnOpen } from './admin-list';

const DEVICE_COLUMNS = [
  'name',
  'kind',
  'belongsTo',
  'lastUsed',
  'payments',
  'enrolments',
  'actions',
] as const;
const PAYMENT_COLUMNS = ['transaction', 'amount', 'status', 'time', 'customer'] as const;
const NAME_MAX_CHARS = 80;
const KNOWN_STATUSES = ['completed', 'pending', 'voided', 'reversed', 'failed'] as const;

/**
 * Devices (issue 22): every kiosk, store terminal and person's own browser, with what it belongs to, its
 * last use and its palm payments (open one to see them); a pairing code for a new kiosk of the locator;
 * Remove, one click, which stops the device at once.
 */
export function DevicesSection() {
  const { t } = useTranslation(['admin', 'messages']);
  const headingId = useId();
  const listHeadingId = useId();
  const queryClient = useQueryClient();
  const devices = useQuery({
    queryKey: devicesQueryKey,
    queryFn: ({ signal }) => fetchDevices(signal),
    ...loadOnOpen,
  });
  const [code, setCode] = useState<PairingCode | null>(null);
  const [opened, setOpened] = useState<Device | null>(null);

  const revoke = useMutation({
    mutationFn: (device: Device) => revokeDevice(device.id),
    onSuccess: (answer) => {
      toast.success(translateMessage(answer.message));
      void queryClient.invalidateQueries({ queryKey: devicesQueryKey });
    },
    onError: (cause) => toast.error(errorMessage(cause, messages.internal)),
  });

  const belongsTo = (device: Device): string => {
    if (device.kind === 'terminal') return device.store_name ?? '—';
    if (device.kind === 'kiosk') return device.kiosk_name ?? '—';
    return device.owner_username ?? t('devices.personOf', { id: device.owner_user_id.slice(0, 8) });
  };

  return (
    <AdminSection headingId={headingId} title={t('devices.heading')}>
      <div className={`${cardClass} space-y-4`}>
        <h3 className="text-lg font-semibold text-slate-900">{t('devices.pairHeading')}</h3>
        <p className="text-slate-700">{t('devices.pairLead')}</p>
        <NewKioskForm
          onCreated={(created) => {
            setCode(created);
            void queryClient.invalidateQueries({ queryKey: devicesQueryKey });
          }}
        />
        {code === null ? null : (
          <>
            <PairingCodeCard code={code.code} expiresAt={code.expires_at} deviceName={code.name} />
            <p className="text-sm text-slate-700">{t('devices.howToPair')}</p>
          </>
        )}
      </div>

      <section aria-labelledby={listHeadingId} className="space-y-4 pt-4">
        <h3 id={listHeadingId} className="text-lg font-semibold text-slate-900">
          {t('devices.listHeading')}
        </h3>
        <ListState
          query={devices}
          loadingText={t('devices.loading')}
          failureText={t('devices.loadFailed')}
          emptyText={t('devices.empty')}
          isEmpty={(data) => data.length === 0}
        />
        {devices.isSuccess && devices.data.length > 0 ? (
          <AdminTable columns={DEVICE_COLUMNS.map((column) => t(`devices.columns.${column}`))}>
            {devices.data.map((device) => (
              <tr key={device.id} data-testid="device-row">
                <td className={`${cellClass} font-medium text-slate-900`} translate="no">
                  {device.name}
                </td>
                <td className={`${cellClass} whitespace-nowrap`}>{t(`devices.kinds.${device.kind}`)}</td>
                <td
                  className={cellClass}
                  translate={device.kind === 'personal' && device.owner_username === null ? undefined : 'no'}
                >
                  {belongsTo(device)}
                </td>
                <td className={`${cellClass} whitespace-nowrap`}>
                  {device.last_seen_at === null ? t('devices.never') : formatDateTime(device.last_seen_at)}
                </td>
                <td className={cellClass}>{device.payment_count}</td>
                <td className={cellClass}>{device.enrolment_count}</td>
                <td className="px-4 py-3">
                  <div className="flex flex-wrap gap-2">
                    <button type="button" className={secondaryButtonClass} onClick={() => setOpened(device)}>
                      {t('devices.openPayments')}
                      <span className="sr-only" translate="no">
                        {' '}
                        {device.name}
                      </span>
                    </button>
                    <DeviceRevokeControl
                      name={device.name}
                      revokedAt={device.revoked_at}
                      pending={revoke.isPending && revoke.variables.id === device.id}
                      onRevoke={() => revoke.mutate(device)}
                      label={t('devices.revoke')}
                      revokedOn={(time) => t('devices.revokedOn', { time })}
                      revokedClassName="self-center text-slate-700"
                    />
                  </div>
                </td>
              </tr>
            ))}
          </AdminTable>
        ) : null}
      </section>

      <Modal
        open={opened !== null}
        title={opened === null ? '' : t('devices.paymentsOf', { name: opened.name })}
        onClose={() => setOpened(null)}
      >
        {opened === null ? null : <DevicePayments device={opened} />}
      </Modal>
    </AdminSection>
  );
}

/** One device's palm payments, newest first. */
function DevicePayments({ device }: { device: Device }) {
  const { t } = useTranslation('admin');
  const payments = useQuery({
    queryKey: devicePaymentsQueryKey(device.id),
    queryFn: ({ signal }) => fetchDevicePayments(device.id, signal),
    ...loadOnOpen,
  });
  return (
    <div className="space-y-3">
      <ListState
        query={payments}
        loadingText={t('devices.loadingPayments')}
        failureText={messages.failedToLoadTransactions}
        emptyText={t('devices.noPayments')}
        isEmpty={(data) => data.length === 0}
      />
      {payments.isSuccess && payments.data.length > 0 ? (
        <AdminTable columns={PAYMENT_COLUMNS.map((column) => t(`devices.paymentColumns.${column}`))}>
          {payments.data.map((payment) => (
            <tr key={payment.txid}>
              <td className={`${cellClass} font-mono`}>#{payment.txid.slice(0, TX_ID_SHOWN_CHARS)}</td>
              <td className={`${cellClass} font-semibold whitespace-nowrap text-slate-900`}>
                {formatMoney(payment.amount)}
              </td>
              <td className={cellClass}>
                {(KNOWN_STATUSES as readonly string[]).includes(payment.status)
                  ? t(`transactions.statuses.${payment.status as (typeof KNOWN_STATUSES)[number]}`)
                  : payment.status}
              </td>
              <td className={`${cellClass} whitespace-nowrap`}>{formatDateTime(payment.created_at)}</td>
              <td className={cellClass} translate="no">
                {[payment.customer_name, payment.customer].filter((part) => part != null).join(' ') || '—'}
              </td>
            </tr>
          ))}
        </AdminTable>
      ) : null}
    </div>
  );
}

/** A kiosk of the locator and the device's name (the kiosk's own name when left empty). */
function NewKioskForm({ onCreated }: { onCreated: (code: PairingCode) => void }) {
  const { t } = useTranslation('admin');
  const errorId = useId();
  const selectId = useId();
  const kiosks = useQuery({
    queryKey: locatorKiosksQueryKey,
    queryFn: ({ signal }) => fetchLocatorKiosks(signal),
    ...loadOnOpen,
  });
  const [kioskId, setKioskId] = useState('');
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (input: { kioskId: string; name: string }) => createKioskCode(input),
    onSuccess: (created) => {
      setProblem(null);
      setName('');
      onCreated(created);
    },
    onError: (cause) => setProblem(errorMessage(cause, messages.internal)),
  });
  const submit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const kiosk = kiosks.data?.find((entry) => entry.id === kioskId);
    if (kiosk === undefined) {
      setProblem(messages.fillAllRequired);
      return;
    }
    create.mutate({ kioskId, name: name.trim() === '' ? kiosk.name : name });
  };
  return (
    <form noValidate onSubmit={submit} className="space-y-3">
      <div>
        <label htmlFor={selectId} className={labelClass}>
          {t('devices.kioskLabel')}
        </label>
        <select
          id={selectId}
          className={inputClass}
          value={kioskId}
          aria-invalid={problem !== null && kioskId === ''}
          aria-describedby={problem === null ? undefined : errorId}
          onChange={(event) => setKioskId(event.target.value)}
        >
          <option value="">{kiosks.isPending ? t('devices.loadingKiosks') : t('devices.chooseKiosk')}</option>
          {(kiosks.data ?? []).map((kiosk) => (
            <option key={kiosk.id} value={kiosk.id}>
              {kiosk.name} · {kiosk.city} {kiosk.pincode}
            </option>
          ))}
        </select>
      </div>
      <TextField
        label={t('devices.nameLabel')}
        hint={t('devices.nameHint')}
        value={name}
        maxLength={NAME_MAX_CHARS}
        autoComplete="off"
        onChange={(event) => setName(event.target.value)}
      />
      <FormAlert id={errorId} message={problem} />
      <button type="submit" className={`${primaryButtonClass} ${disabledClass}`} disabled={create.isPending}>
        {create.isPending ? t('devices.creating') : t('devices.create')}
      </button>
    </form>
  );
}
