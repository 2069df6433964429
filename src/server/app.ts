// buildApp({ config, db, storage, queue, pipeline }) → a Fastify instance with every route. main.ts and the tests both build it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { DEFAULT_RAW_CLIP_RETENTION_DAYS } from '../shared/privacy';
import type { Config } from './config';
import type { Db } from './db/open';
import { adminRoutes } from './features/admin/routes';
import { authRoutes } from './features/auth/routes';
import { faceRoutes } from './features/faces/routes';
import { mediaRoutes } from './features/media/routes';
import { paymentRoutes } from './features/payments/routes';
import { createPayments } from './features/payments/stripe';
import { peopleRoutes } from './features/people/routes';
import { privacyRoutes } from './features/privacy/routes';
import { templateAdminRoutes } from './features/templates/admin-routes';
import { templateRoutes } from './features/templates/routes';
import { userRoutes } from './features/users/routes';
import { videoRoutes } from './features/videos/routes';
import { voiceOnlyRoutes } from './features/videos/voice-only';
import { voiceRoutes } from './features/voices/routes';
import { REQUEST_TIMEOUTS, type RequestTimeouts, registerEarlyChecks } from './http/early-checks';
import { registerErrorHandler } from './http/errors';
import { loggerOptions } from './http/log-options';
import { refuseCrossSiteWrites } from './http/same-site';
import { registerSecurityHeaders } from './http/security-headers';
import type { SessionCacheStats } from './http/session-cache';
import { createSessions } from './http/sessions';
import { createMediaLinkSigner } from './http/signed-links';
import type { JobQueue } from './jobs/queue';
import type { PipelinePool } from './pipeline/worker-pool';
import type { Storage } from './storage/storage';

export interface AppDeps {
  config: Pick<Config, 'sessionSecret' | 'cookieSecure' | 'trustProxy' | 'logLevel' | 'clientDir'> &
    Partial<Pick<Config, 'rawClipRetentionDays' | 'appUrl'>> & { stripe?: Partial<Config['stripe']> };
  db: Db;
  storage: Storage;
  /** Where routes send background work (face extraction, voice analysis). */
  queue: JobQueue;
  /** Worker threads for work a request waits for (a face photo is analysed before it is saved). */
  pipeline: PipelinePool;
  /** Pass false in tests that do not want request logs. */
  logger?: boolean;
  /** Where log lines go instead of stdout (a test reading what was logged). */
  logStream?: { write(line: string): void };
  /** Shorter request and body timeouts for a test; production uses REQUEST_TIMEOUTS. */
  timeouts?: Partial<RequestTimeouts>;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db, storage, queue, pipeline, logger = true } = deps;
  const timeouts = { ...REQUEST_TIMEOUTS, ...deps.timeouts };
  const app = Fastify({
    logger: logger ? { ...loggerOptions(config.logLevel), ...(deps.logStream ? { stream: deps.logStream } : {}) } : false,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // A whole request (a 100 MB upload on a slow line) within requestMs, a quiet connection closed after
    // idleMs; Node looks at unfinished requests every connectionsCheckingInterval, and enforces neither
    // timeout when headersTimeout exceeds requestTimeout. A trickling body is cut sooner (early-checks.ts).
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.idleMs,
    http: {
      headersTimeout: Math.min(60_000, timeouts.requestMs),
      connectionsCheckingInterval: Math.min(30_000, Math.ceil(timeouts.requestMs / 4)),
    },
  });
  registerErrorHandler(app);
  // Every route as registered, so the access-matrix test walks the server's own table (access-matrix.test.ts).
  const routeTable: { method: string; url: string }[] = [];
  app.addHook('onRoute', ({ method, url }) => void routeTable.push(...[method].flat().map((m) => ({ method: m, url }))));
  app.decorate('routeTable', routeTable);

  await registerSecurityHeaders(app);
  refuseCrossSiteWrites(app);

  const sessions = createSessions(db, { secure: config.cookieSecure }, app.log);
  await sessions.startCache();
  app.addHook('onClose', () => sessions.closeCache());
  await app.register(fastifyCookie, { secret: config.sessionSecret });
  // After the cookie parser (an onRequest hook too), before any body is read.
  registerEarlyChecks(app, sessions, timeouts);
  // Uploads stream to disk (storage.writeTemp); routes pass tighter per-file limits where they have them.
  await app.register(fastifyMultipart, {
    limits: { fileSize: 100 * 1024 * 1024, files: 2, fields: 20, fieldSize: 64 * 1024 },
  });
  const payments = createPayments(config.stripe, config.appUrl);
  if (payments.stripe && !payments.webhookSecret) app.log.warn('Stripe keys are set but STRIPE_WEBHOOK_SECRET is not: no payment or subscription will ever be recorded');
  await app.register(
    async (api) => {
      const deps = {
        db,
        sessions,
        storage,
        queue,
        pipeline,
        mediaLinks: createMediaLinkSigner(config.sessionSecret),
        rawClipRetentionDays: config.rawClipRetentionDays ?? DEFAULT_RAW_CLIP_RETENTION_DAYS,
        payments,
      };
      api.get('/health', async () => ({ ok: true }));
      await api.register(authRoutes, deps);
      await api.register(userRoutes, deps);
      await api.register(templateRoutes, deps);
      await api.register(templateAdminRoutes, deps);
      await api.register(adminRoutes, deps);
      await api.register(mediaRoutes, deps);
      await api.register(peopleRoutes, deps);
      await api.register(faceRoutes, deps);
      await api.register(voiceRoutes, deps);
      await api.register(videoRoutes, deps);
      await api.register(voiceOnlyRoutes, deps);
      await api.register(privacyRoutes, deps);
      await api.register(paymentRoutes, deps);
    },
    { prefix: '/api' },
  );

  registerClient(app, config.clientDir);
  app.decorate('pruneSessions', () => sessions.prune());
  app.decorate('sessionCacheStats', () => sessions.cacheStats());
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    pruneSessions(): Promise<void>;
    /** Session lookups answered from this process's cache and from the database (decision 018). */
    sessionCacheStats(): SessionCacheStats;
    /** Method and URL of every route (HEAD included), in the order they were registered. */
    routeTable: readonly { method: string; url: string }[];
  }
}

/**
 * Serves the built client: hashed assets cached for a year; every other page path gets index.html so
 * the client's router decides. Unknown API paths and missing files are JSON 404s.
 */
function registerClient(app: FastifyInstance, clientDir: string) {
  const hasClient = existsSync(path.join(clientDir, 'index.html'));
  if (hasClient) {
    app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      preCompressed: true,
      index: false,
      setHeaders(reply, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    app.log.warn(`No built client in ${clientDir}; run "npm run build:client". Serving the API only.`);
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isPage = request.method === 'GET' && !pathname.startsWith('/api/') && !path.extname(pathname);
    if (hasClient && isPage) return reply.header('cache-control', 'no-cache').sendFile('index.html');
    return reply.status(404).send({ message: `No route for ${request.method} ${pathname}` });
  });
}
