import { errorMessages, type ErrorCode } from '@crw/core';

/** A failure whose code and message may be shown to the caller as they are. */
export class AppError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode;

  constructor(statusCode: number, code: ErrorCode, message: string = errorMessages[code]) {
    super(message);
    this.statusCode = statusCode;
    this.code = code;
  }
}
