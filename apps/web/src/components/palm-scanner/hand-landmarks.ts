import type { Hands, Options, Results } from '@mediapipe/hands';
import { handFromLabel } from '@hasta/palm/roi';
import type { Landmark, RoiHand } from '@hasta/palm/roi';

/**
 * Hand landmarks in the browser with MediaPipe Hands (issue #6), loaded only when a camera scanner starts.
 * Every file comes from our own origin: the build copies the package's script, wasm, packed assets and model
 * into a versioned folder of the app's assets (apps/web/build/mediapipe-hands.ts) and `locateFile` points
 * there. hands.js is a Closure-compiled classic script that sets `Hands` on the global object, not an ES
 * module, so it is loaded as a script element from that folder (the CSP's script-src 'self' allows it; the
 * wasm needs 'wasm-unsafe-eval'). Only the types are imported here: nothing of MediaPipe is bundled.
 *
 * Frames are sent as the camera gives them (`selfieMode: false`): landmarks are in the frame's own,
 * un-mirrored coordinates and MediaPipe's handedness label, which assumes a mirrored selfie picture, is
 * swapped into the real hand (`handFromLabel`).
 */

const env = import.meta.env as Record<string, string | undefined>;
/** The folder of MediaPipe's files, with its trailing slash (set by the build; a fallback for tests). */
export const MEDIAPIPE_HANDS_BASE = env['VITE_MEDIAPIPE_HANDS_BASE'] ?? '/assets/mediapipe-hands/';

/** A hand found in a frame: its 21 landmarks (normalised to the frame) and which hand it is. */
export interface TrackedHand {
  landmarks: readonly Landmark[];
  hand: RoiHand;
  /** MediaPipe's confidence in the handedness, 0..1. */
  score: number;
}

export interface HandTracker {
  /** Where the model runs: the GPU (WebGL), or the CPU (wasm) when WebGL is a software renderer. */
  readonly inference: 'gpu' | 'cpu';
  /** The hand in the picture (the first, if several), or null. */
  detect(image: HTMLCanvasElement | HTMLVideoElement): Promise<TrackedHand | null>;
  /** Forgets the tracked hand (a new scan starts from detection). */
  reset(): void;
}

type HandsConstructor = typeof Hands;
/** `useCpuInference` is an option of the solution that its type declarations leave out. */
type TrackerOptions = Options & { useCpuInference?: boolean };

let script: Promise<HandsConstructor> | null = null;

function loadScript(): Promise<HandsConstructor> {
  script ??= new Promise<HandsConstructor>((resolve, reject) => {
    const found = () => (globalThis as { Hands?: HandsConstructor }).Hands;
    const loaded = found();
    if (loaded !== undefined) {
      resolve(loaded);
      return;
    }
    const element = document.createElement('script');
    element.src = `${MEDIAPIPE_HANDS_BASE}hands.js`;
    element.async = true;
    element.addEventListener('load', () => {
      const constructor = found();
      if (constructor === undefined) reject(new Error('hands.js did not define Hands'));
      else resolve(constructor);
    });
    element.addEventListener('error', () => reject(new Error('hands.js did not load')));
    document.head.append(element);
  }).catch((error: unknown) => {
    script = null;
    throw error;
  });
  return script;
}

/**
 * Whether WebGL here is a software renderer (SwiftShader, llvmpipe: headless browsers, machines without a
 * GPU). There MediaPipe's GPU inference takes about a second a frame and blocks the page; its CPU (wasm)
 * inference takes well under 100 ms.
 */
function softwareWebGl(): boolean {
  const canvas = document.createElement('canvas');
  const gl = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
  if (gl === null) return true;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const renderer = String(gl.getParameter(info === null ? gl.RENDERER : info.UNMASKED_RENDERER_WEBGL));
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return /swiftshader|llvmpipe|softpipe|software/i.test(renderer);
}

let tracker: Promise<HandTracker> | null = null;

async function createTracker(): Promise<HandTracker> {
  const HandsSolution = await loadScript();
  const inference = softwareWebGl() ? 'cpu' : 'gpu';
  const hands = new HandsSolution({ locateFile: (file) => `${MEDIAPIPE_HANDS_BASE}${file}` });
  const latest: { results: Results | null } = { results: null };
  hands.onResults((results) => {
    latest.results = results;
  });
  const options: TrackerOptions = {
    selfieMode: false,
    maxNumHands: 1,
    // The lite model: the full one is 2.6 times larger and slower, and the palm square needs no more.
    modelComplexity: 0,
    minDetectionConfidence: 0.6,
    minTrackingConfidence: 0.5,
    useCpuInference: inference === 'cpu',
  };
  hands.setOptions(options);
  await hands.initialize();
  return {
    inference,
    async detect(image) {
      latest.results = null;
      await hands.send({ image });
      const results = latest.results as Results | null;
      latest.results = null;
      const landmarks = results?.multiHandLandmarks?.[0];
      const handedness = results?.multiHandedness?.[0];
      if (landmarks === undefined || handedness === undefined || landmarks.length === 0) return null;
      return {
        landmarks: landmarks.map(({ x, y, z }) => ({ x, y, z })),
        hand: handFromLabel(handedness.label),
        score: handedness.score,
      };
    },
    reset() {
      hands.reset();
    },
  };
}

/**
 * The page's hand tracker, made on first use and kept for the page's life (its wasm and model load once).
 * Rejects when MediaPipe cannot run here (no WebGL, the files unreachable, the wasm refused).
 */
export function loadHandTracker(): Promise<HandTracker> {
  tracker ??= createTracker().catch((error: unknown) => {
    tracker = null;
    throw error;
  });
  return tracker;
}
