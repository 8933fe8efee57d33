import { toCanvas, toDataURL } from 'qrcode';
import { useEffect, useRef, useState } from 'react';

/** Medium error correction: a printed code survives a smudge or a fold (about 15% of it). */
const ERROR_CORRECTION = 'M';
/** The quiet zone scanners need around a code, in modules. */
const QUIET_ZONE_MODULES = 4;

/** A PNG of the code as a data URL, at `size_px` square: what a store downloads and prints. */
export function qrPngDataUrl(text: string, size_px: number): Promise<string> {
  return toDataURL(text, {
    errorCorrectionLevel: ERROR_CORRECTION,
    margin: QUIET_ZONE_MODULES,
    width: size_px,
    type: 'image/png',
  });
}

interface QrCodeCanvasProps {
  /** What the code holds (a payment URI). */
  text: string;
  /** The accessible name of the image: what the code is for. */
  label: string;
  size_px?: number;
}

/** A QR code drawn on a canvas, black on white with its quiet zone. */
export function QrCodeCanvas({ text, label, size_px = 240 }: QrCodeCanvasProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (canvas === null) return;
    let current = true;
    toCanvas(canvas, text, {
      errorCorrectionLevel: ERROR_CORRECTION,
      margin: QUIET_ZONE_MODULES,
      width: size_px,
    }).then(
      () => {
        if (current) setFailed(false);
      },
      () => {
        if (current) setFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, [text, size_px]);

  return (
    <>
      <canvas
        ref={canvasRef}
        role="img"
        aria-label={label}
        width={size_px}
        height={size_px}
        className="mx-auto block h-auto max-w-full bg-white"
        data-qr-text={text}
      />
      {failed ? (
        <p role="alert" className="mt-2 text-sm font-medium text-red-800">
          This QR code could not be drawn.
        </p>
      ) : null}
    </>
  );
}
