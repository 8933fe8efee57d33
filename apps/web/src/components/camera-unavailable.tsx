import { useTranslation } from 'react-i18next';

import { secondaryButtonClass } from './ui-classes';

/** What a camera view shows when the camera cannot be opened: why, and a way to ask again. */
export function CameraUnavailable({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation(['app', 'messages']);
  return (
    <div className="space-y-3">
      <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
        {t('messages:cameraUnavailable')}
      </p>
      <button type="button" className={secondaryButtonClass} onClick={onRetry}>
        {t('app:camera.tryAgain')}
      </button>
    </div>
  );
}
