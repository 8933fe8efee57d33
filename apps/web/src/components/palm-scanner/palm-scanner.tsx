import { DEMO_SCAN_MS } from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import { PALM_ROI_SIZE, PALM_SCAN_FRAMES } from '@hasta/contracts/palm';
import type { Hand, PalmScan } from '@hasta/contracts/palm';
import { framePose } from '@hasta/palm/quality';
import type { FramePose } from '@hasta/palm/quality';
import { assessHand, greyFromRgba, warpRoi } from '@hasta/palm/roi';
import type { HandPose, PalmRoi } from '@hasta/palm/roi';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';

import { errorMessage } from '../../lib/api-client';
import { openCamera, stopStream } from '../../lib/camera';
import { translateMessage } from '../../lib/server-message';
import { Badge } from '../badge';
import { CameraUnavailable } from '../camera-unavailable';
import { primaryButtonClass, secondaryButtonClass } from '../ui-classes';
import { DemoGateError, demoFrames } from './demo-palm';
import { fetchPalmConfig, palmConfigQueryKey } from './palm-config';
import {
  MAX_NOT_SKIN_SHARE,
  ScanDeadline,
  bytesToBase64,
  guideBox,
  judgeLook,
  notSkinShare,
  roiFromRgba,
  workingSide,
} from './palm-frame';
import type { PalmQuality } from './palm-frame';
import type { HandTracker, TrackedHand } from './hand-landmarks';

/** How often the guide box is looked at. */
const LOOK_INTERVAL_MS = 150;
/** Frames of one scan are this far apart at least, so they are separate looks at the palm. */
const CAPTURE_GAP_MS = 400;
/** Frames already taken are dropped when the palm has been out of shape for this long (it may be another). */
const RESET_AFTER_MS = 1_500;
/** A hand seen this recently keeps the landmark ROI through a look that misses it (no switch to the box). */
const HAND_LOST_MS = 1_000;
/** With no hand for this long, the hand tracker looks only every SLOW_LOOK_EVERY-th time (the box is used). */
const NO_HAND_SLOW_AFTER_MS = 4_000;
const SLOW_LOOK_EVERY = 4;
/** The camera frame is looked at with its shorter side at most this (landmarks and the palm square). */
const TRACK_MAX_SIDE = 720;
/**
 * A scan that has not got its PALM_SCAN_FRAMES good frames this long after a palm was first seen stops, and
 * says what kept failing (the clock starts at the first look that shows something palm-like, so a scanner
 * waiting for someone does not run out).
 */
export const SCAN_TIME_LIMIT_MS = 60_000;
/** The preview's shape before the camera reports its own (a common 4:3 frame). */
const DEFAULT_FRAME = { width: 640, height: 480 } as const;

/** What the scanner's caller shows on success (when the scanner shows it). */
export interface PalmScanOutcome {
  title: string;
  detail: string;
}

interface CommonProps {
  /**
   * Kiosks where the hand is placed in a drawn box: only the guide box is cut, no hand tracking is loaded.
   * Elsewhere the palm square is found from hand landmarks when MediaPipe runs, and the box is the fallback.
   */
  guideBoxOnly?: boolean;
  /**
   * Sends the scan (the caller's request). Resolves with what success says; rejects with the reason, whose
   * message is shown (an ApiError's message, else `errorFallback`).
   */
  onScan: (scan: PalmScan) => Promise<PalmScanOutcome>;
  errorFallback: string;
  /** Whether the scanner shows its own success screen; false when the caller shows its own. */
  showSuccess?: boolean;
  /** Whether the scanner shows its own error screen with Try Again; false when the caller shows its own. */
  showError?: boolean;
  onSuccess?: (outcome: PalmScanOutcome) => void;
  onError?: (message: string) => void;
}

/** Registration reads one known hand; authentication reads whichever palm is shown. */
export type PalmScannerProps = CommonProps &
  ({ purpose: 'register'; hand: Hand } | { purpose: 'authenticate' });

type Status =
  | { kind: 'idle' }
  | { kind: 'loading'; demo: boolean }
  | { kind: 'success'; outcome: PalmScanOutcome }
  | { kind: 'error'; message: string };

/**
 * The palm scanner (spec §2.12 statuses idle, loading, success, error; Try Again repeats the scan). Idle is the
 * live camera with the guide box: each look at the box is judged (light, a palm in it, kept still) and, when
 * good, cut out as a grey 128 × 128 frame; after PALM_SCAN_FRAMES frames the camera stops and `onScan` sends
 * them. No picture is stored or shown anywhere else: frames live in memory until the request is made.
 * Where the server allows it, a clearly labelled demo mode sends a synthetic palm instead, after 2 s.
 */
export function PalmScanner(props: PalmScannerProps) {
  const {
    onScan,
    errorFallback,
    showSuccess = true,
    showError = true,
    onSuccess,
    onError,
    guideBoxOnly = false,
  } = props;
  const { t } = useTranslation('palmScan');
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [attempt, setAttempt] = useState(0);
  /** Whether the camera could not be opened: only then is the demo offered in its place. */
  const [noCamera, setNoCamera] = useState(false);
  const busy = useRef(false);
  const mounted = useRef(true);
  const demoTimer = useRef<number | undefined>(undefined);
  const config = useQuery({
    queryKey: palmConfigQueryKey,
    queryFn: ({ signal }) => fetchPalmConfig(signal),
    staleTime: Infinity,
  });
  const demoAllowed = config.data?.demo_mode === true;

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      window.clearTimeout(demoTimer.current);
    };
  }, []);

  const submit = async (scan: PalmScan): Promise<void> => {
    if (busy.current) return;
    busy.current = true;
    setStatus({ kind: 'loading', demo: scan.source === 'demo' });
    try {
      const outcome = await onScan(scan);
      if (!mounted.current) return;
      setStatus({ kind: 'success', outcome });
      onSuccess?.(outcome);
    } catch (error) {
      if (!mounted.current) return;
      const message = localisedServerMessage(t, errorMessage(error, errorFallback));
      setStatus({ kind: 'error', message });
      onError?.(message);
    } finally {
      busy.current = false;
      // The frames go with the request: nothing of them is kept here.
      scan.frames.length = 0;
    }
  };

  const runDemo = (hand: Hand): void => {
    if (busy.current || status.kind !== 'idle') return;
    setStatus({ kind: 'loading', demo: true });
    demoTimer.current = window.setTimeout(() => {
      demoFrames(hand).then(
        (frames) => {
          if (mounted.current) void submit({ frames, source: 'demo' });
        },
        (error: unknown) => {
          if (!mounted.current) return;
          // The demo's frames go through the quality gate too: say what kept failing, if that is why.
          const message =
            error instanceof DemoGateError ? timedOutMessage(t, error.reason) : messages.scanFailed;
          setStatus({ kind: 'error', message });
          onError?.(message);
        },
      );
    }, DEMO_SCAN_MS);
  };

  /** The camera's scan ran out of time without enough good frames (SCAN_TIME_LIMIT_MS). */
  const gaveUp = (reason: Feedback | null): void => {
    if (!mounted.current || busy.current) return;
    const message = timedOutMessage(t, reason);
    setStatus({ kind: 'error', message });
    onError?.(message);
  };

  const tryAgain = (): void => {
    setAttempt((count) => count + 1);
    setStatus({ kind: 'idle' });
  };

  return (
    <div className="space-y-4">
      {status.kind === 'idle' ? (
        <>
          <CameraScan
            key={attempt}
            guideBoxOnly={guideBoxOnly}
            onCaptured={(frames, roi) => void submit({ frames, source: 'camera', roi })}
            onGaveUp={gaveUp}
            onCameraFailed={setNoCamera}
          />
          {demoAllowed && noCamera ? (
            <DemoOption
              hands={props.purpose === 'register' ? [props.hand] : ['left', 'right']}
              onRun={runDemo}
            />
          ) : null}
        </>
      ) : null}
      {status.kind === 'loading' ? (
        <p role="status" className="flex items-center gap-3 rounded-lg bg-slate-100 px-4 py-3 text-slate-800">
          <Spinner />
          {status.demo ? t('scanner.demoChecking') : t('scanner.checking')}
        </p>
      ) : null}
      {status.kind === 'success' && showSuccess ? (
        <div role="status" className="rounded-lg bg-emerald-50 px-4 py-3">
          <p className="text-lg font-semibold text-emerald-900">{translateMessage(status.outcome.title)}</p>
          <p className="mt-1 text-emerald-900">{translateMessage(status.outcome.detail)}</p>
        </div>
      ) : null}
      {status.kind === 'error' && showError ? (
        <div className="space-y-3">
          <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 font-medium text-red-800">
            {translateMessage(status.message)}
          </p>
          <button type="button" className={primaryButtonClass} onClick={tryAgain}>
            {t('register.tryAgain')}
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** What a look found: the picture's quality, or what is wrong with how the tracked hand is held. */
type Feedback = PalmQuality | Exclude<HandPose, 'ok'>;

/** The server's answers about a scan's pictures, said in the page's language (English: the catalogue's). */
const SERVER_QUALITY_MESSAGES = [
  'palmScanDark',
  'palmScanBright',
  'palmScanBlurred',
  'palmScanUnclear',
  'palmScanNotPalm',
] as const;

function localisedServerMessage(t: TFunction<'palmScan'>, message: string): string {
  const key = SERVER_QUALITY_MESSAGES.find((candidate) => messages[candidate] === message);
  return key === undefined ? message : t(`server.${key}`);
}

/** What the scanner says when its time limit ran out: what failed most often. */
function timedOutMessage(t: TFunction<'palmScan'>, reason: Feedback | null): string {
  return t('timedOut', {
    seconds: SCAN_TIME_LIMIT_MS / 1000,
    hint: t(`feedback.${reason ?? 'no-palm'}`),
  });
}

/** Where the ROI comes from: the palm square of the tracked hand, or the drawn guide box. */
type RoiMode = NonNullable<PalmScan['roi']>;
/** The hand tracker's state, shown on the preview as data attributes (for tests and support). */
type TrackerState = 'off' | 'loading' | 'ready' | 'unavailable';

type CameraState = 'starting' | 'live' | 'failed';

/**
 * Draws the guide box of the camera frame into a working canvas and returns the grey ROI, with whether the
 * box's colours could be skin (judged before the grey crop: a green screen is no palm, whatever its grey).
 */
function lookAtGuideBox(
  video: HTMLVideoElement,
  canvas: HTMLCanvasElement,
  context: CanvasRenderingContext2D,
): { roi: Uint8Array; skinColoured: boolean } {
  const box = guideBox(video.videoWidth, video.videoHeight);
  const side = workingSide(box.side);
  if (canvas.width !== side) {
    canvas.width = side;
    canvas.height = side;
  }
  context.imageSmoothingEnabled = true;
  context.imageSmoothingQuality = 'high';
  context.drawImage(video, box.x, box.y, box.side, box.side, 0, 0, side, side);
  const rgba = context.getImageData(0, 0, side, side).data;
  const skinColoured = notSkinShare(rgba) <= MAX_NOT_SKIN_SHARE;
  const roi = roiFromRgba(rgba, side);
  rgba.fill(0);
  return { roi, skinColoured };
}

/** The camera frame drawn at its tracking size into a canvas (landmarks and pixels then match exactly). */
function drawFrame(video: HTMLVideoElement, canvas: HTMLCanvasElement, context: CanvasRenderingContext2D) {
  const scale = Math.min(1, TRACK_MAX_SIDE / Math.min(video.videoWidth, video.videoHeight));
  const width = Math.max(1, Math.round(video.videoWidth * scale));
  const height = Math.max(1, Math.round(video.videoHeight * scale));
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  context.drawImage(video, 0, 0, width, height);
  return { width, height };
}

/** The grey PALM_ROI_SIZE² palm square of the frame in `canvas` (mirrored for a left hand). */
function cutPalmSquare(
  canvas: HTMLCanvasElement,
  context: CanvasRenderingContext2D,
  roi: PalmRoi,
): Uint8Array {
  const { width, height } = canvas;
  const grey = greyFromRgba(context.getImageData(0, 0, width, height).data, width, height);
  const supersample = Math.min(4, Math.max(1, Math.ceil(roi.side / PALM_ROI_SIZE)));
  const square = warpRoi(grey, width, height, roi, PALM_ROI_SIZE, supersample);
  grey.fill(0);
  return square;
}

/** The tracked palm square as an SVG polygon's points, in frame pixels (the overlay's viewBox). */
function squarePoints(roi: PalmRoi, scale: number): string {
  return roi.corners.map((corner) => `${corner.x / scale},${corner.y / scale}`).join(' ');
}

/**
 * The live camera with its feedback and the capture progress. Unmounting stops the camera. Each look goes to
 * the hand tracker (loaded when the camera starts, unless `guideBoxOnly`): with a hand held well, the ROI is
 * its palm square, warped upright (left hands mirrored) and drawn on the preview; without a tracker, or
 * with no hand found for HAND_LOST_MS, it is the guide box as before. Frames of one scan all come from the
 * same kind of ROI.
 */
function CameraScan({
  onCaptured,
  onGaveUp,
  onCameraFailed,
  guideBoxOnly,
}: {
  /** Whether the camera failed to open (true) or is starting or live again (false). */
  onCameraFailed: (failed: boolean) => void;
  /** The frames of one scan, and how they were all cut (the server orients guide-box frames itself). */
  onCaptured: (frames: string[], roi: RoiMode) => void;
  /** No scan within SCAN_TIME_LIMIT_MS of a palm first seen: the reason that kept a look out most often. */
  onGaveUp: (reason: Feedback | null) => void;
  guideBoxOnly: boolean;
}) {
  const { t } = useTranslation('palmScan');
  const videoRef = useRef<HTMLVideoElement>(null);
  const previewRef = useRef<HTMLDivElement>(null);
  const progressLabelId = useId();
  const [camera, setCamera] = useState<CameraState>('starting');
  const [quality, setQuality] = useState<Feedback | null>(null);
  const [mode, setMode] = useState<RoiMode>('guide-box');
  const [palmSquare, setPalmSquare] = useState<string | null>(null);
  const [captured, setCaptured] = useState(0);
  const [frame, setFrame] = useState<{ width: number; height: number }>(DEFAULT_FRAME);
  const [cameraAttempt, setCameraAttempt] = useState(0);
  const captureDone = useEffectEvent((frames: string[], roi: RoiMode) => onCaptured(frames, roi));
  const timedOut = useEffectEvent((reason: Feedback | null) => onGaveUp(reason));
  const cameraFailed = useEffectEvent((failed: boolean) => onCameraFailed(failed));
  useEffect(() => cameraFailed(camera === 'failed'), [camera]);

  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | null = null;
    let timer: number | undefined;
    const canvas = document.createElement('canvas');
    const frameCanvas = document.createElement('canvas');
    const frames: string[] = [];
    let tracker: HandTracker | null = null;
    const showTracker = (state: TrackerState, detail?: Record<string, string>) => {
      const preview = previewRef.current;
      if (preview === null) return;
      preview.dataset['handTracker'] = state;
      for (const [key, value] of Object.entries(detail ?? {})) preview.dataset[key] = value;
    };
    const release = () => {
      stopped = true;
      window.clearTimeout(timer);
      stopStream(stream);
      tracker?.reset();
      const video = videoRef.current;
      if (video !== null) video.srcObject = null;
      canvas.width = 0;
      canvas.height = 0;
      frameCanvas.width = 0;
      frameCanvas.height = 0;
    };

    const startTracker = () => {
      if (guideBoxOnly) {
        showTracker('off');
        return;
      }
      // Loaded only now, once the camera is live: MediaPipe is never part of a page's first load, and its
      // start (wasm, model, first look; seconds on a slow device) does not hold up the camera's.
      showTracker('loading');
      import('./hand-landmarks')
        .then(({ loadHandTracker }) => loadHandTracker())
        .then(
          (loaded) => {
            if (stopped) return;
            tracker = loaded;
            showTracker('ready', { handTrackerInference: loaded.inference });
          },
          (error: unknown) => {
            // The guide box stays: MediaPipe does not run here (its reason is kept for support).
            if (stopped) return;
            showTracker('unavailable', {
              handTrackerError: error instanceof Error ? error.message : 'unknown',
            });
          },
        );
    };

    const start = async () => {
      const context = canvas.getContext('2d', { willReadFrequently: true });
      const frameContext = frameCanvas.getContext('2d', { willReadFrequently: true });
      if (context === null || frameContext === null) throw new Error('2d canvas unavailable');
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
      if (stopped) return;
      setCamera('live');
      startTracker();
      let previous: Float32Array | null = null;
      let lastCaptureAt = -Infinity;
      let badSince: number | null = null;
      let roiMode: RoiMode = 'guide-box';
      let lastHandAt = -Infinity;
      const startedAt = performance.now();
      let looks = 0;
      /** Looks at the camera frame of any kind (shown on the preview, for tests and support). */
      let allLooks = 0;
      let trackedLooks = 0;
      let handsFound = 0;
      /** The time limit, from the first look that shows something palm-like (an empty box, or one with no palm, is waiting). */
      const deadline = new ScanDeadline<Feedback>(
        SCAN_TIME_LIMIT_MS,
        (reason) => reason === 'no-palm' || reason === 'not-palm',
      );
      const refused = (reason: Feedback, now: number) => deadline.refused(reason, now);
      /** Whether the scan ran out of time (it then stops and says what kept failing). */
      const outOfTime = (now: number): boolean => {
        if (!deadline.expired(now)) return false;
        release();
        frames.length = 0;
        timedOut(deadline.reason);
        return true;
      };
      /**
       * Judges one look's ROI (light, pose, stillness and the quality gate: `judgeLook`) and takes it when
       * good; returns true when the scan is complete.
       */
      const judge = (roi: Uint8Array, now: number, pose?: FramePose): boolean => {
        const assessment = judgeLook(roi, previous, pose);
        previous = assessment.detail;
        setQuality(assessment.quality);
        const preview = previewRef.current;
        if (preview !== null) preview.dataset['qualityScore'] = assessment.score.toFixed(2);
        if (assessment.quality === 'ok') {
          deadline.taken(now);
          badSince = null;
          if (now - lastCaptureAt >= CAPTURE_GAP_MS) {
            frames.push(bytesToBase64(roi));
            lastCaptureAt = now;
            setCaptured(frames.length);
            if (frames.length >= PALM_SCAN_FRAMES) {
              release();
              captureDone(frames.splice(0, frames.length), roiMode);
              return true;
            }
          }
        } else {
          refused(assessment.quality, now);
          notGood(now);
        }
        return false;
      };
      const notGood = (now: number) => {
        badSince ??= now;
        if (frames.length > 0 && now - badSince >= RESET_AFTER_MS) {
          frames.length = 0;
          setCaptured(0);
        }
      };
      const switchMode = (next: RoiMode) => {
        if (next === roiMode) return;
        // Frames of one scan come from one kind of ROI.
        roiMode = next;
        setMode(next);
        previous = null;
        frames.length = 0;
        setCaptured(0);
        if (next === 'guide-box') setPalmSquare(null);
      };
      /** The tracked hand of this look (null when none, or when the tracker does not look this time). */
      const track = async (
        now: number,
      ): Promise<{ found: TrackedHand; width: number; height: number } | null> => {
        if (tracker === null) return null;
        looks += 1;
        const slow = now - Math.max(lastHandAt, startedAt) > NO_HAND_SLOW_AFTER_MS;
        if (slow && roiMode === 'guide-box' && looks % SLOW_LOOK_EVERY !== 0) return null;
        const { width, height } = drawFrame(video, frameCanvas, frameContext);
        try {
          const found = await tracker.detect(frameCanvas);
          trackedLooks += 1;
          if (found !== null) handsFound += 1;
          const preview = previewRef.current;
          if (preview !== null) {
            preview.dataset['handTrackerLooks'] = String(trackedLooks);
            preview.dataset['handTrackerHands'] = String(handsFound);
          }
          return found === null ? null : { found, width, height };
        } catch (error) {
          tracker = null;
          showTracker('unavailable', {
            handTrackerError: error instanceof Error ? error.message : 'unknown',
          });
          return null;
        }
      };
      const look = async () => {
        if (stopped) return;
        if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA && video.videoWidth > 0) {
          const { videoWidth: width, videoHeight: height } = video;
          allLooks += 1;
          if (previewRef.current !== null) previewRef.current.dataset['looks'] = String(allLooks);
          setFrame((known) => (known.width === width && known.height === height ? known : { width, height }));
          const tracked = await track(performance.now());
          if (stopped) return;
          const now = performance.now();
          if (tracked !== null) {
            lastHandAt = now;
            switchMode('landmarks');
            const { found } = tracked;
            const hand = assessHand(found.landmarks, found.hand, tracked.width, tracked.height);
            const scale = tracked.width / width;
            setPalmSquare(hand.roi === undefined ? null : squarePoints(hand.roi, scale));
            if (hand.pose !== 'ok' || hand.roi === undefined) {
              const reason = hand.pose === 'ok' ? 'out-of-frame' : hand.pose;
              setQuality(reason);
              refused(reason, now);
              previous = null;
              notGood(now);
            } else {
              const roi = cutPalmSquare(frameCanvas, frameContext, hand.roi);
              const pose = framePose(found.landmarks, found.hand, tracked.width, tracked.height);
              const done = judge(roi, now, pose);
              roi.fill(0);
              if (done) return;
            }
          } else if (roiMode === 'landmarks' && now - lastHandAt < HAND_LOST_MS) {
            // A look that missed the hand: wait for the next before falling back to the box.
          } else {
            switchMode('guide-box');
            const { roi, skinColoured } = lookAtGuideBox(video, canvas, context);
            if (skinColoured) {
              const done = judge(roi, now);
              roi.fill(0);
              if (done) return;
            } else {
              // In the box without a tracked hand, a palm must also look like skin before its grey is judged.
              roi.fill(0);
              previous = null;
              setQuality('not-palm');
              refused('not-palm', now);
              notGood(now);
            }
          }
          if (outOfTime(now)) return;
        }
        timer = window.setTimeout(() => void look(), LOOK_INTERVAL_MS);
      };
      void look();
    };

    start().catch(() => {
      if (stopped) return;
      release();
      frames.length = 0;
      setCamera('failed');
    });
    return () => {
      release();
      frames.length = 0;
    };
  }, [cameraAttempt, guideBoxOnly]);

  const box = guideBox(frame.width, frame.height);
  const good = quality === 'ok';
  const feedback =
    camera === 'starting' ? t('starting') : quality === null ? t('placePalm') : t(`feedback.${quality}`);
  const tracking = mode === 'landmarks' && palmSquare !== null;

  return (
    <div className="space-y-3">
      <div
        ref={previewRef}
        data-roi-mode={mode}
        className="relative overflow-hidden rounded-xl bg-slate-900"
        style={{ aspectRatio: `${frame.width} / ${frame.height}` }}
      >
        <video
          ref={videoRef}
          aria-label={t('scanner.preview')}
          className="h-full w-full object-cover"
          muted
          playsInline
        />
        {camera === 'live' && tracking ? (
          <svg
            aria-hidden="true"
            data-testid="palm-tracked-square"
            className="absolute inset-0 h-full w-full"
            viewBox={`0 0 ${frame.width} ${frame.height}`}
            preserveAspectRatio="none"
          >
            <polygon
              points={palmSquare}
              fill="none"
              strokeWidth={4}
              vectorEffect="non-scaling-stroke"
              className={good ? 'stroke-emerald-400' : 'stroke-amber-300'}
            />
          </svg>
        ) : null}
        {camera === 'live' && !tracking ? (
          <div
            aria-hidden="true"
            data-testid="palm-guide-box"
            className={`absolute rounded-lg border-4 border-dashed ${good ? 'border-emerald-400' : 'border-amber-300'}`}
            style={{
              left: `${(box.x / frame.width) * 100}%`,
              top: `${(box.y / frame.height) * 100}%`,
              width: `${(box.side / frame.width) * 100}%`,
              height: `${(box.side / frame.height) * 100}%`,
            }}
          />
        ) : null}
      </div>
      {camera === 'failed' ? (
        <CameraUnavailable
          onRetry={() => {
            setCamera('starting');
            setQuality(null);
            setCaptured(0);
            setMode('guide-box');
            setPalmSquare(null);
            setCameraAttempt((count) => count + 1);
          }}
        />
      ) : (
        <>
          <p role="status" className="text-sm font-medium text-slate-800" data-testid="palm-feedback">
            {feedback}
          </p>
          <div>
            <p id={progressLabelId} className="text-sm text-slate-700">
              {t('scanner.captured', { done: captured, total: PALM_SCAN_FRAMES })}
            </p>
            <div
              role="progressbar"
              aria-labelledby={progressLabelId}
              aria-valuemin={0}
              aria-valuemax={PALM_SCAN_FRAMES}
              aria-valuenow={captured}
              className="mt-1 h-2 w-full overflow-hidden rounded-full bg-slate-200"
            >
              <div
                className="h-full rounded-full bg-emerald-600 transition-[width]"
                style={{ width: `${(captured / PALM_SCAN_FRAMES) * 100}%` }}
              />
            </div>
          </div>
        </>
      )}
    </div>
  );
}

/** The demo mode, shown only where the server accepts it, and labelled as what it is. */
function DemoOption({ hands, onRun }: { hands: readonly Hand[]; onRun: (hand: Hand) => void }) {
  const headingId = useId();
  const { t } = useTranslation('palmScan');
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
    >
      <p id={headingId} className="flex items-center gap-2 font-semibold">
        {t('scanner.demoMode')} <Badge>{t('scanner.demo')}</Badge>
      </p>
      <p className="mt-1">{t('scanner.demoNotice')}</p>
      <div className="mt-3 flex flex-wrap gap-3">
        {hands.map((hand) => (
          <button key={hand} type="button" className={secondaryButtonClass} onClick={() => onRun(hand)}>
            {hands.length === 1
              ? t(hand === 'left' ? 'scanner.useDemoLeft' : 'scanner.useDemoRight')
              : t(hand === 'left' ? 'scanner.demoLeft' : 'scanner.demoRight')}
          </button>
        ))}
      </div>
    </section>
  );
}

function Spinner() {
  return (
    <span
      aria-hidden="true"
      className="inline-block h-5 w-5 animate-spin rounded-full border-2 border-slate-400 border-t-transparent motion-reduce:animate-none"
    />
  );
}
