import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

import { PALM_GUIDE_BOX_FRACTION, PALM_ROI_SIZE } from '@hasta/contracts/palm';
import { createIdentity, renderSample } from '@hasta/palm/synthetic';
import type { SyntheticSetting } from '@hasta/palm/synthetic';
import { gaussianBlurred } from '@hasta/palm/frame-blur';

/**
 * A .y4m film of one synthetic palm for Chromium's fake camera (`--use-file-for-fake-video-capture`), next to
 * the QR writer in y4m.ts: 640 × 480 frames of a mid-dark background with the palm of (seed, identity) filling
 * the scanner's guide box (drawn by renderSample at the box's own size, so nothing is stretched). The capture
 * (sample) changes every few frames, so the frames the scanner takes differ as a real hand's would. Chromium
 * loops the file.
 */

export interface PalmVideoOptions {
  /** The synthetic population and the person in it (identity 0 and 1: the demo's left and right hand). */
  seed: number;
  identity: number;
  width_px?: number;
  height_px?: number;
  frames?: number;
  /** Frames showing the same capture before the next one. */
  framesPerSample?: number;
  /** The first capture's sample number; the next ones follow it. */
  firstSample?: number;
  setting?: SyntheticSetting;
  /** Grey level around the box, 0..255. */
  background_grey?: number;
  /** false films the empty box (the background only), for the scanner's "no palm" feedback. */
  show_palm?: boolean;
  /** Multiplies the palm's grey levels: below 1 films a palm in poor light. */
  light_gain?: number;
  /**
   * Films the palm out of focus: a Gaussian blur of this σ in pixels of the scanner's 128-pixel frame (scaled
   * to the box's size), for the first `blurred_frames` frames of the film (all of them when absent).
   */
  blur_px?: number;
  blurred_frames?: number;
  /**
   * Where the palm is drawn, in film pixels (default: the scanner's guide box). A palm square found from hand
   * landmarks is smaller than the box: drawn there, the landmark crop shows a whole palm at the scale the ROI
   * expects, as a real hand's own landmarks give it, rather than a magnified part of a palm.
   */
  palm_square?: { x: number; y: number; side: number };
}

const FRAMES_PER_SECOND = 10;
/** Chroma of a grey picture: no colour. */
const NEUTRAL_CHROMA = 128;
/**
 * Chroma of the palm: a light-brown skin (Cb 110, Cr 150 of 4:2:0 JPEG chroma, about RGB 160 118 96 at mid
 * grey), so the scanner's skin-colour check before the grey crop sees a palm where the palm is drawn.
 */
const SKIN_CB = 110;
const SKIN_CR = 150;

/**
 * Chromium reads the file as limited-range video (Y 16 is black, 235 is white): full-range grey is mapped
 * into that range so the page sees the palm's own grey levels.
 */
function toVideoLuma(grey: number): number {
  return Math.round(16 + (grey * 219) / 255);
}

/** The guide box of the scanner, as the web app computes it: a centred square of 0.6 of the shorter side. */
export function guideBoxOf(width_px: number, height_px: number): { x: number; y: number; side: number } {
  const side = Math.max(1, Math.round(Math.min(width_px, height_px) * PALM_GUIDE_BOX_FRACTION));
  return { x: Math.floor((width_px - side) / 2), y: Math.floor((height_px - side) / 2), side };
}

/** A square grey picture blurred by a Gaussian of σ `sigma_px` (edges clamped), as a new array. */
const gaussianBlur = gaussianBlurred;

/** The luma planes of the film, one per frame. */
export function palmLumaFrames(options: PalmVideoOptions): Uint8Array[] {
  const width_px = options.width_px ?? 640;
  const height_px = options.height_px ?? 480;
  const frames = options.frames ?? 24;
  const framesPerSample = options.framesPerSample ?? 4;
  const firstSample = options.firstSample ?? 0;
  const setting = options.setting ?? 'medium';
  const background = toVideoLuma(options.background_grey ?? 60);
  const showPalm = options.show_palm ?? true;
  const gain = options.light_gain ?? 1;
  const box = options.palm_square ?? guideBoxOf(width_px, height_px);
  const blur_px = ((options.blur_px ?? 0) * box.side) / PALM_ROI_SIZE;
  const blurredFrames = options.blurred_frames ?? frames;
  const identity = createIdentity(options.seed, options.identity);
  const planes: Uint8Array[] = [];
  let palm: Uint8Array | null = null;
  for (let frame = 0; frame < frames; frame += 1) {
    if (showPalm && (frame % framesPerSample === 0 || frame === blurredFrames)) {
      palm = renderSample(identity, firstSample + Math.floor(frame / framesPerSample), setting, box.side);
      if (blur_px > 0 && frame < blurredFrames) palm = gaussianBlur(palm, box.side, blur_px);
    }
    const luma = new Uint8Array(width_px * height_px).fill(background);
    if (!showPalm) {
      planes.push(luma);
      continue;
    }
    for (let y = 0; y < box.side; y += 1) {
      const row = (box.y + y) * width_px + box.x;
      for (let x = 0; x < box.side; x += 1) {
        luma[row + x] = toVideoLuma(Math.min(255, palm![y * box.side + x]! * gain));
      }
    }
    planes.push(luma);
  }
  return planes;
}

/** The Cb then Cr planes (half size each way): skin inside the palm's square when a palm is filmed, grey elsewhere. */
function chromaPlanes(options: PalmVideoOptions, width_px: number, height_px: number): Buffer {
  const halfWidth = width_px / 2;
  const halfHeight = height_px / 2;
  const cb = Buffer.alloc(halfWidth * halfHeight, NEUTRAL_CHROMA);
  const cr = Buffer.alloc(halfWidth * halfHeight, NEUTRAL_CHROMA);
  if (options.show_palm ?? true) {
    const box = options.palm_square ?? guideBoxOf(width_px, height_px);
    for (let y = Math.floor(box.y / 2); y < Math.ceil((box.y + box.side) / 2); y += 1) {
      const row = y * halfWidth;
      cb.fill(SKIN_CB, row + Math.floor(box.x / 2), row + Math.ceil((box.x + box.side) / 2));
      cr.fill(SKIN_CR, row + Math.floor(box.x / 2), row + Math.ceil((box.x + box.side) / 2));
    }
  }
  return Buffer.concat([cb, cr]);
}

/** The whole .y4m file. Width and height must be even (4:2:0 halves both for chroma). */
export function palmY4m(options: PalmVideoOptions): Buffer {
  const width_px = options.width_px ?? 640;
  const height_px = options.height_px ?? 480;
  if (width_px % 2 !== 0 || height_px % 2 !== 0) throw new Error('4:2:0 needs an even width and height');
  const chroma = chromaPlanes(options, width_px, height_px);
  const header = Buffer.from(
    `YUV4MPEG2 W${width_px} H${height_px} F${FRAMES_PER_SECOND}:1 Ip A1:1 C420jpeg\n`,
    'ascii',
  );
  const frames = palmLumaFrames(options).map((luma) =>
    Buffer.concat([Buffer.from('FRAME\n', 'ascii'), luma, chroma]),
  );
  return Buffer.concat([header, ...frames]);
}

/** Writes the film to `path` (it must exist before the browser that plays it starts). */
export function writePalmY4m(path: string, options: PalmVideoOptions): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, palmY4m(options));
}
