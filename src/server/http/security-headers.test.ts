// Every answer carries the security headers (pages the full set, the API the short one); HSTS only
// when the browser reached us over HTTPS.
// The browser side (the app works under them, no CSP violation) is e2e/security.e2e.ts.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../testing/databases';
import { type TestApp, anotherApp, createTestApp } from '../testing/test-app';
import { API_HEADERS, HSTS, PERMISSIONS_POLICY } from './security-headers';

const databases = await testDatabases();

describe.each(databases)('security headers on $name', (testDatabase) => {
  let t: TestApp;
  let proxied: FastifyInstance;

  beforeAll(async () => {
    t = await createTestApp(testDatabase);
    proxied = await anotherApp(t, { config: { trustProxy: true } });
  });
  afterAll(async () => {
    await proxied?.close();
    await t?.close();
  });

  it('sends the page headers on pages and the short API set on API answers and refusals, and no HSTS over plain HTTP', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/landing' });
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(page.headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
    expect(page.headers['strict-transport-security']).toBeUndefined();
    expect(PERMISSIONS_POLICY).toContain('camera=(self)');
    expect(PERMISSIONS_POLICY).toContain('microphone=(self)');
    expect(PERMISSIONS_POLICY).toContain('geolocation=()');

    for (const response of [
      await t.app.inject({ method: 'GET', url: '/api/health' }),
      await t.app.inject({ method: 'GET', url: '/api/me' }),
      await t.app.inject({ method: 'GET', url: '/api/no-such-route' }),
      await t.app.inject({ method: 'POST', url: '/api/logout', headers: { 'sec-fetch-site': 'cross-site' } }),
    ]) {
      expect(response.headers).toMatchObject(API_HEADERS);
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response.headers['permissions-policy']).toBeUndefined();
      expect(response.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('sends HSTS over HTTPS, which behind a trusted proxy is X-Forwarded-Proto', async () => {
    const viaProxy = (app: FastifyInstance, proto: string) =>
      app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': proto } });
    expect((await viaProxy(proxied, 'https')).headers['strict-transport-security']).toBe(HSTS);
    expect((await viaProxy(proxied, 'http')).headers['strict-transport-security']).toBeUndefined();
    // Without TRUST_PROXY the header is anyone's to send, and is ignored.
    expect((await viaProxy(t.app, 'https')).headers['strict-transport-security']).toBeUndefined();
  });
});
