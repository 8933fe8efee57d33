import type { Browser, PlaywrightWorkerArgs } from '@playwright/test';
import { test } from '@playwright/test';

import { writeQrY4m } from './y4m';

/**
 * A Chromium of its own whose camera films `text` as a QR code: Chromium's fake capture device plays a .y4m
 * file made before launch (the flag names a file that must already exist), and its fake UI grants camera
 * access. Launched with the project's own executable and flags plus those three.
 */
export async function launchWithQrCamera(
  playwright: PlaywrightWorkerArgs['playwright'],
  text: string,
  name: string,
): Promise<Browser> {
  const video = test.info().outputPath(`${name}.y4m`);
  writeQrY4m(video, text);
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
