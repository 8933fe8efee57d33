/**
 * A square grey picture defocused: a separable Gaussian blur of σ `sigma_px` pixels, edges clamped, as a new
 * array. What the quality gate's tests, its benchmark and the browser tests use to make a blurred frame.
 */
export function gaussianBlurred(picture: Uint8Array, side: number, sigma_px: number): Uint8Array {
  if (picture.length !== side * side) throw new RangeError('picture is not side × side');
  if (!(sigma_px > 0)) return Uint8Array.from(picture);
  const radius = Math.ceil(3 * sigma_px);
  const kernel: number[] = [];
  for (let i = -radius; i <= radius; i += 1) kernel.push(Math.exp(-(i * i) / (2 * sigma_px * sigma_px)));
  const total = kernel.reduce((a, b) => a + b, 0);
  const pass = (input: Float64Array, dx: number, dy: number) => {
    const out = new Float64Array(input.length);
    for (let y = 0; y < side; y += 1) {
      for (let x = 0; x < side; x += 1) {
        let acc = 0;
        for (let k = -radius; k <= radius; k += 1) {
          const xx = Math.min(side - 1, Math.max(0, x + k * dx));
          const yy = Math.min(side - 1, Math.max(0, y + k * dy));
          acc += kernel[k + radius]! * input[yy * side + xx]!;
        }
        out[y * side + x] = acc / total;
      }
    }
    return out;
  };
  return Uint8Array.from(pass(pass(Float64Array.from(picture), 1, 0), 0, 1), (v) => Math.round(v));
}
