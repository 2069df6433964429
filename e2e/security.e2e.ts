// Security in a real browser: a page on another port of the same host (a sibling app on a NAS) cannot
// write as the signed-in admin although the browser sends it the session cookie; the app's pages work
// under the CSP and Permissions-Policy with no violation, and carry the security headers.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VideoTemplate } from '../src/shared/api-types';
import { API_HEADERS } from '../src/server/http/security-headers';
import { filesUnder, fixtures } from '../src/server/testing/media-fixtures';
import { type RunningServer, SCREENSHOT_DIR, launchBrowser, newPage, screenshot, startServer, uniqueAccount } from './harness';

let server: RunningServer;
let browser: Browser;
let sibling: Server;
let siblingUrl: string;
let workDir: string;

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), 'familystar-e2e-security-'));
  // Its own copy of the built client, so a build by someone else mid-run changes nothing here.
  const clientDir = path.join(workDir, 'client');
  cpSync('dist/client', clientDir, { recursive: true });
  server = await startServer({ env: { CLIENT_DIR: clientDir } });
  // The app is at http://127.0.0.1:<port>; the sibling at http://127.0.0.1:<other port> is another
  // origin but the same site, so SameSite=Lax lets the session cookie go with its requests.
  sibling = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Sibling app</title><p>Another app on the same host</p>');
  });
  await new Promise<void>((resolve) => sibling.listen(0, '127.0.0.1', resolve));
  siblingUrl = `http://127.0.0.1:${(sibling.address() as { port: number }).port}`;
  // A fake camera and microphone: our own pages may use them.
  browser = await launchBrowser(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream']);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((resolve) => sibling?.close(resolve));
  if (workDir) rmSync(workDir, { recursive: true, force: true });
  console.log(`Screenshots written to ${SCREENSHOT_DIR}`);
});

/**
 * The browser's own record of each API call a page makes: the headers it really sent (cookies
 * included) and the status that came back. Read through the DevTools protocol, because the app's
 * Cross-Origin-Resource-Policy makes a no-cors answer a network error that Playwright shows without
 * either.
 */
async function recordApiCalls(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const sent = new Map<string, { method: string; url: string }>();
  const headers = new Map<string, Record<string, string>>();
  const statuses = new Map<string, number>();
  cdp.on('Network.requestWillBeSent', (event) => sent.set(event.requestId, { method: event.request.method, url: event.request.url }));
  cdp.on('Network.requestWillBeSentExtraInfo', (event) => headers.set(event.requestId, event.headers as Record<string, string>));
  cdp.on('Network.responseReceivedExtraInfo', (event) => statuses.set(event.requestId, event.statusCode));
  return () =>
    [...sent]
      .filter(([, request]) => request.url.startsWith(`${server.baseUrl}/api/`))
      .map(([id, request]) => ({
        call: `${request.method} ${new URL(request.url).pathname}`,
        headers: Object.fromEntries(Object.entries(headers.get(id) ?? {}).map(([name, value]) => [name.toLowerCase(), value])),
        status: statuses.get(id),
      }))
      .sort((a, b) => a.call.localeCompare(b.call));
}

async function signUpAdmin(context: BrowserContext) {
  const account = uniqueAccount('admin');
  const registered = await context.request.post(`${server.baseUrl}/api/register`, { data: account });
  expect(registered.status(), await registered.text()).toBe(201);
  const user = (await registered.json()) as { id: number; role: string };
  expect(user.role).toBe('admin'); // the first account of the installation
  return { account, user };
}

describe('writes from a sibling origin', () => {
  it('cannot sign the admin out, upload a face video or a featured template, although the cookie goes along', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    const { account, user } = await signUpAdmin(context);
    const person = await context.request.post('/api/people', { data: { name: 'Grandma Rose', relationship: 'Grandmother' } });
    expect(person.status(), await person.text()).toBe(201);
    const personId = ((await person.json()) as { id: number }).id;
    expect((await context.request.post(`/api/people/${personId}/consent`, { data: { basis: 'guardian' } })).status()).toBe(201);
    const templateCount = async () => ((await (await context.request.get('/api/admin/videoTemplates')).json()) as VideoTemplate[]).length;
    const templatesBefore = await templateCount();
    const mediaBefore = filesUnder(path.join(server.dataDir, 'media'));

    const apiCalls = await recordApiCalls(context, page);
    await page.goto(siblingUrl);
    await page.getByText('Another app on the same host').waitFor();
    // What a hostile page can do: no-cors writes with the browser's credentials, multipart included.
    await page.evaluate(
      async ({ appUrl, personId, userId, faceClip, templateClip }) => {
        const file = (base64: string, name: string) =>
          new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name, { type: 'video/mp4' });
        // The answers are unreadable either way (no-cors, and CORP makes them network errors); the
        // writes themselves are what an attacker is after.
        const send = (path: string, body?: FormData) =>
          fetch(appUrl + path, { method: 'POST', mode: 'no-cors', credentials: 'include', body }).catch(() => undefined);
        const face = new FormData();
        face.append('personId', String(personId));
        face.append('userId', String(userId));
        face.append('video', file(faceClip, 'face.mp4'));
        const template = new FormData();
        for (const [name, value] of Object.entries({
          title: 'Forged Template',
          description: 'Uploaded by a page on another port.',
          category: 'animals',
          ageRange: '2-4',
          featured: 'true',
          isPremium: 'false',
          voiceOnly: 'false',
        })) {
          template.append(name, value);
        }
        template.append('video', file(templateClip, 'farm.mp4'));
        await send('/api/upload/video', face);
        await send('/api/admin/videoTemplates/upload', template);
        await send('/api/logout');
      },
      {
        appUrl: server.baseUrl,
        personId,
        userId: user.id,
        faceClip: fixtures.mp4().toString('base64'),
        templateClip: fixtures.avMp4().toString('base64'),
      },
    );
    const calls = ['POST /api/admin/videoTemplates/upload', 'POST /api/logout', 'POST /api/upload/video'];
    await expect.poll(() => apiCalls().filter((sent) => sent.status !== undefined).map((sent) => sent.call)).toEqual(calls);
    for (const { call, headers, status } of apiCalls()) {
      // The attack is real: the browser sent the admin's session cookie, and says the page is same-site.
      expect(headers.cookie, call).toContain('familystar.sid=');
      expect(headers['sec-fetch-site'], call).toBe('same-site');
      expect(headers.origin, call).toBe(siblingUrl);
      expect(status, call).toBe(403);
    }

    // Nothing happened: still signed in, no template, no stored or half-stored file.
    expect((await context.request.get('/api/me')).status()).toBe(200);
    expect(await templateCount()).toBe(templatesBefore);
    expect(filesUnder(path.join(server.dataDir, 'media'))).toEqual(mediaBefore);
    expect(filesUnder(path.join(server.dataDir, 'tmp'))).toEqual([]);

    // The app's own page, in the same browser, still signs in and writes (its requests are same-origin).
    await page.goto(`${server.baseUrl}/`);
    await page.getByRole('heading', { name: `Welcome back, ${account.displayName}!` }).waitFor();
    const own = await page.evaluate(async () => {
      const response = await fetch('/api/people', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Grandpa Joe', relationship: 'Grandfather' }),
      });
      return response.status;
    });
    expect(own).toBe(201);
    await context.close();
  });
});

describe('headers and the content security policy', () => {
  it('walks the pages under the CSP and Permissions-Policy with no violation, and sends the headers', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) =>
        seen.push(`${event.violatedDirective} ${event.blockedURI} from ${event.sourceFile}:${event.lineNumber}`),
      );
    });
    const complaints: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Permissions.Policy|Feature.Policy|Refused to/i.test(message.text())) complaints.push(message.text());
    });
    page.on('pageerror', (error) => complaints.push(`page error: ${error.message}`));
    const violations = () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);

    const expectSecurityHeaders = (headers: Record<string, string>, what: string) => {
      expect(headers['content-security-policy'], what).toContain("default-src 'self'");
      expect(headers['content-security-policy'], what).toContain("script-src 'self'");
      expect(headers['x-content-type-options'], what).toBe('nosniff');
      expect(headers['referrer-policy'], what).toBe('no-referrer');
      expect(headers['permissions-policy'], what).toContain('camera=(self)');
      expect(headers['permissions-policy'], what).toContain('microphone=(self)');
      expect(headers['strict-transport-security'], what).toBeUndefined(); // plain HTTP
    };
    const visit = async (pathname: string, ready: () => Promise<unknown>) => {
      const response = await page.goto(pathname);
      expectSecurityHeaders(response!.headers(), pathname);
      await ready();
      expect(await violations(), pathname).toEqual([]);
    };

    await visit('/landing', () => page.getByText('Educational Videos Starring You').first().waitFor());
    await visit('/auth', () => page.getByRole('button', { name: 'Login' }).waitFor());
    // Sign in through the form: the client's own write goes through the same-site check.
    const account = uniqueAccount('parent');
    expect((await context.request.post('/api/register', { data: account })).status()).toBe(201);
    await context.clearCookies();
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('heading', { name: `Welcome back, ${account.displayName}!` }).waitFor();
    await screenshot(page, 'security-home-under-csp');

    await visit('/profile', () => page.getByRole('heading', { name: 'My Profile' }).waitFor());
    await visit('/people', () => page.getByRole('heading', { name: 'People', exact: true }).waitFor());
    await visit('/library', () => page.getByRole('heading', { name: 'Video Library' }).waitFor());
    await visit('/', () => page.getByRole('heading', { name: `Welcome back, ${account.displayName}!` }).waitFor());
    // The API's answers carry the short set (decision 015).
    expect((await context.request.get('/api/me')).headers()).toMatchObject(API_HEADERS);
    expectSecurityHeaders((await context.request.get('/assets/not-there.js')).headers(), 'a missing asset');

    expect(complaints).toEqual([]);
    expect(await violations()).toEqual([]);

    // Permissions-Policy as the browser applies it: the camera and microphone work on our pages.
    const media = await page.evaluate(async () => {
      const stream = await navigator.mediaDevices.getUserMedia({ video: true, audio: true });
      const kinds = stream.getTracks().map((track) => track.kind).sort();
      for (const track of stream.getTracks()) track.stop();
      return kinds;
    });
    expect(media).toEqual(['audio', 'video']);
    // The browser's reading of the header (without it, each of these defaults to this origin).
    const allowed = await page.evaluate(() => {
      const policy = (document as unknown as { featurePolicy: { allowsFeature(feature: string): boolean } }).featurePolicy;
      return Object.fromEntries(['camera', 'microphone', 'geolocation', 'usb', 'display-capture'].map((feature) => [feature, policy.allowsFeature(feature)]));
    });
    expect(allowed).toEqual({ camera: true, microphone: true, geolocation: false, usb: false, 'display-capture': false });

    // The CSP is enforced, not only sent, and the listener above hears a violation when there is one.
    const inlineRan = await page.evaluate(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.inlineScriptRan = true';
      document.head.append(script);
      await new Promise((resolve) => setTimeout(resolve, 100));
      return (window as unknown as { inlineScriptRan?: boolean }).inlineScriptRan ?? false;
    });
    expect(inlineRan).toBe(false);
    await expect.poll(violations).toEqual([expect.stringMatching(/^script-src/)]);
    await context.close();
  });
});
