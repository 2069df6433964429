// The headers every answer carries. Pages and their files: helmet's set with our CSP and a
// Permissions-Policy. The API's answers (JSON, media, the progress stream): the short set a document
// would need if one were opened on its own. HSTS on both, only over HTTPS. Decision 015.
import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';

/** Stripe.js and the Payment Element's frames (decision 017). */
const STRIPE_JS = 'https://js.stripe.com';
const STRIPE_HOOKS = 'https://hooks.stripe.com';
const STRIPE_API = 'https://api.stripe.com';

/**
 * The camera and microphone (face clips, voice recordings) are for our own pages only; nothing here
 * uses the rest. payment: our pages and Stripe's Payment Element, whose wallets (Apple Pay, Google Pay)
 * run in its iframe from js.stripe.com.
 */
export const PERMISSIONS_POLICY = [
  'camera=(self)',
  'microphone=(self)',
  `payment=(self "${STRIPE_JS}")`,
  'fullscreen=(self)',
  'geolocation=()',
  'display-capture=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'midi=()',
  'accelerometer=()',
  'gyroscope=()',
  'magnetometer=()',
  'browsing-topics=()',
].join(', ');

/** One year; without includeSubDomains, since a self-hosted install's other hosts are not ours to bind. */
export const HSTS = 'max-age=31536000';

/** Helmet's set, with our CSP. */
const HELMET_OPTIONS: FastifyHelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      'default-src': ["'self'"],
      // Stripe.js is loaded from Stripe (never bundled, PCI); its Payment Element is an iframe of
      // js.stripe.com, 3-D Secure pages come from hooks.stripe.com, and Stripe.js talks to api.stripe.com.
      'script-src': ["'self'", STRIPE_JS],
      'frame-src': ["'self'", STRIPE_JS, STRIPE_HOOKS],
      // Radix positions popovers with style attributes.
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': ["'self'", 'data:', 'blob:'],
      'media-src': ["'self'", 'blob:'],
      'connect-src': ["'self'", STRIPE_API],
      'upgrade-insecure-requests': null,
    },
  },
  // Media is embedded from our own origin only; COEP would get in the way of blob: players.
  crossOriginEmbedderPolicy: false,
  // Sent below, only over HTTPS: on plain HTTP it means nothing to a browser, and a proxy that adds
  // TLS later should not find a promise made by the plain port.
  strictTransportSecurity: false,
};

/**
 * Helmet's headers for our options, worked out once: @fastify/helmet rebuilds them (and parses the
 * CSP) on every request: ~25 µs of the ~60 µs a signed-in API call took. None depends on the request.
 */
async function helmetHeaders(): Promise<Record<string, string>> {
  const probe = Fastify();
  await probe.register(fastifyHelmet, HELMET_OPTIONS);
  probe.get('/', async (_request, reply) => reply.send());
  const { headers } = await probe.inject('/');
  await probe.close();
  const notHelmets = new Set(['content-length', 'content-type', 'date', 'connection', 'keep-alive']);
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !notHelmets.has(name)).map(([name, value]) => [name, String(value)]));
}

/**
 * For `/api/` answers, which are never pages: OWASP's set for REST answers. A JSON body, a photo or a
 * video opened in a tab of its own runs no script, loads nothing, cannot be framed (CSP
 * `default-src 'none'; frame-ancestors 'none'; sandbox`, as GitHub serves its raw files), is never
 * sniffed into HTML, and is never read by another site's page (CORP; a cast link opens that for
 * itself). The document policies (COOP, Permissions-Policy, the legacy X-headers) have nothing to act
 * on here, and the 1 KB they add was a third of a signed-in call's cost (decision 018).
 */
export const API_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
};

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const pageHeaders = Object.entries({ ...(await helmetHeaders()), 'permissions-policy': PERMISSIONS_POLICY });
  const apiHeaders = Object.entries(API_HEADERS);
  app.addHook('onRequest', (request, reply, done) => {
    const headers = request.url.startsWith('/api/') ? apiHeaders : pageHeaders;
    // On the raw response, as helmet did: a hijacked reply (the progress stream) carries them too.
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    // request.protocol follows X-Forwarded-Proto when TRUST_PROXY is set.
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    done();
  });
}
