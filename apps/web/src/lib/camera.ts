/** A camera just released (by another tab, or this page a moment ago) can take a moment to open again. */
const CAMERA_BUSY_RETRIES = 3;
const CAMERA_BUSY_WAIT_MS = 500;
const BUSY_ERRORS = new Set(['NotReadableError', 'AbortError', 'TrackStartError']);

/**
 * Opens the camera for a scanner (getUserMedia, video only, rear camera preferred), retrying a few times
 * while it is still busy. `cancelled` stops the retries once the scanner is gone. Throws when there is no
 * camera API, no camera, or no permission.
 */
export async function openCamera(cancelled: () => boolean): Promise<MediaStream> {
  if (navigator.mediaDevices?.getUserMedia === undefined) throw new Error('no camera API');
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await navigator.mediaDevices.getUserMedia({
        video: { facingMode: { ideal: 'environment' } },
        audio: false,
      });
    } catch (error) {
      const busy = error instanceof DOMException && BUSY_ERRORS.has(error.name);
      if (!busy || attempt >= CAMERA_BUSY_RETRIES || cancelled()) throw error;
      await new Promise((resolve) => window.setTimeout(resolve, CAMERA_BUSY_WAIT_MS));
    }
  }
}

/** Stops every track of a stream (the camera light goes off). */
export function stopStream(stream: MediaStream | null): void {
  stream?.getTracks().forEach((track) => track.stop());
}
