// Every answer carries the security headers; HSTS only when the browser reached us over HTTPS.
// The browser side (the app works under them, no CSP violation) is e2e/security.e2e.ts.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../testing/databases';
import { type TestApp, anotherApp, createTestApp } from '../testing/test-app';
import { HSTS, PERMISSIONS_POLICY } from './security-headers';

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

  it('sends the policy headers on answers and on refusals, and no HSTS over plain HTTP', async () => {
    for (const response of [
      await t.app.inject({ method: 'GET', url: '/api/health' }),
      await t.app.inject({ method: 'GET', url: '/api/me' }),
      await t.app.inject({ method: 'POST', url: '/api/logout', headers: { 'sec-fetch-site': 'cross-site' } }),
    ]) {
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
      expect(response.headers['strict-transport-security']).toBeUndefined();
    }
    expect(PERMISSIONS_POLICY).toContain('camera=(self)');
    expect(PERMISSIONS_POLICY).toContain('microphone=(self)');
    expect(PERMISSIONS_POLICY).toContain('geolocation=()');
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
