/**
 * Model B: a palm drawn independently of the engine's own generator (synthetic.ts), the benchmark's held-out
 * set. Nothing here is shared with synthetic.ts: the principal lines are Catmull–Rom splines through
 * anatomically placed, randomly perturbed waypoints, with their width and depth varying along their length
 * (and the odd break); a palm may have a simian line (heart and head lines fused) or a fate line; wrinkles are
 * many short thin creases following a smooth orientation field, some branching off the principal lines;
 * flexion creases cross the wrist and the finger bases; the skin is fractal gradient noise (tone, pores), a
 * faint ridge texture and the soft shading of the thenar, hypothenar and finger-base mounds.
 *
 * Each variant (one per hold) stretches the skin elastically (a smooth displacement field of about 1 % of the
 * ROI side) and redraws the depth and visibility of the thin creases.
 *
 * Coordinates as palm-model.ts: the nominal ROI is [0, 1]², x = 0 on the thumb side, y = 0 at the fingers.
 */
import { createRng, mixSeed, type Rng } from '../../packages/palm/src/random';
import { SURFACE_HIGH, SURFACE_LOW, type PalmIdentity, type PalmModel } from './palm-model';

interface Vec {
  x: number;
  y: number;
}

/** A crease as a dense polyline with its half-width (ROI units) and depth (0..1 darkening) at each point. */
interface Crease {
  points: Vec[];
  halfWidth: number[];
  depth: number[];
  /** Thin creases change depth and visibility from one variant to the next; principal lines barely. */
  kind: 'principal' | 'flexion' | 'wrinkle';
}

/** Improved gradient noise (Perlin 2002) on a seeded permutation; about −1..1. */
class GradientNoise {
  private readonly perm = new Uint8Array(512);

  constructor(rng: Rng) {
    const p = Array.from({ length: 256 }, (_, i) => i);
    for (let i = 255; i > 0; i--) {
      const j = rng.int(i + 1);
      [p[i], p[j]] = [p[j]!, p[i]!];
    }
    for (let i = 0; i < 512; i++) this.perm[i] = p[i & 255]!;
  }

  private static grad(hash: number, x: number, y: number): number {
    switch (hash & 7) {
      case 0:
        return x + y;
      case 1:
        return x - y;
      case 2:
        return -x + y;
      case 3:
        return -x - y;
      case 4:
        return 1.4142 * x;
      case 5:
        return -1.4142 * x;
      case 6:
        return 1.4142 * y;
      default:
        return -1.4142 * y;
    }
  }

  at(x: number, y: number): number {
    const fx = Math.floor(x);
    const fy = Math.floor(y);
    const X = fx & 255;
    const Y = fy & 255;
    const dx = x - fx;
    const dy = y - fy;
    const u = dx * dx * dx * (dx * (dx * 6 - 15) + 10);
    const v = dy * dy * dy * (dy * (dy * 6 - 15) + 10);
    const p = this.perm;
    const aa = p[p[X]! + Y]!;
    const ab = p[p[X]! + Y + 1]!;
    const ba = p[p[X + 1]! + Y]!;
    const bb = p[p[X + 1]! + Y + 1]!;
    const x1 =
      GradientNoise.grad(aa, dx, dy) +
      u * (GradientNoise.grad(ba, dx - 1, dy) - GradientNoise.grad(aa, dx, dy));
    const x2 =
      GradientNoise.grad(ab, dx, dy - 1) +
      u * (GradientNoise.grad(bb, dx - 1, dy - 1) - GradientNoise.grad(ab, dx, dy - 1));
    return x1 + v * (x2 - x1);
  }

  /** Fractal sum of `octaves` octaves from `frequency` (cycles per ROI unit), each half the last's amplitude. */
  fractal(x: number, y: number, frequency: number, octaves: number): number {
    let sum = 0;
    let amplitude = 1;
    let norm = 0;
    let f = frequency;
    for (let o = 0; o < octaves; o++) {
      sum += amplitude * this.at(x * f + 17.3 * o, y * f - 9.1 * o);
      norm += amplitude;
      amplitude *= 0.5;
      f *= 2;
    }
    return sum / norm;
  }
}

function catmullRomAt(a: number, b: number, c: number, d: number, t: number, t2: number, t3: number): number {
  return 0.5 * (2 * b + (-a + c) * t + (2 * a - 5 * b + 4 * c - d) * t2 + (-a + 3 * b - 3 * c + d) * t3);
}

/** A uniform Catmull–Rom spline through the waypoints, sampled every `step` ROI units. */
function catmullRom(waypoints: readonly Vec[], step: number): Vec[] {
  const pts = [waypoints[0]!, ...waypoints, waypoints[waypoints.length - 1]!];
  const out: Vec[] = [];
  for (let i = 1; i < pts.length - 2; i++) {
    const p0 = pts[i - 1]!;
    const p1 = pts[i]!;
    const p2 = pts[i + 1]!;
    const p3 = pts[i + 2]!;
    const n = Math.max(2, Math.ceil(Math.hypot(p2.x - p1.x, p2.y - p1.y) / step));
    for (let k = 0; k < n; k++) {
      const t = k / n;
      const t2 = t * t;
      const t3 = t2 * t;
      out.push({
        x: catmullRomAt(p0.x, p1.x, p2.x, p3.x, t, t2, t3),
        y: catmullRomAt(p0.y, p1.y, p2.y, p3.y, t, t2, t3),
      });
    }
  }
  out.push(waypoints[waypoints.length - 1]!);
  return out;
}

/** A smooth random profile along a line: 1 + amount · (a sum of three random sinusoids), for t in 0..1. */
function alongProfile(rng: Rng, amount: number): (t: number) => number {
  const waves = Array.from({ length: 3 }, (_, i) => ({
    frequency: rng.range(0.5, 2.5) * (i + 1),
    phase: rng.range(0, 2 * Math.PI),
    weight: rng.range(0.3, 1) / (i + 1),
  }));
  const total = waves.reduce((s, w) => s + w.weight, 0);
  return (t) =>
    1 +
    (amount * waves.reduce((s, w) => s + w.weight * Math.sin(2 * Math.PI * w.frequency * t + w.phase), 0)) /
      total;
}

/**
 * A crease through the waypoints: width and depth vary smoothly along it, the ends fade over `fadeIn` and
 * `fadeOut` of its length, and with probability `breakChance` it has a short gap (a broken line).
 */
function makeCrease(
  rng: Rng,
  waypoints: readonly Vec[],
  halfWidth: number,
  depth: number,
  kind: Crease['kind'],
  fadeIn: number,
  fadeOut: number,
  breakChance = 0,
): Crease {
  const points = catmullRom(waypoints, 0.003);
  const widthAlong = alongProfile(rng, 0.3);
  const depthAlong = alongProfile(rng, 0.35);
  const gap = rng.chance(breakChance) ? { at: rng.range(0.2, 0.8), span: rng.range(0.02, 0.06) } : undefined;
  const n = points.length - 1;
  const halfWidths: number[] = [];
  const depths: number[] = [];
  for (let i = 0; i <= n; i++) {
    const t = n === 0 ? 0 : i / n;
    let fade = 1;
    if (fadeIn > 0 && t < fadeIn) fade *= Math.sin(((t / fadeIn) * Math.PI) / 2);
    if (fadeOut > 0 && t > 1 - fadeOut) fade *= Math.sin((((1 - t) / fadeOut) * Math.PI) / 2);
    if (gap && Math.abs(t - gap.at) < gap.span) fade *= 0.15 + 0.85 * (Math.abs(t - gap.at) / gap.span) ** 2;
    halfWidths.push(halfWidth * widthAlong(t) * (0.6 + 0.4 * fade));
    depths.push(Math.max(0, depth * depthAlong(t) * fade));
  }
  return { points, halfWidth: halfWidths, depth: depths, kind };
}

const jitter = (rng: Rng, p: Vec, amount: number): Vec => ({
  x: p.x + rng.range(-amount, amount),
  y: p.y + rng.range(-amount, amount),
});

/** The principal lines where palms have them. */
function principalLines(rng: Rng): Crease[] {
  const lines: Crease[] = [];
  const width = () => rng.range(0.007, 0.012);
  const depth = () => rng.range(0.28, 0.5);
  // Life line (thenar crease): from the radial edge between thumb and index, around the thumb's mound to the wrist.
  const lifeStartY = rng.range(0.3, 0.44);
  const bulge = rng.range(0.25, 0.45);
  const lifeEndX = rng.range(0.25, 0.5);
  lines.push(
    makeCrease(
      rng,
      [
        { x: -0.08, y: lifeStartY - 0.03 },
        jitter(rng, { x: 0.12, y: lifeStartY + 0.06 }, 0.02),
        jitter(rng, { x: bulge * 0.9, y: 0.58 }, 0.03),
        jitter(rng, { x: bulge, y: 0.78 }, 0.03),
        { x: lifeEndX, y: rng.range(1.02, 1.12) },
      ],
      width(),
      depth(),
      'principal',
      0.04,
      rng.range(0.15, 0.35),
      0.15,
    ),
  );
  const simian = rng.chance(0.04);
  // Head line (proximal transverse crease): from the life line's start across the palm, sloping down.
  const headJoined = rng.chance(0.75);
  const headStart = headJoined
    ? { x: -0.08, y: lifeStartY - 0.02 }
    : { x: -0.08, y: lifeStartY - rng.range(0.04, 0.09) };
  const headEnd = { x: rng.range(0.7, 1.02), y: rng.range(0.42, 0.72) };
  if (simian) {
    // One crease across the palm where the heart and head lines would be.
    const y0 = rng.range(0.25, 0.38);
    lines.push(
      makeCrease(
        rng,
        [
          { x: -0.08, y: y0 },
          jitter(rng, { x: 0.35, y: y0 + 0.02 }, 0.03),
          jitter(rng, { x: 0.7, y: y0 - 0.01 }, 0.03),
          { x: 1.08, y: y0 + rng.range(-0.08, 0.04) },
        ],
        width() * 1.1,
        depth(),
        'principal',
        0.03,
        0.03,
      ),
    );
  } else {
    lines.push(
      makeCrease(
        rng,
        [
          headStart,
          jitter(rng, { x: 0.25, y: headStart.y + 0.05 }, 0.02),
          jitter(rng, { x: 0.5, y: (headStart.y + headEnd.y) / 2 + 0.02 }, 0.03),
          headEnd,
        ],
        width(),
        depth(),
        'principal',
        0.04,
        rng.range(0.1, 0.3),
        0.15,
      ),
    );
    // Heart line (distal transverse crease): from the ulnar edge under the little finger towards the index.
    const heartY = rng.range(0.14, 0.3);
    const heartEnd = rng.chance(0.55)
      ? { x: rng.range(0.18, 0.42), y: rng.range(-0.04, 0.06) }
      : { x: rng.range(0.05, 0.3), y: rng.range(0.1, 0.2) };
    lines.push(
      makeCrease(
        rng,
        [
          { x: 1.08, y: heartY + rng.range(-0.02, 0.03) },
          jitter(rng, { x: 0.8, y: heartY + 0.02 }, 0.025),
          jitter(rng, { x: 0.55, y: heartY + 0.01 }, 0.03),
          heartEnd,
        ],
        width(),
        depth(),
        'principal',
        0.03,
        rng.range(0.15, 0.35),
        0.1,
      ),
    );
  }
  // Fate line: up the middle from the wrist, often faint and stopping short.
  if (rng.chance(0.35)) {
    const x0 = rng.range(0.45, 0.65);
    const top = rng.range(0.15, 0.55);
    lines.push(
      makeCrease(
        rng,
        [
          { x: x0, y: 1.1 },
          jitter(rng, { x: x0 - 0.02, y: (1.1 + top) / 2 }, 0.04),
          { x: x0 + rng.range(-0.08, 0.06), y: top },
        ],
        width() * 0.7,
        depth() * 0.6,
        'principal',
        0.15,
        0.3,
        0.3,
      ),
    );
  }
  // A short line under the ring or little finger, in about one palm in five.
  if (rng.chance(0.2)) {
    const x0 = rng.range(0.7, 0.88);
    const y0 = rng.range(0.45, 0.7);
    lines.push(
      makeCrease(
        rng,
        [
          { x: x0, y: y0 },
          jitter(rng, { x: x0, y: y0 - 0.12 }, 0.03),
          { x: x0 + rng.range(-0.05, 0.05), y: y0 - 0.25 },
        ],
        width() * 0.6,
        depth() * 0.5,
        'principal',
        0.25,
        0.25,
      ),
    );
  }
  return lines;
}

/** Flexion creases across the wrist and at the bases of the four fingers (mostly outside the nominal ROI). */
function flexionCreases(rng: Rng): Crease[] {
  const creases: Crease[] = [];
  const bracelets = 2 + rng.int(2);
  let y = rng.range(1.1, 1.18);
  for (let i = 0; i < bracelets; i++) {
    const sag = rng.range(-0.04, 0.04);
    creases.push(
      makeCrease(
        rng,
        [
          { x: -0.4, y: y + rng.range(-0.03, 0.03) },
          { x: 0.5, y: y + sag },
          { x: 1.4, y: y + rng.range(-0.03, 0.03) },
        ],
        rng.range(0.004, 0.007),
        rng.range(0.15, 0.3),
        'flexion',
        0.1,
        0.1,
        0.3,
      ),
    );
    y += rng.range(0.05, 0.09);
  }
  // Finger bases: index on the thumb side (x small) to little finger (x large).
  for (const fx of [0.1, 0.37, 0.63, 0.9]) {
    const cx = fx + rng.range(-0.04, 0.04);
    const cy = rng.range(-0.26, -0.16) + (fx > 0.8 ? 0.04 : 0);
    const count = 1 + rng.int(2);
    for (let k = 0; k < count; k++) {
      const yy = cy - k * rng.range(0.025, 0.045);
      const half = rng.range(0.08, 0.12);
      creases.push(
        makeCrease(
          rng,
          [
            { x: cx - half, y: yy + rng.range(-0.015, 0.015) },
            { x: cx, y: yy + rng.range(0.005, 0.02) },
            { x: cx + half, y: yy + rng.range(-0.015, 0.015) },
          ],
          rng.range(0.004, 0.007),
          rng.range(0.18, 0.32),
          'flexion',
          0.2,
          0.2,
        ),
      );
    }
  }
  return creases;
}

/**
 * The orientation of the palm's fine wrinkles at (x, y), radians: roughly transverse over the middle of the
 * palm and the hypothenar, running along the thumb's mound on the thenar, bent by the palm's own noise.
 */
function wrinkleDirection(noise: GradientNoise, bias: number, x: number, y: number): number {
  const thenar = Math.exp(-((x - 0.05) ** 2 + (y - 0.85) ** 2) / 0.08);
  const base = (1 - thenar) * bias + thenar * (Math.atan2(y - 0.85, x - 0.05) + Math.PI / 2);
  return base + 0.7 * noise.fractal(x, y, 1.5, 2);
}

function wrinkles(rng: Rng, noise: GradientNoise, principal: readonly Crease[]): Crease[] {
  const creases: Crease[] = [];
  const bias = rng.range(-0.35, 0.35);
  const count = 120 + rng.int(120);
  for (let i = 0; i < count; i++) {
    let start: Vec;
    let angle: number;
    const branch = i < 12 && rng.chance(0.6);
    const line = principal[rng.int(principal.length)]!;
    if (branch) {
      // Off a principal line at 25–70° from its direction.
      const k = 1 + rng.int(line.points.length - 2);
      const a = line.points[k - 1]!;
      const b = line.points[k + 1]!;
      start = line.points[k]!;
      angle = Math.atan2(b.y - a.y, b.x - a.x) + (rng.chance(0.5) ? 1 : -1) * rng.range(0.45, 1.2);
    } else {
      start = { x: rng.range(-0.3, 1.3), y: rng.range(-0.2, 1.25) };
      // Most follow the field; one in four crosses it, making the fine net of the skin.
      const across = rng.chance(0.25) ? Math.PI / 2 + rng.normal() * 0.3 : 0;
      angle = wrinkleDirection(noise, bias, start.x, start.y) + across + rng.normal() * 0.15;
    }
    const length = branch ? rng.range(0.05, 0.16) : rng.range(0.04, 0.2);
    // A short random walk: three legs, each turning a little.
    const waypoints: Vec[] = [start];
    let p = start;
    for (let leg = 0; leg < 3; leg++) {
      angle += rng.normal() * 0.15;
      p = { x: p.x + (Math.cos(angle) * length) / 3, y: p.y + (Math.sin(angle) * length) / 3 };
      waypoints.push(p);
    }
    creases.push(
      makeCrease(
        rng,
        waypoints,
        rng.range(0.0025, 0.005),
        rng.range(0.05, 0.18) * (branch ? 1.3 : 1),
        'wrinkle',
        branch ? 0 : 0.35,
        0.4,
      ),
    );
  }
  return creases;
}

interface Mound {
  x: number;
  y: number;
  spread: number;
  height: number;
}

interface ModelBPalm {
  readonly seed: number;
  readonly tone: number;
  readonly noise: GradientNoise;
  readonly pores: GradientNoise;
  readonly creases: readonly Crease[];
  readonly mounds: readonly Mound[];
  /** Direction of the room light across the mounds, radians, and the ridge pattern's direction. */
  readonly lightAngle: number;
  readonly ridgeAngle: number;
  readonly ridgeFrequency: number;
}

function createPalm(seed: number, index: number): ModelBPalm {
  const rng = createRng(mixSeed(seed, index, 0xb0b));
  const noise = new GradientNoise(rng);
  const pores = new GradientNoise(rng);
  const principal = principalLines(rng);
  const creases = [...principal, ...flexionCreases(rng), ...wrinkles(rng, noise, principal)];
  const mounds: Mound[] = [
    // Thenar (thumb side, towards the wrist), hypothenar (little-finger side), and the finger-base pads.
    {
      x: rng.range(0.0, 0.15),
      y: rng.range(0.8, 0.95),
      spread: rng.range(0.22, 0.3),
      height: rng.range(0.8, 1.2),
    },
    {
      x: rng.range(0.88, 1.0),
      y: rng.range(0.7, 0.9),
      spread: rng.range(0.18, 0.26),
      height: rng.range(0.5, 0.9),
    },
    ...[0.12, 0.38, 0.64, 0.88].map((x) => ({
      x: x + rng.range(-0.03, 0.03),
      y: rng.range(-0.02, 0.06),
      spread: rng.range(0.08, 0.12),
      height: rng.range(0.25, 0.5),
    })),
  ];
  return {
    seed: mixSeed(seed, index, 0xb1),
    tone: rng.range(0.5, 0.78),
    noise,
    pores,
    creases,
    mounds,
    lightAngle: rng.range(0, 2 * Math.PI),
    ridgeAngle: rng.range(0, Math.PI),
    ridgeFrequency: rng.range(55, 75),
  };
}

/**
 * The smooth part of the skin at palm point (x, y), relative: the tone's fractal noise and the soft shading of
 * the mounds (their slope towards the light brightens, away from it darkens; their tops shine a little); and
 * the bend of the ridge pattern there. Tabulated on a coarse grid by renderPalm.
 */
function smoothSkin(palm: ModelBPalm, x: number, y: number): [number, number] {
  const tone = 0.3 * palm.noise.fractal(x, y, 2.5, 4);
  let slopeX = 0;
  let slopeY = 0;
  let height = 0;
  for (const m of palm.mounds) {
    const dx = x - m.x;
    const dy = y - m.y;
    const g = m.height * Math.exp(-(dx * dx + dy * dy) / (2 * m.spread * m.spread));
    height += g;
    slopeX -= (g * dx) / (m.spread * m.spread);
    slopeY -= (g * dy) / (m.spread * m.spread);
  }
  const shade =
    0.03 * (slopeX * Math.cos(palm.lightAngle) + slopeY * Math.sin(palm.lightAngle)) + 0.08 * height;
  const bend = 30 * palm.noise.fractal(x + 5.1, y - 3.3, 1.2, 2);
  return [tone + shade, bend];
}

/** The fine part of the skin at (x, y): mottling, pores and the faint papillary ridges. */
function fineSkin(palm: ModelBPalm, x: number, y: number, bend: number): number {
  const mottle = 0.06 * palm.pores.at(x * 24, y * 24);
  const pore = palm.pores.at(x * 90 + 31.7, y * 90 - 12.9);
  const poreDark = pore > 0.3 ? -0.12 * (pore - 0.3) : 0;
  const phase = palm.ridgeFrequency * (x * Math.cos(palm.ridgeAngle) + y * Math.sin(palm.ridgeAngle));
  const ridge = 0.015 * Math.sin(2 * Math.PI * phase + bend);
  return mottle + poreDark + ridge;
}

/** A grid of values over the surface, sampled bilinearly. */
class Grid {
  readonly values: Float64Array;

  constructor(
    readonly cells: number,
    fill: (x: number, y: number) => number,
  ) {
    this.values = new Float64Array((cells + 1) ** 2);
    const span = SURFACE_HIGH - SURFACE_LOW;
    for (let j = 0; j <= cells; j++) {
      for (let i = 0; i <= cells; i++) {
        this.values[j * (cells + 1) + i] = fill(
          SURFACE_LOW + (i / cells) * span,
          SURFACE_LOW + (j / cells) * span,
        );
      }
    }
  }

  at(x: number, y: number): number {
    const cells = this.cells;
    const span = SURFACE_HIGH - SURFACE_LOW;
    const u = Math.min(cells - 1e-9, Math.max(0, ((x - SURFACE_LOW) / span) * cells));
    const v = Math.min(cells - 1e-9, Math.max(0, ((y - SURFACE_LOW) / span) * cells));
    const i = Math.floor(u);
    const j = Math.floor(v);
    const fu = u - i;
    const fv = v - j;
    const k = j * (cells + 1) + i;
    const g = this.values;
    return (
      (g[k]! * (1 - fu) + g[k + 1]! * fu) * (1 - fv) +
      (g[k + cells + 1]! * (1 - fu) + g[k + cells + 2]! * fu) * fv
    );
  }
}

/** A smooth random displacement field (ROI units) of this RMS, tabulated on coarse grids (x and y parts). */
function displacementField(rng: Rng, rms: number): { x: Grid; y: Grid } {
  const modes = Array.from({ length: 6 }, () => {
    const frequency = rng.range(0.4, 1.6);
    const direction = rng.range(0, 2 * Math.PI);
    const push = rng.range(0, 2 * Math.PI);
    return {
      kx: 2 * Math.PI * frequency * Math.cos(direction),
      ky: 2 * Math.PI * frequency * Math.sin(direction),
      phase: rng.range(0, 2 * Math.PI),
      ax: Math.cos(push),
      ay: Math.sin(push),
      weight: rng.range(0.5, 1),
    };
  });
  // A sinusoid's RMS is 1/√2 of its amplitude; the modes are independent.
  const power = modes.reduce((sum, m) => sum + (m.weight * m.weight) / 2, 0);
  const scale = rms / Math.sqrt(power);
  const along = (axis: 'ax' | 'ay') => (x: number, y: number) =>
    scale * modes.reduce((sum, m) => sum + m[axis] * m.weight * Math.sin(m.kx * x + m.ky * y + m.phase), 0);
  return { x: new Grid(24, along('ax')), y: new Grid(24, along('ay')) };
}

/**
 * Darkens one crease into the image: each pixel keeps its smallest width-relative distance to the crease's
 * segments (and the depth there), then takes a raised-cosine valley with slightly lit rims.
 */
function drawCrease(
  image: Float32Array,
  nearest: Float32Array,
  nearestDepth: Float32Array,
  size: number,
  points: readonly Vec[],
  halfWidth: readonly number[],
  depth: readonly number[],
): void {
  const perUnit = size / (SURFACE_HIGH - SURFACE_LOW);
  const toPx = (v: number) => (v - SURFACE_LOW) * perUnit - 0.5;
  let bx0 = size;
  let by0 = size;
  let bx1 = -1;
  let by1 = -1;
  for (let k = 0; k + 1 < points.length; k++) {
    const d0 = depth[k]!;
    const d1 = depth[k + 1]!;
    if (d0 < 0.005 && d1 < 0.005) continue;
    const ax = toPx(points[k]!.x);
    const ay = toPx(points[k]!.y);
    const bx = toPx(points[k + 1]!.x);
    const by = toPx(points[k + 1]!.y);
    const w0 = Math.max(0.35, halfWidth[k]! * perUnit);
    const w1 = Math.max(0.35, halfWidth[k + 1]! * perUnit);
    const reach = 3 * Math.max(w0, w1);
    const left = Math.max(0, Math.floor(Math.min(ax, bx) - reach));
    const right = Math.min(size - 1, Math.ceil(Math.max(ax, bx) + reach));
    const top = Math.max(0, Math.floor(Math.min(ay, by) - reach));
    const bottom = Math.min(size - 1, Math.ceil(Math.max(ay, by) + reach));
    if (left > right || top > bottom) continue;
    bx0 = Math.min(bx0, left);
    bx1 = Math.max(bx1, right);
    by0 = Math.min(by0, top);
    by1 = Math.max(by1, bottom);
    const ex = bx - ax;
    const ey = by - ay;
    const length2 = ex * ex + ey * ey || 1;
    for (let y = top; y <= bottom; y++) {
      for (let x = left; x <= right; x++) {
        const t = Math.min(1, Math.max(0, ((x - ax) * ex + (y - ay) * ey) / length2));
        const dx = x - (ax + t * ex);
        const dy = y - (ay + t * ey);
        const relative = Math.sqrt(dx * dx + dy * dy) / (w0 + (w1 - w0) * t);
        const i = y * size + x;
        if (relative < nearest[i]!) {
          nearest[i] = relative;
          nearestDepth[i] = d0 + (d1 - d0) * t;
        }
      }
    }
  }
  for (let y = by0; y <= by1; y++) {
    for (let x = bx0; x <= bx1; x++) {
      const i = y * size + x;
      const r = nearest[i]!;
      if (r === Infinity) continue;
      const d = nearestDepth[i]!;
      // Valley to 2 half-widths, a faint lit rim from 1.6 to 3.
      let factor = 1;
      if (r < 2) factor -= d * 0.5 * (1 + Math.cos((Math.PI * r) / 2));
      if (r > 1.6 && r < 3) factor += 0.08 * d * Math.sin((Math.PI * (r - 1.6)) / 1.4);
      image[i]! *= factor;
      nearest[i] = Infinity;
    }
  }
}

/** The smooth skin of a palm on 128 × 128 cells over the surface (cheap: the pixels then interpolate it). */
function smoothGrids(palm: ModelBPalm): { tone: Grid; bend: Grid } {
  const tone = new Grid(128, () => 0);
  const bend = new Grid(128, () => 0);
  const row = tone.cells + 1;
  const span = SURFACE_HIGH - SURFACE_LOW;
  for (let k = 0; k < tone.values.length; k++) {
    const x = SURFACE_LOW + ((k % row) / tone.cells) * span;
    const y = SURFACE_LOW + (Math.floor(k / row) / tone.cells) * span;
    [tone.values[k], bend.values[k]] = smoothSkin(palm, x, y);
  }
  return { tone, bend };
}

function renderPalm(palm: ModelBPalm, variant: number, size: number): Float32Array {
  if (!Number.isInteger(size) || size < 16 || size > 4096) throw new RangeError('surface size out of range');
  const rng = createRng(mixSeed(palm.seed, variant, 0x57));
  const displace = displacementField(rng, rng.range(0.007, 0.013));
  const perUnit = size / (SURFACE_HIGH - SURFACE_LOW);
  const image = new Float32Array(size * size);
  const smooth = smoothGrids(palm);
  for (let y = 0; y < size; y++) {
    const py = SURFACE_LOW + (y + 0.5) / perUnit;
    for (let x = 0; x < size; x++) {
      const px = SURFACE_LOW + (x + 0.5) / perUnit;
      // The skin seen here is the palm point the stretch moved here (first-order inverse of the field).
      const sx = px - displace.x.at(px, py);
      const sy = py - displace.y.at(px, py);
      const relative = smooth.tone.at(sx, sy) + fineSkin(palm, sx, sy, smooth.bend.at(sx, sy));
      image[y * size + x] = palm.tone * (1 + relative);
    }
  }
  const nearest = new Float32Array(size * size).fill(Infinity);
  const nearestDepth = new Float32Array(size * size);
  for (const crease of palm.creases) {
    // The same draws for every crease, whether shown or not, so one crease's fate leaves the others alone.
    const visible = !rng.chance(crease.kind === 'wrinkle' ? 0.2 : crease.kind === 'flexion' ? 0.05 : 0);
    const strength = Math.max(0.2, 1 + rng.normal() * (crease.kind === 'principal' ? 0.08 : 0.3));
    const widen = Math.max(0.6, 1 + rng.normal() * (crease.kind === 'principal' ? 0.05 : 0.15));
    if (!visible) continue;
    const points = crease.points.map((p) => ({
      x: p.x + displace.x.at(p.x, p.y),
      y: p.y + displace.y.at(p.x, p.y),
    }));
    drawCrease(
      image,
      nearest,
      nearestDepth,
      size,
      points,
      crease.halfWidth.map((w) => w * widen),
      crease.depth.map((d) => Math.min(0.8, d * strength)),
    );
  }
  for (let i = 0; i < image.length; i++) image[i] = Math.min(1, Math.max(0, image[i]!));
  return image;
}

export const modelB: PalmModel = {
  name: 'B',
  identity(seed: number, index: number): PalmIdentity {
    const palm = createPalm(seed, index);
    return { surface: (variant, size) => renderPalm(palm, variant, size) };
  },
};
