import { useTranslation } from 'react-i18next';
import { useEffect, useEffectEvent, useRef, useState } from 'react';

import { CameraUnavailable } from '../../../components/camera-unavailable';
import { openCamera, stopStream } from '../../../lib/camera';

/** How often a frame is looked at: often enough to feel instant, rare enough to leave the CPU alone. */
const SCAN_INTERVAL_MS = 200;
/** Frames are scaled down to this many pixels on the long side before the software decoder reads them. */
const DECODE_MAX_SIDE_PX = 640;

/** The Shape Detection API's BarcodeDetector (Chromium on Android, macOS, ChromeOS; not in TypeScript's DOM). */
interface BarcodeDetectorLike {
  detect(source: CanvasImageSource): Promise<{ rawValue: string }[]>;
}
interface BarcodeDetectorClass {
  new (options: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats(): Promise<string[]>;
}

type FrameDecoder = (video: HTMLVideoElement) => Promise<string | null>;

/** The browser's own QR detector where it has one, else jsQR on a scaled canvas copy of the frame. */
async function makeDecoder(): Promise<FrameDecoder> {
  const Detector = (window as unknown as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (Detector !== undefined) {
    try {
      if ((await Detector.getSupportedFormats()).includes('qr_code')) {
        const detector = new Detector({ formats: ['qr_code'] });
        return async (video) => (await detector.detect(video))[0]?.rawValue ?? null;
      }
    } catch {
      // a detector that cannot start: the software decoder below reads the frames instead
    }
  }
  const { default: jsQR } = await import('jsqr');
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (context === null) throw new Error('2d canvas unavailable');
  return async (video) => {
    const scale = Math.min(1, DECODE_MAX_SIDE_PX / Math.max(video.videoWidth, video.videoHeight));
    const width = Math.max(1, Math.round(video.videoWidth * scale));
    const height = Math.max(1, Math.round(video.videoHeight * scale));
    canvas.width = width;
    canvas.height = height;
    context.drawImage(video, 0, 0, width, height);
    const frame = context.getImageData(0, 0, width, height);
    return jsQR(frame.data, width, height, { inversionAttempts: 'attemptBoth' })?.data ?? null;
  };
}

type ScannerState = 'starting' | 'scanning' | 'failed';

interface QrScannerProps {
  /** Called once with the first code's text; the camera is released right after. */
  onDecode: (text: string) => void;
}

/**
 * The camera preview that reads a QR code (getUserMedia, rear camera preferred). Mounting starts the camera,
 * unmounting or a read stops it; remount (a new `key`) to scan again.
 */
export function QrScanner({ onDecode }: QrScannerProps) {
  const { t } = useTranslation('wallet');
  const videoRef = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<ScannerState>('starting');
  const [attempt, setAttempt] = useState(0);
  const decoded = useEffectEvent((text: string) => onDecode(text));

  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | null = null;
    let timer: number | undefined;
    const release = () => {
      stopped = true;
      window.clearTimeout(timer);
      stopStream(stream);
    };

    const start = async () => {
      const media = await openCamera(() => stopped);
      stream = media;
      if (stopped) {
        stopStream(media);
        return;
      }
      const video = videoRef.current;
      if (video === null) throw new Error('no video element');
      video.srcObject = media;
      await video.play();
      const decode = await makeDecoder();
      if (stopped) return;
      setState('scanning');
      const tick = async () => {
        if (stopped) return;
        const text = video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA ? await decode(video) : null;
        if (stopped) return;
        if (text !== null) {
          release();
          decoded(text);
          return;
        }
        timer = window.setTimeout(() => void tick(), SCAN_INTERVAL_MS);
      };
      void tick();
    };

    start().catch(() => {
      if (stopped) return;
      release();
      setState('failed');
    });
    return release;
  }, [attempt]);

  return (
    <div className="space-y-3">
      <div className="overflow-hidden rounded-xl bg-slate-900">
        <video
          ref={videoRef}
          aria-label={t('qrScan.preview')}
          className="aspect-[4/3] w-full object-cover"
          muted
          playsInline
        />
      </div>
      {state === 'failed' ? (
        <CameraUnavailable
          onRetry={() => {
            setState('starting');
            setAttempt((count) => count + 1);
          }}
        />
      ) : (
        <p role="status" className="text-sm text-slate-700">
          {state === 'starting' ? t('qrScan.starting') : t('qrScan.point')}
        </p>
      )}
    </div>
  );
}
