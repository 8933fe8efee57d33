/** A test fixture: a palm ROI as a crop posed differently would show it (the alignment tests' copies). */
import { bilinear } from './features';

/**
 * The `size` × `size` ROI as a crop turned by `rotation_deg`, moved by (dx, dy) pixels and zoomed by `scale`
 * would show it: output pixel p samples the original at c + R(rotation)·(p − c)/scale + (dx, dy), c the
 * centre (bilinear, edges repeated).
 */
export function warpRoi(
  image: Uint8Array,
  size: number,
  rotation_deg: number,
  dx: number,
  dy: number,
  scale: number,
): Uint8Array {
  const out = new Uint8Array(size * size);
  const angle = (rotation_deg * Math.PI) / 180;
  const cos = Math.cos(angle) / scale;
  const sin = Math.sin(angle) / scale;
  const c = (size - 1) / 2;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const u = x - c;
      const v = y - c;
      out[y * size + x] = Math.round(
        bilinear(image, size, size, c + cos * u - sin * v + dx, c + sin * u + cos * v + dy),
      );
    }
  }
  return out;
}
