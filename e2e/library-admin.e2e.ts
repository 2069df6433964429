// Whole journeys in Chromium for the template library and the admin dashboard, on a fresh server that
// makes its demo templates at first start: a user filters, searches and opens templates; the public
// preview and the demo page play; an admin uploads a real video, manages users and reads real figures.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegBinary } from '../src/server/media/ffmpeg';
import type { AdminAnalytics, VideoTemplate } from '../src/shared/api-types';
import { imagesLoaded, launchBrowser, MOBILE, newPage, type RunningServer, screenshot, SCREENSHOT_DIR, startServer, uniqueAccount } from './harness';

let server: RunningServer;
let browser: Browser;
let mediaDir: string;
let clipPath: string;
let adminContext: BrowserContext;
let admin: Page;
let member: ReturnType<typeof uniqueAccount>;

const toasts = (page: Page) => page.getByRole('region', { name: /Notifications/ });

async function register(page: Page, account: ReturnType<typeof uniqueAccount>) {
  const response = await page.request.post('/api/register', { data: account });
  expect(response.status()).toBe(201);
}

async function waitForPath(page: Page, pathname: string) {
  await page.waitForURL((url) => url.pathname === pathname);
}



beforeAll(async () => {
  mediaDir = mkdtempSync(path.join(tmpdir(), 'familystar-e2e-media-'));
  clipPath = path.join(mediaDir, 'farm-animals.mp4');
  // A real 4-second H.264/AAC clip, like one an admin would upload.
  execFileSync(ffmpegBinary(), ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=15', '-f', 'lavfi', '-i', 'sine=frequency=330',
    '-t', '4', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', '+faststart', clipPath]);
  // A private copy of the built client, so a rebuild of dist/ during the run cannot pull pages away.
  const clientDir = path.join(mediaDir, 'client');
  cpSync('dist/client', clientDir, { recursive: true });
  server = await startServer({ env: { DEMO_TEMPLATES: 'auto', CLIENT_DIR: clientDir } });
  browser = await launchBrowser(['--autoplay-policy=no-user-gesture-required']);
  ({ context: adminContext, page: admin } = await newPage(browser, server.baseUrl));
  await register(admin, uniqueAccount('admin')); // the first account is the admin

  // The demo library is made in the background at first start.
  const started = Date.now();
  for (;;) {
    const list = (await (await admin.request.get('/api/videoTemplates')).json()) as VideoTemplate[];
    if (list.length >= 3) break;
    if (Date.now() - started > 120_000) throw new Error('the demo templates did not appear within 120 s');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  console.log(`demo templates ready ${((Date.now() - started) / 1000).toFixed(1)} s after the first account`);
  member = uniqueAccount('member');
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
  console.log(`Screenshots written to ${SCREENSHOT_DIR}`);
});

describe('template library', () => {
  it('shows featured thumbnails to visitors and plays a free original on the public preview', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await page.goto('/landing');
    // The featured videos load as the visitor starts scrolling (decision 005).
    await page.getByRole('link', { name: 'Get Started' }).waitFor();
    await page.mouse.wheel(0, 300);
    const card = page.getByRole('link', { name: /Counting to Five/ });
    await card.waitFor();
    const image = card.locator('img');
    await image.scrollIntoViewIfNeeded();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);

    const featured = (await (await page.request.get('/api/videoTemplates/featured')).json()) as VideoTemplate[];
    const counting = featured.find((template) => template.title === 'Counting to Five')!;
    await page.goto(`/simple-preview?templateId=${counting.id}`);
    const video = page.getByLabel('Counting to Five (original video)');
    await video.waitFor();
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    expect(await video.evaluate((element: HTMLVideoElement) => Math.round(element.duration))).toBe(counting.duration);
    await screenshot(page, 'simple-preview-desktop');

    // A premium template is not public; a bad id offers the featured ones.
    const all = (await (await admin.request.get('/api/videoTemplates')).json()) as VideoTemplate[];
    const premium = all.find((template) => template.isPremium)!;
    await page.goto(`/simple-preview?templateId=${premium.id}`);
    await page.getByText('Featured videos you can preview').waitFor();
    await page.goto('/simple-preview?templateId=abc');
    await page.getByRole('link', { name: 'Counting to Five' }).waitFor();
    await context.close();
  });

  it('lets a user filter, search and open templates', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await register(page, member);
    await page.goto('/library');
    await page.getByRole('heading', { name: 'Video Library' }).waitFor();
    const cards = page.getByTestId('template-card');
    await expect.poll(() => cards.count()).toBe(3);
    await imagesLoaded(page);
    await screenshot(page, 'library-desktop');

    // Filters are built from the data.
    const category = page.getByLabel('Category');
    expect(await category.locator('option').allTextContents()).toEqual(['All Categories', 'Alphabet', 'Colors', 'Counting']);
    expect(await page.getByLabel('Age Range').locator('option').allTextContents()).toEqual(['All Ages', '1-3 years', '2-4 years', '3-5 years']);

    await category.selectOption('alphabet');
    await expect.poll(() => cards.count()).toBe(1);
    await cards.getByText('A B C Adventure').waitFor();
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => cards.count()).toBe(3);
    expect(await page.getByRole('button', { name: 'Clear' }).count()).toBe(0);

    await page.getByPlaceholder('Search videos...').fill('EVERYDAY');
    await expect.poll(() => cards.count()).toBe(1);
    await cards.getByText('Colours All Around').waitFor();
    await page.getByPlaceholder('Search videos...').fill('no such thing');
    await page.getByRole('heading', { name: 'No videos found' }).waitFor();
    await page.getByText('Try adjusting your search or filters to find videos.').waitFor();
    await page.getByRole('button', { name: 'Clear' }).click();

    await page.getByRole('tab', { name: 'Premium' }).click();
    await page.getByText('Purchase premium templates to create personalized videos with advanced features.').waitFor();
    const premiumCard = page.getByRole('tabpanel').getByTestId('template-card');
    await expect.poll(() => premiumCard.count()).toBe(1);
    await premiumCard.getByText('$2.99').waitFor();
    await premiumCard.getByText('Premium', { exact: true }).waitFor();
    expect(await premiumCard.getByRole('link', { name: 'Purchase A B C Adventure' }).getAttribute('href')).toMatch(/^\/checkout\/\d+$/);
    await imagesLoaded(page);
    await screenshot(page, 'library-premium-desktop');

    await page.getByRole('tab', { name: 'Free' }).click();
    await page.getByPlaceholder('Search free videos...').fill('letters');
    await page.getByRole('heading', { name: 'No free videos found' }).waitFor();
    await page.getByPlaceholder('Search free videos...').fill('');
    await page.getByLabel('Age Range').selectOption('2-4');
    const freeCards = page.getByRole('tabpanel').getByTestId('template-card');
    await expect.poll(() => freeCards.count()).toBe(1);
    // The demo's length follows its spoken narration (15–29 s).
    await freeCards.getByText(/^0:(1[5-9]|2\d)$/).waitFor();
    await freeCards.getByText('2-4 years').waitFor();

    await page.getByRole('link', { name: 'Preview Original: Counting to Five' }).click();
    await waitForPath(page, '/simple-preview');
    await page.getByRole('link', { name: 'Use This Template' }).click();
    await page.waitForURL(/\/process\/\d+$/);

    await page.goto('/library');
    await page.getByRole('link', { name: 'Use This Template: Colours All Around' }).click();
    await page.waitForURL(/\/process\/\d+$/);
    await context.close();
  });

  it('lays the library out in one column on a phone', async () => {
    const { context, page } = await newPage(browser, server.baseUrl, MOBILE);
    await page.request.post('/api/login', { data: { username: member.username, password: member.password } });
    await page.goto('/library');
    const cards = page.getByTestId('template-card');
    await expect.poll(() => cards.count()).toBe(3);
    const [first, second] = await Promise.all([cards.nth(0).boundingBox(), cards.nth(1).boundingBox()]);
    expect(first!.x).toBe(second!.x);
    expect(first!.width).toBeGreaterThan(MOBILE.width - 80);
    await imagesLoaded(page);
    await screenshot(page, 'library-mobile');
    await context.close();
  });

  it('plays the demo and says when casting is not available', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await page.request.post('/api/login', { data: { username: member.username, password: member.password } });
    await page.goto('/demo');
    await page.getByRole('heading', { name: 'Counting to Five' }).waitFor();
    expect(await page.getByRole('link', { name: 'Back to Library' }).getAttribute('href')).toBe('/library');
    await page.getByRole('button', { name: 'Cast to TV' }).click();
    // Headless Chromium has no cast devices: the page says so rather than pretending.
    await page.getByRole('status').filter({ hasText: /cast/i }).waitFor();
    await screenshot(page, 'demo-desktop');
    await context.close();
  });
});

describe('admin dashboard', () => {
  it('uploads a template with a real video, and it shows in the library', async () => {
    await admin.goto('/admin');
    await admin.getByRole('tab', { name: 'Video Templates' }).click();
    await admin.getByTestId('admin-template-row').first().waitFor();
    await screenshot(admin, 'admin-templates-desktop');

    // The form's rules, before anything is sent.
    await admin.getByRole('button', { name: 'Upload Template' }).click();
    await admin.getByText('Title must be at least 3 characters').waitFor();
    await toasts(admin).getByText('Missing Video', { exact: true }).waitFor();

    const form = admin.locator('form').filter({ has: admin.getByRole('button', { name: 'Upload Template' }) });
    await form.getByLabel('Title').fill('Farm Animals');
    // Each message goes as soon as its cause does, before Upload is pressed again.
    await form.getByText('Title must be at least 3 characters').waitFor({ state: 'detached' });
    await form.getByLabel('Description').fill('Say hello to the cow, the pig and the hen.');
    await form.getByLabel('Category').selectOption('animals');
    await form.getByLabel('Age Range').selectOption('1-3');
    await form.getByLabel('Video file').setInputFiles(clipPath);
    await expect.poll(() => form.getByLabel('Duration (seconds)').inputValue()).toBe('4');
    await form.getByLabel('Premium').check();
    await form.getByLabel('Price (USD)').fill('1.999');
    await form.getByRole('button', { name: 'Upload Template' }).click();
    await form.getByText('Price must be a non-negative amount in dollars with at most 2 decimals (e.g. 4.99)').waitFor();
    await form.getByLabel('Price (USD)').fill('1.50');
    await form.getByText('Price must be a non-negative amount in dollars with at most 2 decimals (e.g. 4.99)').waitFor({ state: 'detached' });
    await form.getByRole('button', { name: 'Upload Template' }).click();
    await toasts(admin).getByText('Template uploaded', { exact: true }).waitFor({ timeout: 30_000 });
    await admin.getByTestId('admin-template-row').filter({ hasText: 'Farm Animals' }).getByText('Premium $1.50').waitFor();

    const { context, page } = await newPage(browser, server.baseUrl);
    await page.request.post('/api/login', { data: { username: member.username, password: member.password } });
    await page.goto('/library');
    const card = page.getByTestId('template-card').filter({ hasText: 'Farm Animals' });
    await card.getByText('$1.50').waitFor();
    await card.getByText('0:04').waitFor();
    await card.getByText('Animals', { exact: true }).waitFor();
    await expect.poll(() => card.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await context.close();
  });

  it("changes a user's role, and refuses to demote the last admin", async () => {
    await admin.goto('/admin');
    const row = admin.getByTestId(`user-row-${member.username}`);
    await row.waitFor();
    await screenshot(admin, 'admin-users-desktop');
    await admin.getByLabel(`Role of ${member.username}`).selectOption('admin');
    await toasts(admin).getByText('User role updated', { exact: true }).waitFor();
    const asMember = await admin.request.get('/api/admin/users');
    expect(asMember.status()).toBe(200);

    await admin.getByLabel(`Role of ${member.username}`).selectOption('user');
    await toasts(admin).getByText('User role updated', { exact: true }).waitFor();
    await admin.getByLabel(`Subscription status of ${member.username}`).selectOption('trial');
    await toasts(admin).getByText('Subscription status updated', { exact: true }).waitFor();
    await admin.getByLabel(`Plan of ${member.username}`).selectOption('family');
    await toasts(admin).getByText('Plan updated', { exact: true }).waitFor();

    const me = (await (await admin.request.get('/api/me')).json()) as { username: string };
    await admin.getByLabel(`Role of ${me.username}`).selectOption('user');
    await toasts(admin).getByText('Failed to update user role', { exact: true }).waitFor();
    await toasts(admin).getByText('You cannot remove the last admin. Make another user an admin first.').waitFor();
    await expect.poll(() => admin.getByLabel(`Role of ${me.username}`).inputValue()).toBe('admin');
  });

  it('shows real figures that follow the data, and the plan catalogue', async () => {
    const figure = (label: string) => admin.getByTestId(`figure-${label}`);
    await admin.goto('/admin');
    await admin.getByRole('tab', { name: 'Analytics' }).click();
    const before = (await (await admin.request.get('/api/admin/analytics')).json()) as AdminAnalytics;
    await expect.poll(() => figure('Users').textContent()).toBe(String(before.totals.users));
    await expect.poll(() => figure('Templates').textContent()).toBe(String(before.totals.templates));
    expect(before.totals.templates).toBe(4);
    expect(before.totals.users).toBe(2);

    // New data: another family signs up and the admin adds a template.
    const { context, page } = await newPage(browser, server.baseUrl);
    await register(page, uniqueAccount('newcomer'));
    await context.close();
    const created = await admin.request.post('/api/admin/videoTemplates', {
      data: {
        title: 'Shapes Everywhere',
        description: 'Circles, squares and triangles around the house.',
        category: 'education',
        ageRange: '3-5',
        duration: 25,
        thumbnailUrl: '/images/shapes.jpg',
        videoUrl: '/videos/shapes.mp4',
      },
    });
    expect(created.status()).toBe(201);

    await admin.getByRole('tab', { name: 'Subscriptions' }).click();
    await admin.getByTestId('plan-family').getByText('$19.99').waitFor();
    await admin.getByTestId('plan-free').getByText('3 videos per month', { exact: true }).waitFor();
    await screenshot(admin, 'admin-subscriptions-desktop');

    await admin.getByRole('tab', { name: 'Analytics' }).click();
    await expect.poll(() => figure('Users').textContent()).toBe('3');
    await expect.poll(() => figure('Templates').textContent()).toBe('5');
    await figure('Revenue').getByText('$0.00').waitFor();
    await admin.getByText('Users by plan: Free 2, Premium 0, Family Pack 1.').waitFor();
    await screenshot(admin, 'admin-analytics-desktop');
  });

  it("deletes another user's account after saying what goes, and not the admin's own from here", async () => {
    const leaving = uniqueAccount('leaving');
    const { context, page } = await newPage(browser, server.baseUrl);
    await register(page, leaving);
    await admin.goto('/admin');
    await admin.getByTestId(`user-row-${leaving.username}`).waitFor();
    const me = (await (await admin.request.get('/api/me')).json()) as { username: string };
    expect(await admin.getByRole('button', { name: `Delete ${me.username}` }).count()).toBe(0);

    await admin.getByRole('button', { name: `Delete ${leaving.username}` }).click();
    const dialog = admin.getByRole('alertdialog', { name: 'Delete Account' });
    await dialog
      .getByText(`Delete ${leaving.username}'s account? This deletes their people, face photos, clips, voice recordings and videos, and cannot be undone.`)
      .waitFor();
    await screenshot(admin, 'admin-delete-account-desktop');
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await toasts(admin).getByText('Account deleted', { exact: true }).waitFor();
    await admin.getByTestId(`user-row-${leaving.username}`).waitFor({ state: 'detached' });
    const listed = (await (await admin.request.get('/api/admin/users')).json()) as { username: string }[];
    expect(listed.map((user) => user.username)).not.toContain(leaving.username);
    // Their browser is signed out.
    expect((await page.request.get('/api/me')).status()).toBe(401);
    await context.close();
  });

  it('has the advanced video management page with its two tabs', async () => {
    await admin.goto('/admin');
    await admin.getByRole('link', { name: 'Advanced Video Management' }).click();
    await waitForPath(admin, '/admin/videos');
    await admin.getByRole('tab', { name: 'Video Templates', selected: true }).waitFor();
    await expect.poll(() => admin.getByTestId('admin-template-row').count()).toBe(5);
    await admin.getByRole('tab', { name: 'Upload New Video' }).click();
    await admin.getByLabel('Video file').waitFor();
    await screenshot(admin, 'admin-videos-upload-desktop');
    await adminContext.close();
  });
});
