// The headers every answer carries: helmet's set with our CSP, HSTS only over HTTPS, and a
// Permissions-Policy. Decision 015.
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

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

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(fastifyHelmet, {
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
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    // request.protocol follows X-Forwarded-Proto when TRUST_PROXY is set.
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
}
