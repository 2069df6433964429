// What is checked before a request's body is read (decision 015, Reading bodies): a visitor's post to a
// route that needs a session is refused at once instead of being parsed first (sixteen anonymous 28 MB
// posts once cost 360 MB); a body declared larger than its route takes is refused before a byte of it
// is read; and a body that trickles in is cut off instead of holding a connection for minutes.
import { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorCodes } from 'fastify';
import { HttpError, unauthorized } from './errors';
import type { Sessions } from './sessions';

export interface RequestTimeouts {
  /** Receiving a whole request, headers and body: 100 MB in 10 minutes is 1.4 Mbit/s, a slow home line. */
  requestMs: number;
  /** A body must bring at least `minBodyBytes` in every `bodyWindowMs`: a stalled or trickling body is cut. */
  minBodyBytes: number;
  bodyWindowMs: number;
  /** A connection quiet both ways this long is closed (Node's header timeout misses one that never sends a byte). */
  idleMs: number;
}

export const REQUEST_TIMEOUTS: RequestTimeouts = {
  requestMs: 10 * 60_000,
  // 16 KB a minute: any line that can upload at all does far more; one byte every 5 s is 12 bytes.
  minBodyBytes: 16 * 1024,
  bodyWindowMs: 60_000,
  // Longer than any answer takes to prepare (a template upload's checks), so only a dead connection goes.
  idleMs: 10 * 60_000,
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers visitors with a body (sign-in, registration, sign-out); every other one needs a session first. */
    public?: boolean;
    /** A multipart route's whole body at most (its files plus the form around them), and the words for more. */
    uploadLimit?: { bytes: number; message: string };
  }
}

/** Room for a multipart form's text fields, part headers and boundaries, beyond its files. */
const FORM_OVERHEAD_BYTES = 2 * 1024 * 1024;

/** The `uploadLimit.bytes` of a multipart route taking files of these sizes at most. */
export const uploadBodyBytes = (...fileMaxBytes: number[]) => fileMaxBytes.reduce((sum, bytes) => sum + bytes, FORM_OVERHEAD_BYTES);

const hasBody = (request: FastifyRequest) =>
  request.method !== 'GET' &&
  request.method !== 'HEAD' &&
  (request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0);

/** Most of a refused body has not been read: the connection closes after the answer instead of waiting for it. */
function refuse(error: Error, reply: { header(name: string, value: string): unknown }): never {
  reply.header('connection', 'close');
  throw error;
}

/**
 * An onRequest hook (it runs before the body is read), registered after the cookie parser. The session
 * lookup is sessions.currentUser's, which keeps the user on the request: the route's requireUser does
 * not query again.
 */
export function registerEarlyChecks(app: FastifyInstance, sessions: Sessions, timeouts: RequestTimeouts): void {
  // Requests without a body (most of them: every GET) leave at once, without the promise an async hook costs.
  app.addHook('onRequest', (request, reply, done) => {
    if (!hasBody(request)) return done();
    checkBeforeTheBody(request, reply).then(() => done(), done);
  });

  async function checkBeforeTheBody(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    cutSlowBody(request, timeouts);
    if (request.is404) return;
    const config = request.routeOptions.config;
    if (!config.public && !(await sessions.currentUser(request))) refuse(unauthorized(), reply);
    const declared = Number(request.headers['content-length']);
    // The multipart parser has not run yet (it sets request.isMultipart()): the header says what is coming.
    const multipart = /^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '');
    if (multipart && config.uploadLimit) {
      if (declared > config.uploadLimit.bytes) refuse(new HttpError(413, config.uploadLimit.message), reply);
    } else if (declared > request.routeOptions.bodyLimit) {
      // The route's own error handler words it ('File too large: ...'), as when the parser finds it.
      refuse(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(), reply);
    }
  }
}

/**
 * Closes the connection when the body brings less than `minBodyBytes` in a window, counted on the socket
 * so the body stream is left alone. A body waiting unread in our own buffer means the server is the slow
 * side (busy before it reads, or writing to disk), so that window does not count.
 */
function cutSlowBody(request: FastifyRequest, { minBodyBytes, bodyWindowMs }: RequestTimeouts): void {
  const { raw } = request;
  const socket = raw.socket;
  // app.inject's requests have no socket to count on (nor to trickle through).
  if (!(socket instanceof Socket)) return;
  let before = socket.bytesRead;
  const timer = setInterval(() => {
    if (raw.complete || socket.destroyed) return clearInterval(timer);
    const read = socket.bytesRead - before;
    before = socket.bytesRead;
    if (read >= minBodyBytes || raw.readableLength > 0) return;
    clearInterval(timer);
    request.log.warn({ bytesInWindow: read, windowMs: bodyWindowMs }, 'request body too slow; connection closed');
    socket.destroy();
  }, bodyWindowMs);
  timer.unref();
  raw.once('close', () => clearInterval(timer));
}
