// Errors carry the message the user reads; the error handler turns them into `{ message }` with a status.
import type { FastifyError, FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { ErrorCode } from '../../shared/api-types';
import { MESSAGES, firstIssueMessage } from '../../shared/validation';
import { pgErrorOf } from '../db/pg-error';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** What the client may act on besides the words (ERROR_CODES), sent as `code`. */
    readonly code?: ErrorCode,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message: string = MESSAGES.notSignedIn) => new HttpError(401, message);
export const forbidden = (message: string = MESSAGES.forbidden) => new HttpError(403, message);
/** A plan's limit was reached: 403 with `code: 'plan_limit'`, so the client can offer the upgrade. */
export const planLimit = (message: string) => new HttpError(403, message, {}, 'plan_limit');
export const notFound = (message: string = MESSAGES.notFound) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

/**
 * A route's `errorHandler` for a body over its `bodyLimit` (an inline file sent as a data URL): 413 in
 * the route's words about the file; every other error goes on to the app's handler.
 */
export function bodyTooLarge(message: string) {
  return (error: FastifyError) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw new HttpError(413, message);
    throw error;
  };
}

/** Parse a JSON request body with a shared zod schema; a failure is a 400 with the spec's message. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  if (input !== undefined && input !== null && (typeof input !== 'object' || Array.isArray(input))) {
    throw badRequest(MESSAGES.bodyNotObject);
  }
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw badRequest(firstIssueMessage(result.error));
  return result.data;
}

/** A positive integer id from a route parameter. */
export function parseId(value: string): number {
  if (!/^[1-9]\d{0,9}$/.test(value) || Number(value) > 2_147_483_647) throw badRequest(MESSAGES.invalidId);
  return Number(value);
}

/**
 * A multipart body the parser cannot read (no boundary, no closing boundary, a broken part header) is
 * the client's fault, not ours; busboy says so only in words. A body cut off inside a file fails that
 * file's stream ("Part terminated early ..."), which the route was writing to disk.
 */
function isMalformedMultipart(error: Error): boolean {
  return /^(Unexpected end of (form|multipart data)|(Part|Preamble) terminated early due to unexpected end of multipart data|Multipart: Boundary not found|Malformed part header)/.test(
    error.message,
  );
}

/**
 * Text the database cannot store: 22021 (a NUL, which PostgreSQL and PGlite refuse in text) and 22P05.
 * The shared schemas refuse control characters in every field they know (cleanText); this answers for
 * any text that reaches the database without one.
 */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).headers(error.headers).send(error.code ? { message: error.message, code: error.code } : { message: error.message });
    }
    const status = error.statusCode ?? 500;
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (status === 400 && error instanceof SyntaxError)) {
      return reply.status(400).send({ message: MESSAGES.invalidJson });
    }
    if (isMalformedMultipart(error)) return reply.status(400).send({ message: MESSAGES.malformedUpload });
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (body too large, bad content type, ...) have readable messages.
      return reply.status(status).send({ message: error.message });
    }
    // The client went away mid-request (an upload cancelled, a tab closed): nothing failed on our side.
    if (request.raw.aborted || request.raw.socket?.destroyed) {
      request.log.info({ code: error.code, message: error.message }, 'the client closed the connection before the request was complete');
      return reply.status(400).send({ message: MESSAGES.malformedUpload });
    }
    const state = pgErrorOf(error)?.code;
    if (state && UNSTORABLE_TEXT.has(state)) return reply.status(400).send({ message: MESSAGES.unusableCharacters });
    // The err serializer (log-options.ts) leaves out the failed query's parameters.
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: 'Something went wrong on our side. Please try again.' });
  });
}
