// Whole journeys in Chromium against the built server: landing → register → home → profile → logout,
// guards, the admin entry, the 404 screen, the mobile menus, and sessions across a server restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  MOBILE,
  type RunningServer,
  SCREENSHOT_DIR,
  fillRegisterForm,
  launchBrowser,
  newPage,
  screenshot,
  startServer,
  uniqueAccount,
} from './harness';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  console.log(`Screenshots written to ${SCREENSHOT_DIR}`);
});

const toasts = (page: Page) => page.getByRole('region', { name: /Notifications/ });

async function registerThroughUi(page: Page, account: ReturnType<typeof uniqueAccount>) {
  await page.goto('/auth?tab=register');
  await fillRegisterForm(page, account);
  await page.getByRole('heading', { name: `Welcome to FamilyStar, ${account.displayName}!` }).waitFor();
}

async function waitForPath(page: Page, pathname: string) {
  await page.waitForURL((url) => url.pathname === pathname);
}

describe('accounts journey', () => {
  it('lands, registers with the form rules, edits the profile, logs out and is kept out', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    const account = uniqueAccount('first');

    // A visitor at / is sent to the landing page's sign-in.
    await page.goto('/');
    await waitForPath(page, '/auth');
    await page.goto('/landing');
    await expect(page.getByText('Educational Videos Starring You').first().isVisible()).resolves.toBe(true);
    // The sections below How It Works load as the visitor starts scrolling (decision 005).
    await page.mouse.wheel(0, 300);
    await page.getByText('No featured videos available.').waitFor();
    await screenshot(page, 'landing-desktop');

    await page.getByRole('link', { name: 'Get Started' }).click();
    await waitForPath(page, '/auth');
    await page.getByRole('tab', { name: 'Register', selected: true }).waitFor();
    await screenshot(page, 'auth-desktop');

    // Empty form: the spec's toast, nothing sent.
    await page.getByRole('button', { name: 'Register' }).click();
    await toasts(page).getByText('Validation Error', { exact: true }).waitFor();
    await toasts(page).getByText('Please fill in all fields', { exact: true }).waitFor();

    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Display Name').fill(account.displayName);
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm Password').fill('short');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText('Password must be at least 8 characters').waitFor();

    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByLabel('Confirm Password').fill(`${account.password}!`);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText('Passwords do not match').waitFor();
    await screenshot(page, 'auth-validation-desktop');

    await page.getByLabel('Confirm Password').fill(account.password);
    await page.getByRole('button', { name: 'Register' }).click();
    // A new account is welcomed, not welcomed back (issue 20).
    await page.getByRole('heading', { name: `Welcome to FamilyStar, ${account.displayName}!` }).waitFor();
    await toasts(page).getByText('Registration successful', { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.getByRole('main').getByRole('link', { name: 'Create Video' }).waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Add Person' }).waitFor();
    await screenshot(page, 'home-desktop');

    // The first account of a fresh installation is the admin.
    await page.getByRole('button', { name: 'Open user menu' }).click();
    const menu = page.getByRole('menu');
    await menu.getByText(account.email).waitFor();
    await menu.getByRole('menuitem', { name: 'Admin Dashboard' }).waitFor();
    await menu.getByRole('menuitem', { name: 'My Profile' }).click();
    await waitForPath(page, '/profile');

    await page.getByRole('heading', { name: 'My Profile' }).waitFor();
    const displayName = page.getByLabel('Display Name');
    await expect.poll(() => displayName.inputValue()).toBe(account.displayName);
    await displayName.fill('G');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Display name must be at least 2 characters').waitFor();
    await displayName.fill('Grandma Rose');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toasts(page).getByText('Profile updated', { exact: true }).waitFor();
    await screenshot(page, 'profile-desktop');

    // Saved on the server, not just in the page.
    await page.reload();
    await expect.poll(() => page.getByLabel('Display Name').inputValue()).toBe('Grandma Rose');
    // Still the visit that made the account: still a welcome.
    await page.goto('/');
    await page.getByRole('heading', { name: 'Welcome to FamilyStar, Grandma Rose!' }).waitFor();

    await page.getByRole('button', { name: 'Open user menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await waitForPath(page, '/landing');
    await toasts(page).getByText('Logged out', { exact: true }).waitFor();

    // Guarded routes send a visitor to /auth, and the server agrees the session is gone.
    for (const guarded of ['/profile', '/people', '/admin']) {
      await page.goto(guarded);
      await waitForPath(page, '/auth');
    }
    const me = await context.request.get('/api/me');
    expect(me.status()).toBe(401);
    await context.close();
  });

  it('signs in with the login tab, with the server message on a wrong password', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    const account = uniqueAccount('login');
    const registered = await context.request.post('/api/register', { data: account });
    expect(registered.status()).toBe(201);
    await context.clearCookies();

    await page.goto('/auth');
    await page.getByRole('tab', { name: 'Login', selected: true }).waitFor();
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Login' }).click();
    await toasts(page).getByText('Login failed', { exact: true }).waitFor();
    await toasts(page).getByText('Invalid username or password', { exact: true }).waitFor();

    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('heading', { name: `Welcome back, ${account.displayName}!` }).waitFor();
    await toasts(page).getByText('Login successful', { exact: true }).waitFor();

    // A signed-in user is sent away from /auth and /landing.
    await page.goto('/auth');
    await waitForPath(page, '/');
    await page.goto('/landing');
    await waitForPath(page, '/');
    await context.close();
  });

  it('keeps the admin area to admins', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await registerThroughUi(page, uniqueAccount('member'));
    await page.getByRole('button', { name: 'Open user menu' }).click();
    await page.getByRole('menuitem', { name: 'My Profile' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Admin Dashboard' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.goto('/admin');
    await waitForPath(page, '/');
    await page.goto('/admin/videos');
    await waitForPath(page, '/');
    await context.close();
  });

  it('shows the 404 screen and follows the old addresses', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await page.goto('/no-such-page/at-all');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await page.getByText('Did you forget to add the page to the router?').waitFor();
    await screenshot(page, 'not-found-desktop');

    await registerThroughUi(page, uniqueAccount('redirects'));
    await page.goto('/video-library');
    await waitForPath(page, '/library');
    await page.goto('/video-processor/7');
    await waitForPath(page, '/process/7');
    await page.goto('/face-training/abc');
    await waitForPath(page, '/');
    await context.close();
  });
});

describe('browser compatibility alert', () => {
  it('is absent in a capable browser and lists what a lesser one lacks', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await page.goto('/landing');
    await page.getByRole('link', { name: 'Get Started' }).waitFor();
    expect(await page.getByText('Compatibility Issue').count()).toBe(0);

    // The same page in a browser without WebAssembly or camera/microphone access.
    await context.addInitScript(() => {
      Object.defineProperty(globalThis, 'WebAssembly', { value: undefined });
      Object.defineProperty(navigator, 'mediaDevices', { value: undefined });
    });
    await page.reload();
    const alert = page.getByRole('alert').filter({ hasText: 'Compatibility Issue' });
    await alert.waitFor();
    await alert.getByText("Your browser doesn't support all the features needed for the best experience.").waitFor();
    await alert.getByText('WebAssembly is not supported').waitFor();
    await alert.getByText('Camera/Microphone access is not available').waitFor();
    await alert.getByText('Try using a modern browser like Chrome, Firefox, or Edge.').waitFor();
    expect(await alert.getByText('WebGL is not available').count()).toBe(0);
    await screenshot(page, 'landing-compatibility-alert');
    await context.close();
  });
});

describe('mobile, 375 px wide', () => {
  it('uses the slide-out menus on the landing page and when signed in', async () => {
    const { context, page } = await newPage(browser, server.baseUrl, MOBILE);
    await page.goto('/landing');
    await page.getByRole('link', { name: 'Get Started' }).waitFor();
    await screenshot(page, 'landing-mobile');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const landingMenu = page.getByRole('dialog', { name: 'Menu' });
    await landingMenu.getByRole('link', { name: 'Login' }).waitFor();
    await landingMenu.getByRole('link', { name: 'Sign Up' }).click();
    await waitForPath(page, '/auth');
    await screenshot(page, 'auth-mobile');

    const account = uniqueAccount('mobile');
    await registerThroughUi(page, account);
    // The desktop navigation is hidden at this width; the menu button replaces it.
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    await screenshot(page, 'home-mobile');

    await page.getByRole('button', { name: 'Open menu' }).click();
    const navigation = page.getByRole('dialog', { name: 'Navigation' });
    await navigation.getByText('Menu', { exact: true }).waitFor();
    await navigation.getByText('Actions', { exact: true }).waitFor();
    // Let the slide-in finish: the panel's right edge reaches the screen's.
    await expect
      .poll(async () => {
        const box = await navigation.boundingBox();
        return box ? Math.round(box.x + box.width) : 0;
      })
      .toBe(MOBILE.width);
    await screenshot(page, 'menu-mobile');
    await navigation.getByRole('link', { name: 'My Profile' }).click();
    await waitForPath(page, '/profile');
    await page.getByRole('heading', { name: 'My Profile' }).waitFor();
    await expect.poll(() => page.getByLabel('Username').inputValue()).toBe(account.username);
    await screenshot(page, 'profile-mobile');

    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog', { name: 'Navigation' }).getByRole('button', { name: 'Log out' }).click();
    await waitForPath(page, '/landing');
    await context.close();
  });
});

describe('a restarted server', () => {
  it('keeps the data and the signed-in session', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'familystar-restart-'));
    let own = await startServer({ dataDir });
    try {
      const context = await browser.newContext({ baseURL: own.baseUrl, viewport: DESKTOP });
      const page = await context.newPage();
      const account = uniqueAccount('restart');
      await registerThroughUi(page, account);
      await own.stop();
      own = await startServer({ dataDir });
      // Same cookie, new process and port: the session lives in the database.
      const cookies = await context.cookies();
      const moved = await browser.newContext({ baseURL: own.baseUrl, viewport: DESKTOP });
      await moved.addCookies(cookies.map((cookie) => ({ ...cookie, domain: '127.0.0.1', path: '/' })));
      const again = await moved.newPage();
      await again.goto('/');
      await again.getByRole('heading', { name: `Welcome back, ${account.displayName}!` }).waitFor();
      await context.close();
      await moved.close();
    } finally {
      await own.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
