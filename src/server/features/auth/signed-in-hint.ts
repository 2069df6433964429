// The signed-in hint (decision 002): a cookie the page can read, set and cleared with the session, so a
// visitor's browser knows without asking GET /api/me (and reading a 401) that nobody is signed in. It
// grants nothing: every request is still judged by the httpOnly session cookie alone.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SIGNED_IN_HINT_COOKIE } from '../../../shared/constants';
import { SESSION_MAX_AGE_MS, type Sessions } from '../../http/sessions';

const hasHint = (request: FastifyRequest) => request.cookies[SIGNED_IN_HINT_COOKIE] !== undefined;

/** Beside a session that starts now (sign-in, a new account), or one found without it (GET /api/me). */
export function setSignedInHint(sessions: Sessions, request: FastifyRequest, reply: FastifyReply): void {
  reply.setCookie(SIGNED_IN_HINT_COOKIE, '1', {
    ...sessions.cookieOptions(request),
    httpOnly: false,
    signed: false,
    maxAge: SESSION_MAX_AGE_MS / 1000,
  });
}

export function clearSignedInHint(reply: FastifyReply): void {
  reply.clearCookie(SIGNED_IN_HINT_COOKIE, { path: '/' });
}

/**
 * GET /api/me keeps the hint true: set when a session has none (one made before the hint existed), cleared
 * when it names no session any more (expired, or ended by deleting the account).
 */
export function syncSignedInHint(sessions: Sessions, request: FastifyRequest, reply: FastifyReply, signedIn: boolean): void {
  if (signedIn && !hasHint(request)) setSignedInHint(sessions, request, reply);
  if (!signedIn && hasHint(request)) clearSignedInHint(reply);
}
