/** A minimal 8-bit greyscale PNG encoder (node:zlib), for looking at benchmark frames. */
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A width × height grey image (row-major, one byte a pixel) as PNG bytes. */
export function encodeGreyPng(pixels: Uint8Array, width: number, height: number): Buffer {
  if (pixels.length !== width * height) throw new RangeError('pixel count does not match the size');
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const raw = new Uint8Array((width + 1) * height);
  for (let y = 0; y < height; y++) raw.set(pixels.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/** Tiles of equal size side by side in a grid (rows of tiles), with a gap of `gap` pixels at `background`. */
export function contactSheet(
  rows: Uint8Array[][],
  tile: number,
  gap = 4,
  background = 255,
): {
  pixels: Uint8Array;
  width: number;
  height: number;
} {
  const columns = Math.max(...rows.map((row) => row.length));
  const width = columns * (tile + gap) + gap;
  const height = rows.length * (tile + gap) + gap;
  const pixels = new Uint8Array(width * height).fill(background);
  rows.forEach((row, r) =>
    row.forEach((image, c) => {
      for (let y = 0; y < tile; y++) {
        pixels.set(
          image.subarray(y * tile, (y + 1) * tile),
          (gap + r * (tile + gap) + y) * width + gap + c * (tile + gap),
        );
      }
    }),
  );
  return { pixels, width, height };
}
