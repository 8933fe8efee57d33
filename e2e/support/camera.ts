import type { Browser, PlaywrightWorkerArgs } from '@playwright/test';
import { test } from '@playwright/test';

import { writePalmY4m } from './palm-video';
import type { PalmVideoOptions } from './palm-video';
import { writeQrY4m } from './y4m';

/**
 * A Chromium of its own whose camera plays the .y4m file at `video`: Chromium's fake capture device plays a
 * file made before launch (the flag names a file that must already exist), and its fake UI grants camera
 * access. Launched with the project's own executable and flags plus those three.
 */
export async function launchWithFakeCamera(
  playwright: PlaywrightWorkerArgs['playwright'],
  video: string,
): Promise<Browser> {
  const base = test.info().project.use.launchOptions ?? {};
  return playwright.chromium.launch({
    ...base,
    args: [
      ...(base.args ?? []),
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ],
  });
}

/**
 * A Chromium whose camera is Chromium's own fake device with no file: its test pattern (a green screen with a
 * turning disc and a frame counter; no hand, no palm).
 */
export async function launchWithTestPatternCamera(
  playwright: PlaywrightWorkerArgs['playwright'],
): Promise<Browser> {
  const base = test.info().project.use.launchOptions ?? {};
  return playwright.chromium.launch({
    ...base,
    args: [...(base.args ?? []), '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
  });
}

/** A Chromium whose camera films `text` as a QR code. */
export async function launchWithQrCamera(
  playwright: PlaywrightWorkerArgs['playwright'],
  text: string,
  name: string,
): Promise<Browser> {
  const video = test.info().outputPath(`${name}.y4m`);
  writeQrY4m(video, text);
  return launchWithFakeCamera(playwright, video);
}

/** A Chromium whose camera films the synthetic palm of (seed, identity) inside the scanner's guide box. */
export async function launchWithPalmCamera(
  playwright: PlaywrightWorkerArgs['playwright'],
  palm: PalmVideoOptions,
  name: string,
): Promise<Browser> {
  const video = test.info().outputPath(`${name}.y4m`);
  writePalmY4m(video, palm);
  return launchWithFakeCamera(playwright, video);
}
