/** The DET plot of `npm run bench:palm` (docs/palm-det.svg): FNMR against FMR on log axes. */
import { fmrAt, fnmrAt, type Scores } from './palm-scores';

export function detSvg(curves: { label: string; colour: string; scores: Scores }[]): string {
  const width = 640;
  const height = 480;
  const left = 70;
  const bottom = 50;
  const top = 20;
  const right = 20;
  const xMin = -6;
  const yMin = -4;
  const x = (fmr: number) => left + ((Math.log10(fmr) - xMin) / -xMin) * (width - left - right);
  const y = (fnmr: number) => top + (1 - (Math.log10(fnmr) - yMin) / -yMin) * (height - top - bottom);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
  ];
  for (let e = xMin; e <= 0; e++) {
    parts.push(
      `<line x1="${x(10 ** e)}" y1="${top}" x2="${x(10 ** e)}" y2="${height - bottom}" stroke="#ddd"/>`,
    );
    parts.push(`<text x="${x(10 ** e)}" y="${height - bottom + 16}" text-anchor="middle">1e${e}</text>`);
  }
  for (let e = yMin; e <= 0; e++) {
    parts.push(
      `<line x1="${left}" y1="${y(10 ** e)}" x2="${width - right}" y2="${y(10 ** e)}" stroke="#ddd"/>`,
    );
    parts.push(`<text x="${left - 6}" y="${y(10 ** e) + 4}" text-anchor="end">1e${e}</text>`);
  }
  parts.push(
    `<text x="${(left + width - right) / 2}" y="${height - 12}" text-anchor="middle">false match rate (FMR)</text>`,
    `<text transform="translate(16 ${(top + height - bottom) / 2}) rotate(-90)" text-anchor="middle">false non-match rate (FNMR)</text>`,
  );
  curves.forEach((curve, index) => {
    const points: string[] = [];
    const n = curve.scores.impostor.length;
    for (let e = Math.log10(1 / n); e <= 0; e += 0.05) {
      const k = Math.min(n - 1, Math.floor(10 ** e * n));
      const t = curve.scores.impostor[k]!;
      const fmr = Math.max(fmrAt(curve.scores, t), 1e-6);
      const fnmr = Math.max(fnmrAt(curve.scores, t), 10 ** yMin);
      points.push(`${x(fmr).toFixed(1)},${y(fnmr).toFixed(1)}`);
    }
    parts.push(
      `<polyline fill="none" stroke="${curve.colour}" stroke-width="2" points="${points.join(' ')}"/>`,
    );
    parts.push(
      `<text x="${width - right - 8}" y="${top + 16 + 16 * index}" text-anchor="end" fill="${curve.colour}">${curve.label}</text>`,
    );
  });
  parts.push(
    `<text x="${left + 8}" y="${height - bottom - 8}" fill="#666">FNMR below 1e-4 is drawn at 1e-4</text>`,
    '</svg>',
  );
  return parts.join('\n') + '\n';
}
