// Refuses writes a browser sends on behalf of another site or origin (request forgery). SameSite=Lax
// does not help against a sibling app on another port or subdomain: to the browser that is the same
// site, so the session cookie goes along with its no-cors form posts. Decision 015.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MESSAGES } from '../../shared/validation';
import { forbidden } from './errors';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** This server's own origin as the browser sees it (with TRUST_PROXY, the forwarded host and scheme). */
function ownOrigin(request: FastifyRequest): string | undefined {
  try {
    // URL lower-cases the host and drops a default port, as a browser's Origin header does.
    return new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return undefined;
  }
}

/**
 * Whether the browser says the request comes from elsewhere. Sec-Fetch-Site is the browser's own word
 * (every current browser sends it) and does not depend on how a proxy rewrites Host; Origin is the
 * fallback for older ones. `none` (typed in the address bar) is refused too: nobody types a POST.
 * A request with neither header did not come from a browser page (curl, a server, a webhook).
 */
export function fromAnotherOrigin(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site !== 'same-origin';
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  // "null" (a sandboxed frame, a redirect from elsewhere) never equals an origin.
  return origin !== ownOrigin(request);
}

/**
 * Every write a browser sends from another origin is refused before its body is read, signed in or
 * not: a sign-in posted from a sibling site would put the victim in the attacker's account (login
 * forgery). Server-to-server calls (a payment webhook) carry neither header and pass.
 */
export function refuseCrossSiteWrites(app: FastifyInstance): void {
  // A callback hook, not an async one: every request passes here, and a promise each costs a GET (issue 19 §1).
  app.addHook('onRequest', (request, _reply, done) => {
    if (!WRITES.has(request.method) || !fromAnotherOrigin(request)) return done();
    request.log.warn(
      { origin: request.headers.origin, secFetchSite: request.headers['sec-fetch-site'], host: request.host },
      'write from another origin refused',
    );
    done(forbidden(MESSAGES.crossSiteRequest));
  });
}
