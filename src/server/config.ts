// Environment → typed configuration, with the embedded defaults that make `npm start` work on a fresh machine.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { DEFAULT_RAW_CLIP_RETENTION_DAYS } from '../shared/privacy';

export interface Config {
  port: number;
  host: string;
  /** Root of everything the app writes: the embedded database, media, the session secret. */
  dataDir: string;
  /** PostgreSQL server; unset means the embedded PGlite database under dataDir/db. */
  databaseUrl: string | undefined;
  sessionSecret: string;
  /** Mark the session cookie Secure. 'auto' does so when the request arrived over HTTPS. */
  cookieSecure: boolean | 'auto';
  /** Trust X-Forwarded-* from a reverse proxy (needed for Secure cookies and client addresses behind one). */
  trustProxy: boolean;
  logLevel: string;
  /** Where the built client lives; served when present. */
  clientDir: string;
  /** Run job workers in this process (npm start). Off for web processes when `npm run worker` runs elsewhere. */
  jobWorkers: boolean;
  /**
   * Jobs one process runs at once (over all queues). Default: one fewer than the cores (at least 1), so a
   * pipeline thread and a core stay free for what a parent waits for in a request (a face photo is
   * analysed before it is saved) and for the thread that answers HTTP.
   */
  jobConcurrency: number;
  /** Days a raw face clip is kept after its faces were extracted (RAW_CLIP_RETENTION_DAYS; 0 deletes it at once). */
  rawClipRetentionDays: number;
  /** Stripe (decision 017); payments are configured only when both keys are set. */
  stripe: StripeSettings;
  /** The public address used in Stripe's return URLs (APP_URL); unset = the request's protocol and host. */
  appUrl: string | undefined;
}

export interface StripeSettings {
  /** STRIPE_SECRET_KEY: the server's key (sk_...). */
  secretKey: string | undefined;
  /** STRIPE_PUBLISHABLE_KEY: the browser's key (pk_...), sent by GET /api/payments/config. */
  publishableKey: string | undefined;
  /** STRIPE_WEBHOOK_SECRET: signs what Stripe posts to /api/stripe/webhook (whsec_...); without it every webhook is refused. */
  webhookSecret: string | undefined;
  /** STRIPE_PRICE_PREMIUM / STRIPE_PRICE_FAMILY: the monthly Price ids; subscriptions are offered only when both are set. */
  pricePremium: string | undefined;
  priceFamily: string | undefined;
  /** STRIPE_API_URL: where the SDK sends its calls (stripe-mock, a test's stand-in); unset = api.stripe.com. */
  apiUrl: string | undefined;
}

function readSessionSecret(dataDir: string, fromEnv: string | undefined): string {
  if (fromEnv) {
    if (fromEnv.length < 32) throw new Error('SESSION_SECRET must be at least 32 characters');
    return fromEnv;
  }
  // Persist a generated secret so sessions survive restarts without any setup.
  const file = path.join(dataDir, 'session-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    const secret = randomBytes(48).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  }
}

/** An http(s) address without a trailing slash, or undefined when unset. */
function httpUrl(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error(`${name} must be an http(s) address, got ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name} must be an http(s) address, got ${value}`);
  return url.toString().replace(/\/+$/, '');
}

function parseBoolean(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}

function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`${name} must be a whole number of at least 1, got ${value}`);
  return number;
}

function wholeNumber(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw new Error(`${name} must be a whole number of at least 0, got ${value}`);
  return number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, appRoot = process.cwd()): Config {
  const dataDir = path.resolve(appRoot, env.DATA_DIR ?? 'data');
  mkdirSync(dataDir, { recursive: true });
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const secure = env.COOKIE_SECURE;
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    sessionSecret: readSessionSecret(dataDir, env.SESSION_SECRET),
    cookieSecure: secure === undefined || secure === '' || secure === 'auto' ? 'auto' : parseBoolean(secure, false),
    trustProxy: parseBoolean(env.TRUST_PROXY, false),
    logLevel: env.LOG_LEVEL ?? 'info',
    clientDir: path.resolve(appRoot, env.CLIENT_DIR ?? 'dist/client'),
    jobWorkers: parseBoolean(env.JOB_WORKERS, true),
    jobConcurrency: positiveInteger('JOB_CONCURRENCY', env.JOB_CONCURRENCY, Math.max(1, availableParallelism() - 1)),
    rawClipRetentionDays: wholeNumber('RAW_CLIP_RETENTION_DAYS', env.RAW_CLIP_RETENTION_DAYS, DEFAULT_RAW_CLIP_RETENTION_DAYS),
    stripe: {
      secretKey: env.STRIPE_SECRET_KEY || undefined,
      publishableKey: env.STRIPE_PUBLISHABLE_KEY || undefined,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
      pricePremium: env.STRIPE_PRICE_PREMIUM || undefined,
      priceFamily: env.STRIPE_PRICE_FAMILY || undefined,
      apiUrl: httpUrl('STRIPE_API_URL', env.STRIPE_API_URL),
    },
    appUrl: httpUrl('APP_URL', env.APP_URL),
  };
}
