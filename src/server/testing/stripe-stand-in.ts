// A local stand-in for the few Stripe endpoints FamilyStar calls, so the official SDK runs for real in
// tests without the network (decision 017). It speaks Stripe's wire format: form-encoded bodies with
// bracketed keys (`metadata[userId]=3`), Bearer keys, Idempotency-Key replays, JSON objects and errors.
// Every request is recorded for the tests to look at.
import { randomBytes } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import type { StripeSettings } from '../config';

export type StripeObject = Record<string, unknown> & { id: string };

export interface RecordedRequest {
  method: string;
  path: string;
  /** The decoded form body (nested objects and arrays as Stripe reads them). */
  body: Record<string, unknown>;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

export interface StripeStandIn {
  /** `http://127.0.0.1:<port>`, for STRIPE_API_URL. */
  url: string;
  requests: RecordedRequest[];
  paymentIntents: Map<string, StripeObject>;
  customers: Map<string, StripeObject>;
  checkoutSessions: Map<string, StripeObject>;
  portalSessions: Map<string, StripeObject>;
  subscriptions: Map<string, StripeObject>;
  /** A subscription as Stripe holds it once a Checkout Session completes (status and price given). */
  addSubscription(fields: { customer: string; price: string; status?: string; id?: string }): StripeObject;
  /** Every `METHOD /v1/path` (an id as `:id`) answers 500 until `down(route, false)`: Stripe out of order (the SDK's retries fail too). */
  down(route: string, isDown?: boolean): void;
  /** Requests to one route, e.g. `POST /v1/payment_intents`. */
  requestsTo(route: string): RecordedRequest[];
  close(): Promise<void>;
}

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** `a[b][0][c]=v` pairs → nested objects and arrays, as Stripe's API decodes them. */
export function decodeForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.split(/\[|\]\[|\]/).filter((part, index) => index === 0 || part !== '');
    let node: Record<string, unknown> | unknown[] = root;
    parts.forEach((part, index) => {
      const last = index === parts.length - 1;
      const slot = node as Record<string, unknown>;
      if (last) {
        slot[part] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(parts[index + 1]!);
      slot[part] ??= nextIsIndex ? [] : {};
      node = slot[part] as Record<string, unknown>;
    });
  }
  return root;
}

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = 'invalid_request_error',
    readonly code?: string,
  ) {
    super(message);
  }
}

const missing = (what: string, id: string) => new StripeApiError(404, `No such ${what}: '${id}'`, 'invalid_request_error', 'resource_missing');
const required = (param: string) => new StripeApiError(400, `Missing required param: ${param}.`, 'invalid_request_error', 'parameter_missing');

const now = () => Math.floor(Date.now() / 1000);

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: RecordedRequest[] = [];
  const paymentIntents = new Map<string, StripeObject>();
  const customers = new Map<string, StripeObject>();
  const checkoutSessions = new Map<string, StripeObject>();
  const portalSessions = new Map<string, StripeObject>();
  const subscriptions = new Map<string, StripeObject>();
  const downRoutes = new Set<string>();
  /** Stripe answers a repeated Idempotency-Key with the first answer. */
  const replays = new Map<string, StripeObject>();

  function subscriptionObject(fields: { customer: string; price: string; status?: string; id?: string }): StripeObject {
    const id = fields.id ?? newId('sub');
    return {
      id,
      object: 'subscription',
      customer: fields.customer,
      status: fields.status ?? 'active',
      created: now(),
      livemode: false,
      metadata: {},
      items: {
        object: 'list',
        data: [{ id: newId('si'), object: 'subscription_item', subscription: id, quantity: 1, price: { id: fields.price, object: 'price', recurring: { interval: 'month' } } }],
      },
    };
  }

  /** Answers one API call with the object it makes or finds. */
  function handle(method: string, path: string, body: Record<string, unknown>): StripeObject {
    const [, version, resource, ...rest] = path.split('/');
    if (version !== 'v1') throw new StripeApiError(404, `Unrecognized request URL (${method}: ${path}).`);
    const route = `${method} /v1/${[resource, ...rest].join('/')}`;
    const metadata = (body.metadata ?? {}) as Record<string, string>;

    if (route === 'POST /v1/payment_intents') {
      if (body.amount === undefined) throw required('amount');
      if (body.currency === undefined) throw required('currency');
      const amount = Number(body.amount);
      if (!Number.isInteger(amount) || amount < 50) throw new StripeApiError(400, 'Amount must be at least $0.50 usd', 'invalid_request_error', 'amount_too_small');
      const id = newId('pi');
      const intent: StripeObject = {
        id,
        object: 'payment_intent',
        amount,
        currency: String(body.currency),
        status: 'requires_payment_method',
        client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
        metadata,
        customer: body.customer ?? null,
        description: body.description ?? null,
        automatic_payment_methods: body.automatic_payment_methods ? { enabled: true } : null,
        created: now(),
        livemode: false,
      };
      paymentIntents.set(id, intent);
      return intent;
    }
    if (method === 'GET' && resource === 'payment_intents' && rest.length === 1) {
      const intent = paymentIntents.get(rest[0]!);
      if (!intent) throw missing('payment_intent', rest[0]!);
      return intent;
    }
    if (route === 'POST /v1/customers') {
      const customer: StripeObject = { id: newId('cus'), object: 'customer', email: body.email ?? null, name: body.name ?? null, metadata, created: now(), livemode: false };
      customers.set(customer.id, customer);
      return customer;
    }
    if (route === 'POST /v1/checkout/sessions') {
      if (!body.mode) throw required('mode');
      if (!body.success_url) throw required('success_url');
      if (typeof body.customer === 'string' && !customers.has(body.customer)) throw missing('customer', body.customer);
      const id = newId('cs_test');
      const session: StripeObject = {
        id,
        object: 'checkout.session',
        mode: body.mode,
        status: 'open',
        customer: body.customer ?? null,
        client_reference_id: body.client_reference_id ?? null,
        line_items: body.line_items ?? [],
        success_url: body.success_url,
        cancel_url: body.cancel_url ?? null,
        metadata,
        subscription: null,
        url: `https://checkout.stripe.com/c/pay/${id}`,
        created: now(),
        livemode: false,
      };
      checkoutSessions.set(id, session);
      return session;
    }
    if (route === 'POST /v1/billing_portal/sessions') {
      if (!body.customer) throw required('customer');
      if (!customers.has(String(body.customer))) throw missing('customer', String(body.customer));
      const id = newId('bps');
      const session: StripeObject = {
        id,
        object: 'billing_portal.session',
        customer: body.customer,
        return_url: body.return_url ?? null,
        url: `https://billing.stripe.com/p/session/${id}`,
        created: now(),
        livemode: false,
      };
      portalSessions.set(id, session);
      return session;
    }
    if (method === 'GET' && resource === 'subscriptions' && rest.length === 1) {
      const subscription = subscriptions.get(rest[0]!);
      if (!subscription) throw missing('subscription', rest[0]!);
      return subscription;
    }
    if (method === 'DELETE' && resource === 'subscriptions' && rest.length === 1) {
      // Cancelling at once, as an account's deletion does.
      const subscription = subscriptions.get(rest[0]!);
      if (!subscription) throw missing('subscription', rest[0]!);
      const cancelled = { ...subscription, status: 'canceled', canceled_at: now(), ended_at: now() };
      subscriptions.set(subscription.id as string, cancelled);
      return cancelled;
    }
    throw new StripeApiError(404, `Unrecognized request URL (${method}: ${path}).`);
  }

  function routeOf(method: string, path: string): string {
    return `${method} ${path.replace(/\/(pi|sub|cus|cs_test|bps)_[0-9a-zA-Z_]+$/, '/:id')}`;
  }

  async function respond(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const method = request.method ?? 'GET';
    const body = decodeForm(method === 'GET' ? url.search.slice(1) : Buffer.concat(chunks).toString('utf8'));
    const idempotencyKey = request.headers['idempotency-key'] as string | undefined;
    const recorded: RecordedRequest = { method, path: url.pathname, body, idempotencyKey, authorization: request.headers.authorization };
    requests.push(recorded);
    const send = (status: number, payload: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
      response.end(JSON.stringify(payload));
    };
    try {
      if (!/^Bearer sk_(test|live)_\S+$/.test(request.headers.authorization ?? '')) {
        throw new StripeApiError(401, 'Invalid API Key provided.', 'invalid_request_error');
      }
      const route = routeOf(method, url.pathname);
      if (downRoutes.has(route)) throw new StripeApiError(500, 'An unknown error occurred on our side.', 'api_error');
      const replay = method === 'POST' && idempotencyKey ? replays.get(idempotencyKey) : undefined;
      const answer = replay ?? handle(method, url.pathname, body);
      if (method === 'POST' && idempotencyKey) replays.set(idempotencyKey, answer);
      send(200, answer);
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      send(error.status, { error: { type: error.type, message: error.message, ...(error.code ? { code: error.code } : {}) } });
    }
  }

  const server = createServer((request, response) => {
    respond(request, response).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    paymentIntents,
    customers,
    checkoutSessions,
    portalSessions,
    subscriptions,
    addSubscription(fields) {
      const subscription = subscriptionObject(fields);
      subscriptions.set(subscription.id, subscription);
      return subscription;
    },
    down: (route, isDown = true) => void (isDown ? downRoutes.add(route) : downRoutes.delete(route)),
    requestsTo: (route) => requests.filter((request) => routeOf(request.method, request.path) === route),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The settings a test app takes payments with, pointed at the stand-in. */
export const STRIPE_TEST_SETTINGS = {
  secretKey: 'sk_test_familystar',
  publishableKey: 'pk_test_familystar',
  webhookSecret: 'whsec_familystar_test_secret',
  pricePremium: 'price_premium_monthly',
  priceFamily: 'price_family_monthly',
} as const;

export function stripeSettings(standIn: Pick<StripeStandIn, 'url'>, overrides: Partial<StripeSettings> = {}): StripeSettings {
  return { ...STRIPE_TEST_SETTINGS, apiUrl: standIn.url, ...overrides };
}

/** An event as Stripe posts it to a webhook endpoint. */
export function stripeEvent(type: string, object: Record<string, unknown>, id = newId('evt')) {
  return {
    id,
    object: 'event',
    type,
    api_version: Stripe.API_VERSION,
    created: now(),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  };
}

/** The Stripe-Signature header for a body, made by the SDK's own helper (the server's check is the real one). */
export function signWebhook(payload: string, options: { secret?: string; timestamp?: number } = {}): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? STRIPE_TEST_SETTINGS.webhookSecret, timestamp: options.timestamp });
}
