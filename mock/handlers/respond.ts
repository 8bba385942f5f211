import { UUID_TEXT } from '../state/ids.ts';
import type { Context, MockResponse, ResponseCode } from '../types.ts';

/** A UUID as a request may send it, in either case. */
export const UUID = new RegExp(`^${UUID_TEXT}$`, 'i');

export function ok(body: unknown): MockResponse {
  return { status: 200, body };
}

/** Operations whose errors carry the page endpoints' body, `{requestUrl, message}`. */
const PAGE_ERRORS = /^\/site\/v1\/pages/;

/** An error in the contract's shape for the operation: `{requestUrl, message}` on pages, else `{message}`. */
export function fail(
  context: Context | undefined,
  status: number,
  message: string,
  code?: ResponseCode,
): MockResponse {
  const body =
    context && PAGE_ERRORS.test(context.operation.path)
      ? { requestUrl: context.requestUrl, message }
      : { message };
  return { status, body, ...(code ? { code } : {}) };
}

/** Quotes a value from the request in a message, shortened so a huge input never makes a huge reply. */
export function quote(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}

/** The answer when an image cannot be made after all: the request asked for it, so a 400, never a 5xx. */
export function untransformable(reason: string): MockResponse {
  return { status: 400, body: { message: `The image could not be transformed: ${reason}` } };
}
