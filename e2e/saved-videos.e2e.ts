// My Saved Videos as a new parent meets it (issue 14), in a real browser against the real server: a video
// that failed for a real reason (its recording's file is gone) says why in full and is tried again from
// its card, with the same choices or another recording; each card says who is in it and when it was made,
// and so does the delete dialog; the focus lands on the next video after a delete; the player says that a
// download has started (not that it is complete) and explains a bad address; the menus and voice-only
// templates lead to /voice-only; a recording's loudness reads in words, with the figures in Details.
import { cpSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaceImage, Person, ProcessedVideo, VideoTemplate, VoiceRecording } from '../src/shared/api-types';
import { voiceMissingMessage } from '../src/shared/video-rules';
import { createStorage } from '../src/server/storage/storage';
import { DESKTOP, MOBILE, type RunningServer, SCREENSHOT_DIR, launchBrowser, newPage, screenshot, startServer } from './harness';
import { dataUrl, makeTemplateMedia, register, toasts, uploadTemplate } from './video-kit';

const PERSON_PHOTO = path.join(path.dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')), 'demo', 'sample5.jpg');

let server: RunningServer;
let browser: Browser;
let mediaDir: string;
/** Face and voice. */
let counting: VideoTemplate;
/** Voice only: the picture stays. */
let song: VideoTemplate;

beforeAll(async () => {
  mediaDir = mkdtempSync(path.join(tmpdir(), 'familystar-e2e-saved-'));
  const media = await makeTemplateMedia(mediaDir);
  const clientDir = path.join(mediaDir, 'client');
  cpSync('dist/client', clientDir, { recursive: true });
  server = await startServer({ env: { CLIENT_DIR: clientDir } });
  browser = await launchBrowser();

  // The first account is the admin; it uploads the templates through the real upload route.
  const { context: admin } = await newPage(browser, server.baseUrl);
  await register(admin, 'admin');
  const about = { description: 'Count to four with a friendly face.', category: 'counting' };
  counting = await uploadTemplate(admin, media, { title: 'Counting', ...about, voiceOnly: false });
  song = await uploadTemplate(admin, media, { title: 'Counting Song', ...about, voiceOnly: true });
  await admin.close();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
  console.log(`screenshots: ${SCREENSHOT_DIR}`);
});

/** A parent on the Free plan with one person, a photo and two recordings, analysed. */
async function parentWithPerson(context: BrowserContext) {
  const userId = await register(context, 'parent');
  const person = (await (await context.request.post('/api/people', { data: { name: 'Grandpa Joe', relationship: 'Grandfather' } })).json()) as Person;
  expect((await context.request.post(`/api/people/${person.id}/consent`, { data: { basis: 'guardian' } })).status()).toBe(201);
  const faceResponse = await context.request.post('/api/faceImages', { data: { personId: person.id, name: 'Smiling', imageData: dataUrl(PERSON_PHOTO, 'image/jpeg') } });
  expect(faceResponse.status(), await faceResponse.text()).toBe(201);
  const face = (await faceResponse.json()) as FaceImage;
  const addVoice = async (name: string, file: string) => {
    const response = await context.request.post('/api/voiceRecordings', { data: { personId: person.id, name, audioData: dataUrl(path.join(mediaDir, file), 'audio/wav') } });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()) as VoiceRecording;
  };
  const story = await addVoice('Story time', 'story.wav');
  const bedtime = await addVoice('Bedtime voice', 'bedtime.wav');
  // The analysis reads the files: wait for it before anything is done to them.
  await expect
    .poll(async () => {
      const recordings = (await (await context.request.get(`/api/people/${person.id}/voiceRecordings`)).json()) as VoiceRecording[];
      return recordings.every((recording) => recording.mlProcessed || recording.analysisError);
    }, { timeout: 60_000 })
    .toBe(true);
  return { userId, person, face, story, bedtime };
}

async function createVideo(context: BrowserContext, data: Record<string, unknown>) {
  const response = await context.request.post('/api/processedVideos', { data });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as ProcessedVideo;
}

async function statusOf(context: BrowserContext, id: number) {
  return ((await (await context.request.get(`/api/processedVideos/${id}`)).json()) as ProcessedVideo).status;
}

/** Nothing on the page is wider than the window. */
async function expectNoSideways(page: Page) {
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: window.innerWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.window);
}

/** Every line of the element is shown: nothing clamped, clipped or scrolled away. */
async function expectWhollyShown(element: Locator) {
  const box = await element.evaluate((node: HTMLElement) => ({
    scrollHeight: node.scrollHeight,
    clientHeight: node.clientHeight,
    scrollWidth: node.scrollWidth,
    clientWidth: node.clientWidth,
    clamp: getComputedStyle(node).webkitLineClamp,
  }));
  expect(box.clamp === 'none' || box.clamp === '').toBe(true);
  expect(box.scrollHeight).toBeLessThanOrEqual(box.clientHeight + 1);
  expect(box.scrollWidth).toBeLessThanOrEqual(box.clientWidth + 1);
}

const focusedTitle = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    return { tag: active?.tagName, id: active?.id, text: active?.textContent?.trim(), headingId: active?.closest('h1, h2, h3')?.id };
  });

describe('My Saved Videos', () => {
  it('says why a video failed and tries it again, as it was or with another recording; the delete dialog names the video and the focus moves on', { timeout: 480_000 }, async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    page.on('pageerror', (error) => console.error('page error:', error.message));
    try {
      const { person, face, story, bedtime } = await parentWithPerson(context);

      // A real failure: the recording's file is gone from storage when the render looks for it.
      const storyFile = createStorage(server.dataDir).fromUrl(story.audioUrl)!.path;
      renameSync(storyFile, `${storyFile}.away`);
      const song1 = await createVideo(context, { templateId: song.id, personId: person.id, title: 'Song for Mia', voiceRecordingId: story.id, useFaceSwap: false });
      const count1 = await createVideo(context, { templateId: counting.id, personId: person.id, title: 'Counting with Grandpa', faceImageId: face.id, voiceRecordingId: story.id });
      for (const video of [song1, count1]) await expect.poll(() => statusOf(context, video.id), { timeout: 60_000 }).toBe('failed');

      await page.goto('/saved');
      const songCard = page.getByTestId('processed-video-card').filter({ hasText: 'Song for Mia' });
      const countCard = page.getByTestId('processed-video-card').filter({ hasText: 'Counting with Grandpa' });
      for (const card of [songCard, countCard]) {
        await card.getByText('Processing Failed', { exact: true }).waitFor();
        // The whole reason, not a clamped part of it, and the recording it used.
        await expect(card.getByTestId('video-error').textContent()).resolves.toBe(voiceMissingMessage('Story time'));
        await expectWhollyShown(card.getByTestId('video-error'));
        await card.getByTestId('retry-used').getByText(/Recording: Story time/).waitFor();
        // Which video it is: the person and the date.
        await card.getByText('Starring Grandpa Joe', { exact: true }).waitFor();
        await card.getByText(/^Created \w+/).waitFor();
        await card.getByRole('button', { name: 'Try again' }).waitFor();
        await card.getByRole('button', { name: 'Choose another recording' }).waitFor();
      }
      // A face video offers another photo; a voice-only one has no face to change.
      await countCard.getByRole('button', { name: 'Choose another photo' }).waitFor();
      expect(await songCard.getByRole('button', { name: 'Choose another photo' }).count()).toBe(0);

      await expectNoSideways(page);
      await screenshot(page, 'saved-failed-desktop');
      await page.setViewportSize(MOBILE);
      await songCard.getByRole('button', { name: 'Try again' }).waitFor();
      await expectNoSideways(page);
      for (const card of [songCard, countCard]) await expectWhollyShown(card.getByTestId('video-error'));
      await screenshot(page, 'saved-failed-mobile');

      // Another recording: the dialog lists the person's, the failed one marked, and retries with the choice.
      await songCard.getByRole('button', { name: 'Choose another recording' }).click();
      const choose = page.getByRole('dialog', { name: 'Choose another recording' });
      await choose.getByText("Pick another of Grandpa Joe's recordings", { exact: false }).waitFor();
      await choose.getByRole('radio', { name: /Bedtime voice/ }).waitFor();
      expect(await choose.getByRole('radio', { name: /Bedtime voice/ }).isChecked()).toBe(true);
      await choose.getByRole('radio', { name: /Story time/ }).waitFor();
      await choose.getByText('Used last time').waitFor();
      await expectNoSideways(page);
      await screenshot(page, 'saved-choose-recording-mobile');
      await page.setViewportSize(DESKTOP);
      await choose.getByRole('button', { name: 'Try again with this recording' }).click();
      await choose.waitFor({ state: 'detached' });
      // In progress at once (the list is refreshed), then finished by the real render.
      await expect.poll(() => songCard.getAttribute('data-status')).not.toBe('failed');
      await expect.poll(() => focusedTitle(page).then((focus) => focus.id)).toBe(`processed-video-${song1.id}-title`);
      await songCard.getByRole('link', { name: /Watch Video/ }).waitFor({ timeout: 240_000 });
      const retried = (await (await context.request.get(`/api/processedVideos/${song1.id}`)).json()) as ProcessedVideo;
      expect(retried).toMatchObject({ status: 'completed', voiceRecordingId: bedtime.id, error: null });

      // The same choices again, once the file is back: the card goes to in progress.
      renameSync(`${storyFile}.away`, storyFile);
      await countCard.getByRole('button', { name: 'Try again' }).click();
      await countCard.getByRole('button', { name: 'Processing...' }).waitFor();
      await expect.poll(() => countCard.getAttribute('data-status')).toMatch(/^(pending|processing)$/);
      await expect.poll(() => statusOf(context, count1.id)).toMatch(/^(pending|processing|completed)$/);
      await screenshot(page, 'saved-retried-desktop');

      // Delete names the video; afterwards the focus is on the next video's title, then on the heading.
      await countCard.hover();
      await countCard.getByRole('button', { name: 'Delete video' }).click();
      let dialog = page.getByRole('dialog', { name: 'Delete Video' });
      await dialog.getByText('Are you sure you want to delete this video? This action cannot be undone.').waitFor();
      const identity = dialog.getByTestId('delete-video-identity');
      await identity.getByText('Your Counting', { exact: true }).waitFor();
      await identity.getByText(/^Starring Grandpa Joe · Created \w+/).waitFor();
      await screenshot(page, 'saved-delete-dialog-desktop');
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await toasts(page).getByText('Video deleted', { exact: true }).first().waitFor();
      await countCard.waitFor({ state: 'detached' });
      await expect.poll(() => focusedTitle(page)).toMatchObject({ tag: 'A', headingId: `processed-video-${song1.id}-title`, text: 'Your Counting Song' });

      // Cancel gives the focus back to the delete button that opened the dialog.
      await songCard.getByRole('button', { name: 'Delete video' }).focus();
      await page.keyboard.press('Enter');
      dialog = page.getByRole('dialog', { name: 'Delete Video' });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Delete video');
      await page.keyboard.press('Enter');
      await dialog.getByTestId('delete-video-identity').getByText('Your Counting Song', { exact: true }).waitFor();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('No videos found').waitFor();
      await expect.poll(() => focusedTitle(page)).toMatchObject({ tag: 'H1', id: 'saved-videos-heading' });
    } catch (error) {
      await screenshot(page, 'saved-videos-failure').catch(() => undefined);
      throw error;
    } finally {
      await context.close();
    }
  });

  it('a download is said to have started, not to be complete', { timeout: 300_000 }, async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    page.on('pageerror', (error) => console.error('page error:', error.message));
    try {
      const { person, bedtime } = await parentWithPerson(context);
      const video = await createVideo(context, { templateId: song.id, personId: person.id, title: 'Bedtime song', voiceRecordingId: bedtime.id, useFaceSwap: false });
      await expect.poll(() => statusOf(context, video.id), { timeout: 240_000, interval: 2000 }).toBe('completed');
      await page.goto(`/player/${video.id}`);
      await page.getByTestId('video-player').waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
      expect(download.suggestedFilename()).toBe('bedtime-song.mp4');
      await toasts(page).getByText('Download started', { exact: true }).first().waitFor();
      await toasts(page).getByText('Your browser is saving bedtime-song.mp4 with your other downloads.').first().waitFor();
      expect(await toasts(page).getByText('Download complete').count()).toBe(0);
      await download.cancel();
    } finally {
      await context.close();
    }
  });

  it('explains a bad video address and offers My Saved Videos and the library', { timeout: 120_000 }, async () => {
    const { context, page } = await newPage(browser, server.baseUrl, MOBILE);
    try {
      await register(context, 'visitor');
      await page.goto('/player/abc');
      await page.getByRole('heading', { name: 'Invalid video ID' }).waitFor();
      await page.getByText("This address doesn't lead to a video: it may have been copied only in part.").waitFor();
      await page.getByRole('link', { name: 'Go to Library' }).waitFor();
      await expectNoSideways(page);
      await screenshot(page, 'player-invalid-id-mobile');
      await page.getByRole('link', { name: 'My Saved Videos' }).click();
      await page.waitForURL((url) => url.pathname === '/saved');

      await page.goto('/player/999999');
      await page.getByRole('heading', { name: 'Video not found' }).waitFor();
      await page.getByText('We could not find this video. It may have been deleted, or it was made on another account.').waitFor();
      await page.getByRole('link', { name: 'My Saved Videos' }).waitFor();
      await page.getByRole('link', { name: 'Go to Library' }).click();
      await page.waitForURL((url) => url.pathname === '/library');
    } finally {
      await context.close();
    }
  });
});

describe('the way to /voice-only', () => {
  it('is in the desktop and the mobile menu, and on voice-only templates', { timeout: 120_000 }, async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    try {
      await register(context, 'parent');
      await page.goto('/');
      await page.getByRole('button', { name: 'Open user menu' }).click();
      await page.getByRole('menuitem', { name: 'Voice-only video' }).click();
      await page.waitForURL((url) => url.pathname === '/voice-only');
      await page.getByRole('heading', { name: 'Voice-Only Video Processor' }).waitFor();

      // The library: only the voice-only template leads there.
      await page.goto('/library');
      const songCard = page.getByTestId('template-card').filter({ hasText: 'Counting Song' });
      const countingCard = page.getByTestId('template-card').filter({ has: page.getByRole('heading', { name: 'Counting', exact: true }) });
      await songCard.getByRole('link', { name: 'Use your own video instead' }).waitFor();
      expect(await countingCard.getByRole('link', { name: 'Use your own video instead' }).count()).toBe(0);
      await screenshot(page, 'library-voice-only-desktop');
      await songCard.getByRole('link', { name: 'Use your own video instead' }).click();
      await page.waitForURL((url) => url.pathname === '/voice-only');

      // The Create page's summary of a voice-only template.
      await page.goto(`/process/${song.id}`);
      await page.getByRole('link', { name: 'Use your own video instead' }).click();
      await page.waitForURL((url) => url.pathname === '/voice-only');

      // A phone's menu.
      await page.setViewportSize(MOBILE);
      await page.goto('/');
      await page.getByRole('button', { name: 'Open menu' }).click();
      const navigation = page.getByRole('dialog', { name: 'Navigation' });
      await navigation.getByRole('link', { name: 'Voice-only video' }).waitFor();
      await screenshot(page, 'menu-voice-only-mobile');
      await navigation.getByRole('link', { name: 'Voice-only video' }).click();
      await page.waitForURL((url) => url.pathname === '/voice-only');
      await navigation.waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
  });
});

describe('a voice recording’s analysis', () => {
  it('reads in plain words, with the figures kept behind Details', { timeout: 120_000 }, async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    try {
      await parentWithPerson(context);
      await page.goto('/people');
      await page.getByRole('tab', { name: 'Voice Recordings' }).click();
      const recording = page.getByRole('list', { name: 'Saved recordings' }).getByRole('listitem').filter({ hasText: 'Story time' });
      const analysis = recording.getByRole('group', { name: 'Voice analysis' });
      await analysis.getByText('Loudness: good', { exact: true }).waitFor();
      await analysis.getByText('Speech: enough', { exact: true }).waitFor();
      // No jargon until the parent asks for it.
      await expect(analysis.getByText(/LUFS/).isVisible()).resolves.toBe(false);
      await expect(analysis.getByText(/Hz/).isVisible()).resolves.toBe(false);
      await screenshot(page, 'voice-analysis-plain-desktop');
      await analysis.getByText('Details', { exact: true }).click();
      await analysis.getByText(/^−\d+ LUFS$/).waitFor();
      await analysis.getByText(/^Pitch \d+ Hz \(\d+–\d+\)$/).waitFor();
      await analysis.getByText(/^Speech \d+%$/).waitFor();
    } finally {
      await context.close();
    }
  });
});
