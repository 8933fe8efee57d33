import type { Kiosk } from '@hasta/contracts/kiosks';
import { Suspense, lazy, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { primaryButtonClass, secondaryButtonClass, textLinkClass } from '../../../components/ui-classes';
import { useKiosks } from '../api/kiosks';
import { KIOSK_QUERY_MAX_LENGTH } from '../kiosk-search';
import { kioskText } from '../kiosk-text';

// Leaflet and its stylesheet load only when someone opens the locator.
const KioskMap = lazy(() => import('./kiosk-map'));

const controlClass =
  'block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700';

function KioskEntry({ kiosk }: { kiosk: Kiosk }) {
  const { t, i18n } = useTranslation('marketing');
  const text = kioskText(kiosk, i18n.language);
  const status = kiosk.status === 'Active' ? t('kiosk.statusValues.Active') : kiosk.status;
  const type = kiosk.type === 'Registration kiosk' ? t('kiosk.typeValues.Registration kiosk') : kiosk.type;
  return (
    <li className="rounded-lg border border-slate-200 p-3">
      <h3 className="font-semibold text-slate-900">{text.name}</h3>
      <p className="text-sm">{text.address}</p>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
        <dt className="text-slate-600">{t('kiosk.status')}</dt>
        <dd className="font-medium text-emerald-800">{status}</dd>
        <dt className="text-slate-600">{t('kiosk.type')}</dt>
        <dd className="text-slate-900">{type}</dd>
        <dt className="text-slate-600">{t('kiosk.hours')}</dt>
        <dd className="text-slate-900">{text.hours}</dd>
      </dl>
    </li>
  );
}

/**
 * The kiosk locator (spec §2.3): a search by pincode, city or area, a map with a marker per kiosk, and the
 * list (always shown, so the page works without map tiles).
 */
export function KioskLocator({ initialQuery }: { initialQuery: string }) {
  const { t } = useTranslation('marketing');
  const inputId = useId();
  const [input, setInput] = useState(initialQuery);
  const [query, setQuery] = useState(initialQuery.trim());
  const kiosks = useKiosks(query);
  const list = kiosks.isError ? [] : (kiosks.data ?? []);
  const searching = kiosks.isFetching && (kiosks.isPlaceholderData || kiosks.data === undefined);

  let status: string;
  if (searching) status = t('kiosk.loading');
  else if (kiosks.isError) status = t('kiosk.loadFailed');
  else if (list.length === 0 && query !== '') status = t('kiosk.none', { query });
  else if (query !== '') status = t('kiosk.foundFor', { count: list.length, query });
  else status = t('kiosk.found', { count: list.length });

  return (
    <div className="space-y-4">
      <p className="text-sm">{t('kiosk.locateIntro')}</p>
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setQuery(input.trim());
        }}
      >
        <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
          {t('kiosk.searchLabel')}
        </label>
        <div className="mt-1 flex gap-2">
          <input
            id={inputId}
            type="search"
            value={input}
            maxLength={KIOSK_QUERY_MAX_LENGTH}
            placeholder={t('kiosk.searchPlaceholder')}
            onChange={(event) => setInput(event.target.value)}
            className={controlClass}
          />
          <button type="submit" className={primaryButtonClass}>
            {t('kiosk.search')}
          </button>
        </div>
      </form>

      <Suspense fallback={<p className="text-sm">{t('kiosk.mapLoading')}</p>}>
        <KioskMap kiosks={list} />
      </Suspense>

      <div className="flex flex-wrap items-center justify-between gap-2">
        <p role="status" className="text-sm font-medium text-slate-800">
          {status}
        </p>
        {query === '' ? null : (
          <button
            type="button"
            className={`${textLinkClass} text-sm`}
            onClick={() => {
              setInput('');
              setQuery('');
            }}
          >
            {t('kiosk.showAll')}
          </button>
        )}
      </div>
      {kiosks.isError ? (
        <button type="button" className={secondaryButtonClass} onClick={() => void kiosks.refetch()}>
          {t('kiosk.retry')}
        </button>
      ) : null}
      <ul aria-label={t('kiosk.listLabel')} aria-busy={searching} className="space-y-3">
        {list.map((kiosk) => (
          <KioskEntry key={kiosk.id} kiosk={kiosk} />
        ))}
      </ul>
    </div>
  );
}
