import type { Message } from '@vigil/contract';
import type { Camelize } from './case';

/**
 * How a call failed (the codes follow the usual HTTP-client names):
 * the server could not be reached, the call timed out or was cancelled, the server refused it
 * (4xx) or failed (5xx), or the call could not even be made.
 */
export type ApiErrorCode =
  | 'ERR_NETWORK'
  | 'ECONNABORTED'
  | 'ERR_CANCELED'
  | 'ERR_BAD_REQUEST'
  | 'ERR_BAD_RESPONSE'
  | 'ERR_BAD_OPTION'
  | 'ERR_UNSUPPORTED_PROTOCOL';

export type ServerMessage = Camelize<Message>;

/** A failed call. `status` is 0 when no answer came. */
export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly status: number;
  /** Field name (camelCase) → problems, from a 400 answer `{errors: {field: [...]}}`; `nonFieldErrors` holds the rest. */
  readonly fieldErrors: Record<string, string[]>;
  /** Notifications the answer carried. */
  readonly messages: ServerMessage[];
  /** The server's own sentence (`detail`), when it gave one. */
  readonly detail: string | null;
  /** Whether the client already showed this failure in a notification (a form then does not repeat it). */
  notified = false;

  constructor(
    code: ApiErrorCode,
    message: string,
    details: {
      status?: number;
      fieldErrors?: Record<string, string[]>;
      messages?: ServerMessage[];
      detail?: string | null;
      cause?: unknown;
    } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'ApiError';
    this.code = code;
    this.status = details.status ?? 0;
    this.fieldErrors = details.fieldErrors ?? {};
    this.messages = details.messages ?? [];
    this.detail = details.detail ?? null;
  }

  /** The first problem of a field, or of the form as a whole for `nonFieldErrors`. */
  fieldError(field: string): string | undefined {
    return this.fieldErrors[field]?.[0];
  }
}

/** Whether a failure is a cancelled call, which is never shown to anybody. */
export function isCancelled(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'ERR_CANCELED';
}

/** Whether a failure came with field errors a form should show beside its fields. */
export function hasFieldErrors(error: unknown): error is ApiError {
  return error instanceof ApiError && Object.keys(error.fieldErrors).length > 0;
}
