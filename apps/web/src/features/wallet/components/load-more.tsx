import { useTranslation } from 'react-i18next';
import { secondaryButtonClass } from '../../../components/ui-classes';

/** The end of a paged list: a button for the next (older) page while there is one, and its failure. */
export function LoadMore({
  hasMore,
  loading,
  error,
  onLoad,
}: {
  hasMore: boolean;
  loading: boolean;
  error: string | null;
  onLoad: () => void;
}) {
  const { t } = useTranslation('wallet');
  if (!hasMore) return null;
  return (
    <div className="mt-4 flex flex-wrap items-center justify-center gap-4">
      {error === null ? null : (
        <p role="alert" className="font-medium text-red-800">
          {error}
        </p>
      )}
      <button type="button" className={secondaryButtonClass} disabled={loading} onClick={onLoad}>
        {loading ? t('history.loadingMore') : error === null ? t('history.loadMore') : t('history.retry')}
      </button>
    </div>
  );
}
