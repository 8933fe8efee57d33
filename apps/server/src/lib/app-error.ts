import { errorStatus, type ErrorCode } from '@hasta/contracts/errors';
import { messages, type MessageKey } from '@hasta/contracts/messages';

/**
 * The one error type a handler throws on purpose. Its code decides the status; its message comes from the
 * spec's catalogue and is what the caller reads.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  /** A refusal for now: when to try again, in whole seconds (answered as Retry-After). */
  readonly retryAfterS: number | undefined;

  constructor(code: ErrorCode, message: string, options: { retryAfterS?: number } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.statusCode = errorStatus[code];
    this.retryAfterS = options.retryAfterS;
  }

  static of(code: ErrorCode, key: MessageKey): AppError {
    return new AppError(code, messages[key]);
  }

  /** 429 with a catalogue message, to be tried again after `retryAfterMs` (rounded up, at least 1 s). */
  static retryLater(key: MessageKey, retryAfterMs: number): AppError {
    return new AppError('RATE_LIMITED', messages[key], {
      retryAfterS: Math.max(1, Math.ceil(retryAfterMs / 1000)),
    });
  }
}
