import { errorStatus, type ErrorCode } from '@hasta/contracts/errors';
import { messages, type MessageKey } from '@hasta/contracts/messages';

/**
 * The one error type a handler throws on purpose. Its code decides the status; its message comes from the
 * spec's catalogue and is what the caller reads.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;

  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.statusCode = errorStatus[code];
  }

  static of(code: ErrorCode, key: MessageKey): AppError {
    return new AppError(code, messages[key]);
  }
}
