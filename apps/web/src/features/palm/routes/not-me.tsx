import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import { Page } from '../../../components/page';
import {
  cardClass,
  dangerButtonClass,
  disabledClass,
  secondaryButtonClass,
  textLinkClass,
} from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { useFormatters } from '../../../lib/i18n-format';
import { notMePreviewQueryKey, previewNotMe, reportNotMe } from '../api/not-me';
import type { NotMePreview } from '../api/not-me';
import { isLinkRefused, notMeTokenOf } from '../utils/not-me-link';

/**
 * /not-me?token=…: the link at the end of every palm payment's notice (issue 21). Works logged out: the
 * one-time token is the authority. Shows the payment, and "This wasn't me" pauses palm pay for the payer on
 * every hand and device and opens a dispute an admin reviews. English and Hindi.
 */
export function NotMeRoute() {
  const { t } = useTranslation('notMe');
  const [params] = useSearchParams();
  const token = notMeTokenOf(params.get('token'));

  const preview = useQuery({
    queryKey: notMePreviewQueryKey(token ?? ''),
    queryFn: ({ signal }) => previewNotMe(token ?? '', signal),
    enabled: token !== null,
    // The answer does not change while the page is open; once the token is spent it would only say so.
    staleTime: Infinity,
    gcTime: 0,
  });
  const report = useMutation({ mutationFn: () => reportNotMe(token ?? '') });

  const invalid =
    token === null ||
    (preview.isError && isLinkRefused(preview.error)) ||
    (report.isError && isLinkRefused(report.error));

  let body;
  if (report.isSuccess) body = <Reported />;
  else if (invalid) body = <LinkInvalid />;
  else if (preview.isPending) {
    body = (
      <p role="status" className="text-slate-600">
        {t('loading')}
      </p>
    );
  } else if (preview.isError) {
    body = (
      <div role="alert" className="flex flex-wrap items-center gap-4 rounded-lg bg-red-50 px-4 py-3">
        <p className="font-medium text-red-800">{errorMessage(preview.error, t('linkInvalid'))}</p>
        <button type="button" className={secondaryButtonClass} onClick={() => void preview.refetch()}>
          {t('retry')}
        </button>
      </div>
    );
  } else {
    body = (
      <PaymentToReport
        payment={preview.data}
        reporting={report.isPending}
        failure={report.isError ? errorMessage(report.error, t('linkInvalid')) : null}
        onReport={() => report.mutate()}
      />
    );
  }

  return (
    <Page title={t('title')} lead={t('lead')}>
      <div className="max-w-2xl">{body}</div>
    </Page>
  );
}

function PaymentToReport({
  payment,
  reporting,
  failure,
  onReport,
}: {
  payment: NotMePreview;
  reporting: boolean;
  failure: string | null;
  onReport: () => void;
}) {
  const { t } = useTranslation('notMe');
  const format = useFormatters();
  const headingId = useId();
  const when = new Date(payment.created_at);
  return (
    <section aria-labelledby={headingId} className={cardClass}>
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        {t('paymentHeading')}
      </h2>
      <dl className="mt-4 grid gap-3 sm:grid-cols-3">
        <div>
          <dt className="text-sm text-slate-600">{t('amount')}</dt>
          <dd className="text-2xl font-bold text-slate-900" data-testid="not-me-amount">
            {format.money(payment.amount)}
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-sm text-slate-600">{t('payee')}</dt>
          <dd className="font-semibold break-words text-slate-900">{payment.payee}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-600">{t('when')}</dt>
          <dd className="text-slate-900">
            {Number.isNaN(when.getTime()) ? payment.created_at : format.dateTime(when)}
          </dd>
        </div>
      </dl>
      <p className="mt-6 text-slate-700">{t('explain')}</p>
      {failure === null ? null : (
        <p role="alert" className="mt-4 rounded-lg bg-red-50 px-3 py-2 font-medium text-red-800">
          {failure}
        </p>
      )}
      <button
        type="button"
        className={`${dangerButtonClass} ${disabledClass} mt-6 w-full sm:w-auto`}
        disabled={reporting}
        onClick={onReport}
      >
        {reporting ? t('reporting') : t('report')}
      </button>
    </section>
  );
}

/** What happened and what comes next; focus moves here so a screen reader reads it at once. */
function Reported() {
  const { t } = useTranslation('notMe');
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <section aria-labelledby={headingId} className={`${cardClass} space-y-4`}>
      <h2
        id={headingId}
        ref={headingRef}
        tabIndex={-1}
        className="text-xl font-semibold text-slate-900 focus:outline-none"
      >
        {t('reportedHeading')}
      </h2>
      <p className="rounded-lg bg-emerald-50 px-3 py-2 font-medium text-emerald-900">{t('reported')}</p>
      <h3 className="font-semibold text-slate-900">{t('nextHeading')}</h3>
      <ul className="list-disc space-y-2 pl-5 text-slate-700">
        <li>{t('nextPaused')}</li>
        <li>{t('nextReview')}</li>
        <li>{t('nextUnfreeze')}</li>
      </ul>
      <p>
        <Link to="/user-dashboard" className={textLinkClass}>
          {t('dashboardLink')}
        </Link>
      </p>
    </section>
  );
}

function LinkInvalid() {
  const { t } = useTranslation('notMe');
  return (
    <div className="space-y-4">
      <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 font-medium text-red-800">
        {t('linkInvalid')}
      </p>
      <p className="text-slate-700">{t('invalidHelp')}</p>
      <p>
        <Link to="/history" className={textLinkClass}>
          {t('historyLink')}
        </Link>
      </p>
    </div>
  );
}
