import { messages } from '@hasta/contracts/messages';

import { secondaryButtonClass } from './ui-classes';

/** What a camera view shows when the camera cannot be opened: why, and a way to ask again. */
export function CameraUnavailable({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="space-y-3">
      <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
        {messages.cameraUnavailable}
      </p>
      <button type="button" className={secondaryButtonClass} onClick={onRetry}>
        Try the camera again
      </button>
    </div>
  );
}
