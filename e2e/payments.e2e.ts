// Payments and plans in Chromium (issue 18). First a server without Stripe's keys: the Checkout page and the
// plan section say 'Payments are not configured on this server.' and offer nothing that looks like a
// payment; a Free parent at 1 of 1 people meets the limit, with Upgrade, before any form; a premium
// template on the Create page offers Purchase and Upgrade; an admin's counters read 'Unlimited (admin)'.
// Then the same data on a server with test keys whose Stripe SDK talks to the local stand-in: Stripe.js
// cannot load here, so Checkout says 'Failed to initialize payment' and returns to the library; Upgrade
// leads to the Checkout Session the stand-in made (intercepted: nothing leaves the machine); a purchase and
// a subscription recorded by webhooks signed with the SDK's own helper change what the pages offer.
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CurrentUser, VideoTemplate } from '../src/shared/api-types';
import { peopleLimitMessage } from '../src/shared/media-rules';
import { PAYMENT_MESSAGES, type PaymentIntentResponse } from '../src/shared/payments';
import { type StripeStandIn, signWebhook, startStripeStandIn, stripeEvent } from '../src/server/testing/stripe-stand-in';
import { imagesLoaded, launchBrowser, MOBILE, newPage, type RunningServer, screenshot, SCREENSHOT_DIR, startServer, uniqueAccount } from './harness';

const KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_x',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
  STRIPE_WEBHOOK_SECRET: 'whsec_x',
  // Two different prices, so the webhook can tell Premium from Family Pack.
  STRIPE_PRICE_PREMIUM: 'price_premium_x',
  STRIPE_PRICE_FAMILY: 'price_family_x',
};

let workDir: string;
let dataDir: string;
let clientDir: string;
let browser: Browser;
let server: RunningServer;
let premium: VideoTemplate;
const admin = uniqueAccount('admin');
const parent = uniqueAccount('parent');

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), 'familystar-e2e-payments-'));
  // Its own copy of the built client, so a build by someone else mid-run changes nothing here.
  clientDir = path.join(workDir, 'client');
  cpSync('dist/client', clientDir, { recursive: true });
  // One data folder for both servers: the second starts on the accounts and templates of the first.
  dataDir = path.join(workDir, 'data');
  server = await startServer({ dataDir, env: { CLIENT_DIR: clientDir, DEMO_TEMPLATES: 'auto' } });
  browser = await launchBrowser();
  const request = await browser.newContext({ baseURL: server.baseUrl });
  try {
    // The first account of an installation is the admin; the demo library is made after it.
    expect((await request.request.post('/api/register', { data: admin })).status()).toBe(201);
    const started = Date.now();
    for (;;) {
      const list = (await (await request.request.get('/api/videoTemplates')).json()) as VideoTemplate[];
      const found = list.find((template) => template.isPremium);
      if (found && list.length >= 3) {
        premium = found;
        break;
      }
      if (Date.now() - started > 150_000) throw new Error('the demo templates did not appear within 150 s');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  } finally {
    await request.close();
  }
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
  console.log(`Screenshots written to ${SCREENSHOT_DIR}`);
});

const toasts = (page: Page) => page.getByRole('region', { name: /Notifications/, includeHidden: true });
const planSection = (page: Page) => page.locator('#plan');

/** The plan section alone (a full-page picture of a scrolled page draws the sticky header mid-page). */
async function planShot(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await planSection(page).screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

async function signIn(context: BrowserContext, account: { username: string; password: string }): Promise<CurrentUser> {
  const response = await context.request.post('/api/login', { data: { username: account.username, password: account.password } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as CurrentUser;
}

/** Nothing leaves the machine: Stripe.js fails to load, Stripe's own pages are answered here. */
async function keepStripeLocal(context: BrowserContext, { stripeJsDelayMs = 0 } = {}) {
  await context.route(/^https:\/\/js\.stripe\.com\//, async (route) => {
    if (stripeJsDelayMs) await new Promise((resolve) => setTimeout(resolve, stripeJsDelayMs));
    await route.abort('internetdisconnected');
  });
  await context.route(/^https:\/\/(checkout|billing)\.stripe\.com\//, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Stripe (stand-in)</title><h1>Stripe (stand-in)</h1>' }),
  );
}


async function premiumTab(page: Page) {
  await page.goto('/library');
  await page.getByRole('tab', { name: 'Premium' }).click();
  const card = page.getByRole('tabpanel').getByTestId('template-card').filter({ hasText: premium.title });
  await card.waitFor();
  return card;
}

async function withPage<T>(name: string, run: (context: BrowserContext, page: Page) => Promise<T>, viewport?: typeof MOBILE): Promise<T> {
  const { context, page } = await newPage(browser, server.baseUrl, viewport);
  page.on('pageerror', (error) => console.error('page error:', error.message));
  try {
    await keepStripeLocal(context);
    return await run(context, page);
  } catch (error) {
    await screenshot(page, `payments-${name}-failure`).catch(() => undefined);
    throw error;
  } finally {
    await context.close();
  }
}

describe('a server without Stripe keys', () => {
  it('says payments are not configured on the Checkout page and in the plan section', async () => {
    await withPage('not-configured', async (context, page) => {
      expect((await context.request.post('/api/register', { data: parent })).status()).toBe(201);
      expect(await (await context.request.get('/api/payments/config')).json()).toEqual({ configured: false, publishableKey: null, subscriptions: false });

      await page.goto(`/checkout/${premium.id}`);
      await page.getByRole('heading', { name: 'Checkout' }).waitFor();
      await page.getByRole('heading', { name: premium.title }).waitFor();
      await page.getByText(PAYMENT_MESSAGES.notConfigured).waitFor();
      await page.getByText(`$${premium.price!.toFixed(2)}`).waitFor();
      // No card form, no Pay button: nothing pretends a payment could happen.
      expect(await page.getByRole('button', { name: /^Pay / }).count()).toBe(0);
      const backs = page.getByRole('link', { name: 'Back to Video Library' });
      expect(await backs.count()).toBe(2);
      await imagesLoaded(page);
      await screenshot(page, 'payments-checkout-not-configured');
      await backs.last().click();
      await page.waitForURL((url) => url.pathname === '/library');

      await page.goto('/profile#plan');
      const plan = planSection(page);
      await plan.getByRole('heading', { name: 'Your plan: Free' }).waitFor();
      await plan.getByText(PAYMENT_MESSAGES.notConfigured).waitFor();
      await plan.getByText('0 of 1').waitFor();
      expect(await plan.getByRole('button').count()).toBe(0);
      await planShot(page, 'payments-plan-free-not-configured');
    });
  });

  it('shows a Free parent at 1 of 1 the limit, with Upgrade, before any form', async () => {
    await withPage('people-limit', async (context, page) => {
      await signIn(context, parent);
      const created = await context.request.post('/api/people', { data: { name: 'Grandma Rose', relationship: 'Grandmother' } });
      expect(created.status(), await created.text()).toBe(201);

      await page.goto('/people');
      await page.getByText('1 of 1 on Free').waitFor();
      await page.getByRole('button', { name: 'Add Person' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Room for more people' });
      await dialog.getByText(peopleLimitMessage('Free', 1)).waitFor();
      expect(await page.getByRole('dialog', { name: 'Add New Person' }).count()).toBe(0);
      expect(await page.getByLabel('Name').count()).toBe(0);
      await page.waitForTimeout(300); // the dialog's pop-in animation
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'payments-people-limit.png') });
      await page.setViewportSize(MOBILE);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'payments-people-limit-mobile.png') });
      await dialog.getByRole('link', { name: 'Upgrade' }).click();
      await page.waitForURL((url) => url.pathname === '/profile' && url.hash === '#plan');
      await planSection(page).getByText('1 of 1').waitFor();
    });
  });

  it('offers Purchase for a premium template in the library and on the Create page', async () => {
    await withPage('premium-locked', async (context, page) => {
      await signIn(context, parent);
      const card = await premiumTab(page);
      expect(await card.getByRole('link', { name: `Purchase ${premium.title}` }).getAttribute('href')).toBe(`/checkout/${premium.id}`);
      expect(await card.getByRole('link', { name: /Use This Template/ }).count()).toBe(0);
      await imagesLoaded(page);
      await screenshot(page, 'payments-library-premium-free');

      // Straight to the Create page: the premium rule and its two ways out, not a form filled in vain.
      await page.goto(`/process/${premium.id}`);
      const locked = page.getByRole('region', { name: 'Premium template' });
      await locked.getByText(PAYMENT_MESSAGES.premiumRequired).waitFor();
      expect(await locked.getByRole('link', { name: /^Purchase/ }).getAttribute('href')).toBe(`/checkout/${premium.id}`);
      expect(await locked.getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe('/profile#plan');
      expect(await page.getByRole('button', { name: 'Create My Video' }).count()).toBe(0);
      await imagesLoaded(page);
      await screenshot(page, 'payments-create-premium-locked');
    });
  });

  it("reads 'Unlimited (admin)' for an admin, who may use every premium template", async () => {
    await withPage('admin', async (context, page) => {
      await signIn(context, admin);
      await page.goto('/profile#plan');
      const plan = planSection(page);
      // A full page load: the shell, the profile's chunk, the user and the plan's figures (vitest's poll waits 1 s by default).
      await expect.poll(() => plan.getByText('Unlimited (admin)').count(), { timeout: 15_000 }).toBe(2);
      expect(await plan.getByRole('button').count()).toBe(0);
      await planShot(page, 'payments-plan-admin');

      const card = await premiumTab(page);
      await card.getByRole('link', { name: `Use This Template: ${premium.title}` }).waitFor();
      await page.getByText('As an admin you may use every premium template').waitFor();
      await imagesLoaded(page);
      await screenshot(page, 'payments-library-premium-admin');

      // Admins are never limited: Add Person opens the form.
      await page.goto('/people');
      await page.getByText(/Unlimited \(admin\)/).waitFor();
      await page.getByRole('button', { name: 'Add Person' }).first().click();
      await page.getByRole('dialog', { name: 'Add New Person' }).waitFor();
    });
  });
});

describe('a server with test keys and the Stripe stand-in', () => {
  let standIn: StripeStandIn;

  beforeAll(async () => {
    await server.stop();
    standIn = await startStripeStandIn();
    server = await startServer({ dataDir, env: { CLIENT_DIR: clientDir, DEMO_TEMPLATES: 'off', STRIPE_API_URL: standIn.url, ...KEYS } });
  }, 120_000);

  afterAll(async () => {
    await standIn?.close();
  });

  /** Posts an event to the server's webhook, signed as Stripe signs it (the server's check is the real one). */
  async function sendWebhook(type: string, object: Record<string, unknown>) {
    const payload = JSON.stringify(stripeEvent(type, object));
    const response = await fetch(`${server.baseUrl}/api/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signWebhook(payload, { secret: KEYS.STRIPE_WEBHOOK_SECRET }) },
      body: payload,
    });
    expect(response.status, await response.text()).toBe(200);
  }

  it("shows 'Failed to initialize payment' when Stripe.js cannot load, and returns to the library", async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    try {
      // Stripe.js fails a moment late, so the page can be seen preparing the card form.
      await keepStripeLocal(context, { stripeJsDelayMs: 1500 });
      await signIn(context, parent);
      await page.goto(`/checkout/${premium.id}`);
      await page.getByText('Preparing a secure card form').waitFor();
      await imagesLoaded(page);
      await screenshot(page, 'payments-checkout-preparing');
      await toasts(page).getByText(PAYMENT_MESSAGES.initializeFailed).waitFor();
      await page.waitForURL((url) => url.pathname === '/library');
      await page.getByRole('heading', { name: 'Video Library' }).waitFor();
      await screenshot(page, 'payments-checkout-failed-library');
      // Stripe.js first: no payment intent is made for a page that could not take the card.
      expect(standIn.requestsTo('POST /v1/payment_intents')).toHaveLength(0);
    } catch (error) {
      await screenshot(page, 'payments-stripe-js-failure').catch(() => undefined);
      throw error;
    } finally {
      await context.close();
    }
  });

  it("lets a bought premium template be used: 'Use This Template' once Stripe's webhook confirms it", async () => {
    await withPage('purchase', async (context, page) => {
      const user = await signIn(context, parent);
      // The payment intent as the Checkout page would ask for it (Stripe.js cannot confirm it here).
      const response = await context.request.post('/api/create-payment-intent', { data: { templateId: premium.id, amount: 0.01 } });
      expect(response.status(), await response.text()).toBe(200);
      const intent = (await response.json()) as PaymentIntentResponse;
      expect(intent.amount).toBe(premium.price);
      const stored = standIn.paymentIntents.get(intent.clientSecret.split('_secret_')[0]!)!;
      expect(stored.metadata).toMatchObject({ userId: String(user.id), templateId: String(premium.id) });

      // Before the webhook: still for sale.
      let card = await premiumTab(page);
      await card.getByRole('link', { name: `Purchase ${premium.title}` }).waitFor();

      await sendWebhook('payment_intent.succeeded', { ...stored, status: 'succeeded' });
      card = await premiumTab(page);
      await card.getByRole('link', { name: `Use This Template: ${premium.title}` }).waitFor();
      expect(await card.getByRole('link', { name: `Purchase ${premium.title}` }).count()).toBe(0);
      await imagesLoaded(page);
      await screenshot(page, 'payments-library-premium-purchased');

      // The Create page opens its form; the Checkout page has nothing more to sell.
      await page.goto(`/process/${premium.id}`);
      await page.getByRole('button', { name: 'Create My Video' }).waitFor();
      await page.goto(`/checkout/${premium.id}`);
      await page.getByText(PAYMENT_MESSAGES.alreadyOwned).waitFor();
      await page.getByRole('link', { name: 'Use This Template' }).waitFor();
      await imagesLoaded(page);
      await screenshot(page, 'payments-checkout-already-owned');
    });
  });

  it('upgrades through Stripe Checkout, then manages the subscription in the portal', async () => {
    await withPage('subscription', async (context, page) => {
      const user = await signIn(context, parent);
      await page.goto('/profile#plan');
      const plan = planSection(page);
      await plan.getByRole('heading', { name: 'Your plan: Free' }).waitFor();
      const upgrade = plan.getByRole('button', { name: 'Upgrade to Premium' });
      await upgrade.waitFor();
      await plan.getByRole('button', { name: 'Upgrade to Family Pack' }).waitFor();
      expect(await plan.getByText(PAYMENT_MESSAGES.notConfigured).count()).toBe(0);
      await planShot(page, 'payments-plan-free-configured');

      await upgrade.click();
      await page.waitForURL(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
      const sessionId = new URL(page.url()).pathname.split('/').pop()!;
      const session = standIn.checkoutSessions.get(sessionId)!;
      expect(session).toMatchObject({ mode: 'subscription', client_reference_id: String(user.id) });
      expect(JSON.stringify(session.line_items)).toContain(KEYS.STRIPE_PRICE_PREMIUM);

      // Stripe confirms: the subscription starts, and the parent comes back to the plan section.
      const subscription = standIn.addSubscription({ customer: String(session.customer), price: KEYS.STRIPE_PRICE_PREMIUM, status: 'active' });
      await sendWebhook('checkout.session.completed', { ...session, status: 'complete', subscription: subscription.id });
      await page.goto('/profile?checkout=success#plan');
      await plan.getByRole('heading', { name: /^Your plan: Premium/ }).waitFor();
      await plan.getByText('Thank you!').waitFor();
      await plan.getByText('Your Premium subscription is on').waitFor();
      expect(await plan.getByRole('button', { name: /^Upgrade/ }).count()).toBe(0);
      const manage = plan.getByRole('button', { name: 'Manage subscription' });
      await manage.waitFor();
      await plan.getByText('1 of 5').waitFor();
      await planShot(page, 'payments-plan-subscribed');
      await page.setViewportSize(MOBILE);
      await planShot(page, 'payments-plan-subscribed-mobile');

      await manage.click();
      await page.waitForURL(/^https:\/\/billing\.stripe\.com\/p\/session\//);
      expect(standIn.requestsTo('POST /v1/billing_portal/sessions').at(-1)?.body).toMatchObject({ customer: session.customer });
    });
  });
});
