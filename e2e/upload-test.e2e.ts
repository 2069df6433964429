// The video upload test page in Chromium: no people yet, then the client-side checks (no file, wrong
// type), a file the server refuses, and a real MP4 (made with ffmpeg at test time) that plays back.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegBinary } from '../src/server/media/ffmpeg';
import { type RunningServer, SCREENSHOT_DIR, launchBrowser, newPage, screenshot, startServer, uniqueAccount } from './harness';

const run = promisify(execFile);

let server: RunningServer;
let browser: Browser;
let mediaDir: string;
const media = { mp4: '', text: '' };

async function makeMedia(dir: string) {
  media.mp4 = path.join(dir, 'clip.mp4');
  media.text = path.join(dir, 'notes.txt');
  // H.264 in MP4 so Chromium can play it back in the result panel.
  await run(ffmpegBinary(), [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=15', '-t', '2', '-pix_fmt', 'yuv420p', '-movflags', '+faststart',
    media.mp4,
  ]);
  writeFileSync(media.text, 'not a video');
}

beforeAll(async () => {
  mediaDir = mkdtempSync(path.join(tmpdir(), 'familystar-upload-test-'));
  const [started] = await Promise.all([startServer(), makeMedia(mediaDir)]);
  server = started;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
  console.log(`Screenshots written to ${SCREENSHOT_DIR}`);
});

const toasts = (page: Page) => page.getByRole('region', { name: /Notifications/ });

async function expectToast(page: Page, text: string) {
  await toasts(page).getByText(text, { exact: true }).first().waitFor();
}

describe('video upload test page', () => {
  it('checks the file before sending, shows a refused upload, and plays back an uploaded MP4', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    const account = uniqueAccount('uploader');
    const registered = await context.request.post('/api/register', {
      data: { username: account.username, email: account.email, password: account.password, displayName: account.displayName },
    });
    expect(registered.status(), await registered.text()).toBeLessThan(300);
    const user = (await registered.json()) as { id: number };

    // No people yet: a message and the way to /people instead of the upload.
    await page.goto('/upload-test');
    await page.getByRole('heading', { name: 'Video Upload Test', level: 1 }).waitFor();
    await page.getByText('No people yet').waitFor();
    expect(await page.getByRole('link', { name: 'Go to People' }).getAttribute('href')).toBe('/people');
    await expect(page.getByLabel('Choose a video').count()).resolves.toBe(0);

    const created = await context.request.post('/api/people', {
      data: { userId: user.id, name: 'Grandpa Joe', relationship: 'Grandfather' },
    });
    expect(created.status(), await created.text()).toBe(201);
    const consent = await context.request.post(`/api/people/${((await created.json()) as { id: number }).id}/consent`, { data: { basis: 'guardian' } });
    expect(consent.status(), await consent.text()).toBe(201);

    await page.reload();
    await page.getByLabel('Person').waitFor();
    expect(await page.getByLabel('Person').locator('option:checked').textContent()).toBe('Grandpa Joe (Grandfather)');
    const guidelines = page.getByRole('region', { name: 'Guidelines' });
    await guidelines.getByText('Formats: MP4, MOV, AVI').waitFor();
    await guidelines.getByText('Maximum size: 100 MB').waitFor();
    await guidelines.getByText('Recommended length: 10-30 seconds').waitFor();

    // Client-side checks, with the spec's messages, before anything is sent.
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/upload/video')) uploads.push(request.method());
    });
    await page.getByRole('button', { name: 'Upload Video' }).click();
    await expectToast(page, 'No file selected');
    await page.getByLabel('Choose a video').setInputFiles(media.text);
    await expectToast(page, 'Invalid file type');
    await expectToast(page, 'Please choose an MP4, MOV or AVI video file');
    await page.getByText('Click to choose a video').waitFor();
    expect(uploads).toEqual([]);

    // A file that claims to be an MP4 but is not: the server refuses it and the result panel says why.
    await page.getByLabel('Choose a video').setInputFiles({ name: 'fake.mp4', mimeType: 'video/mp4', buffer: Buffer.from('not really a video') });
    await page.getByText('fake.mp4').waitFor();
    await page.getByRole('button', { name: 'Upload Video' }).click();
    await expectToast(page, 'Upload failed');
    const result = page.getByRole('region', { name: 'Upload result' });
    await result.getByText('fake.mp4 was not uploaded').waitFor();
    expect(uploads).toEqual(['POST']);

    // A real MP4: progress, the spec's success toast, and the clip playing in the result panel.
    await page.getByLabel('Choose a video').setInputFiles(media.mp4);
    await page.getByText('clip.mp4').waitFor();
    await page.getByRole('button', { name: 'Upload Video' }).click();
    await expectToast(page, 'Upload successful');
    await expectToast(page, 'Your face video has been uploaded and is being processed for face extraction');
    await result.getByText('Upload successful').waitFor();
    await result.getByText('Grandpa Joe', { exact: true }).waitFor();
    await result.getByText(`${Math.round(statSync(media.mp4).size / 1024)} KB`).waitFor();
    const video = result.getByLabel('Uploaded video');
    const videoUrl = await video.getAttribute('src');
    expect(videoUrl).toBeTruthy();
    await result.getByText(videoUrl!, { exact: true }).waitFor();
    // The owner's browser can load the stored file: its metadata arrives and says about 2 seconds.
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(1);
    const duration = await video.evaluate((element: HTMLVideoElement) => element.duration);
    expect(duration).toBeGreaterThan(1.5);
    expect(duration).toBeLessThan(2.5);
    await screenshot(page, 'upload-test-desktop');

    await context.close();
  });
});
