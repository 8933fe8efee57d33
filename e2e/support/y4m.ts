import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

import { create } from 'qrcode';

/**
 * A tiny YUV4MPEG2 (.y4m) writer for Chromium's fake camera (`--use-file-for-fake-video-capture`): a few
 * identical 4:2:0 frames showing one QR code, black modules on white, centred with its quiet zone. Chromium
 * loops the file, so the page sees a steady picture of the code.
 */

const QUIET_ZONE_MODULES = 4;
const WHITE = 255;
const BLACK = 0;
/** Chroma of a grey picture: no colour. */
const NEUTRAL_CHROMA = 128;

export interface QrVideoOptions {
  width_px?: number;
  height_px?: number;
  frames?: number;
}

/** The QR code of `text` as a luma plane (one byte per pixel, row-major) of `width_px` x `height_px`. */
export function qrLumaPlane(text: string, width_px: number, height_px: number): Uint8Array {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  const side = modules.size + 2 * QUIET_ZONE_MODULES;
  const module_px = Math.floor(Math.min(width_px, height_px) / side);
  if (module_px < 2) throw new Error(`a ${modules.size}-module code does not fit ${width_px}x${height_px}`);
  const left = Math.floor((width_px - modules.size * module_px) / 2);
  const top = Math.floor((height_px - modules.size * module_px) / 2);
  const luma = new Uint8Array(width_px * height_px).fill(WHITE);
  for (let row = 0; row < modules.size; row += 1) {
    for (let column = 0; column < modules.size; column += 1) {
      if (!modules.get(row, column)) continue;
      for (let y = 0; y < module_px; y += 1) {
        const offset = (top + row * module_px + y) * width_px + left + column * module_px;
        luma.fill(BLACK, offset, offset + module_px);
      }
    }
  }
  return luma;
}

/** The whole .y4m file for `text`. Width and height must be even (4:2:0 halves both for chroma). */
export function qrY4m(text: string, options: QrVideoOptions = {}): Buffer {
  const width_px = options.width_px ?? 640;
  const height_px = options.height_px ?? 480;
  const frames = options.frames ?? 3;
  if (width_px % 2 !== 0 || height_px % 2 !== 0) throw new Error('4:2:0 needs an even width and height');
  const luma = qrLumaPlane(text, width_px, height_px);
  const chroma = Buffer.alloc((width_px / 2) * (height_px / 2) * 2, NEUTRAL_CHROMA);
  const header = Buffer.from(`YUV4MPEG2 W${width_px} H${height_px} F10:1 Ip A1:1 C420jpeg\n`, 'ascii');
  const frame = Buffer.concat([Buffer.from('FRAME\n', 'ascii'), luma, chroma]);
  return Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]);
}

/** Writes the .y4m for `text` to `path` (it must exist before the browser that reads it starts). */
export function writeQrY4m(path: string, text: string, options?: QrVideoOptions): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, qrY4m(text, options));
}
