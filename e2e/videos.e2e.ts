// The personalised video, end to end in a real browser against the real server: a parent picks a
// template, creates their video with their person's face and voice, watches the real render progress
// reach Completed, plays it, downloads it (a signed link, the spec's file name) and deletes it. The
// template is made here: the NASA portrait as the actor, narrated by eSpeak; the person is a different
// real face (face-api's demo photo) with a low eSpeak voice.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Person, ProcessedVideo, VideoTemplate } from '../src/shared/api-types';
import { probe } from '../src/server/media/ffmpeg';
import { createStorage } from '../src/server/storage/storage';
import { PORTRAIT } from '../src/server/testing/media-fixtures';
import { MOBILE, type RunningServer, SCREENSHOT_DIR, launchBrowser, newPage, screenshot, startServer } from './harness';
import { dataUrl, ffmpeg, makeTemplateMedia, register, toasts, uploadTemplate } from './video-kit';

const PERSON_PHOTO = path.join(path.dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')), 'demo', 'sample5.jpg');
const SIBLING_PHOTO = path.join(path.dirname(PERSON_PHOTO), 'sample2.jpg');
/** The real talking woman (../shared/media), glancing to one side at 1.8 s. */
const TALKING_WOMAN = path.resolve('../shared/media/talking-woman.mp4');

let server: RunningServer;
let browser: Browser;
let mediaDir: string;
let template: VideoTemplate;
let voiceOnlyTemplate: VideoTemplate;

beforeAll(async () => {
  mediaDir = mkdtempSync(path.join(tmpdir(), 'familystar-e2e-videos-'));
  const media = await makeTemplateMedia(mediaDir);
  const clientDir = path.join(mediaDir, 'client');
  cpSync('dist/client', clientDir, { recursive: true });
  server = await startServer({ env: { CLIENT_DIR: clientDir } });
  browser = await launchBrowser(['--autoplay-policy=no-user-gesture-required']);

  // The first account is the admin; it uploads the template through the real upload route.
  const { context: admin } = await newPage(browser, server.baseUrl);
  await register(admin, 'admin');
  template = await uploadTemplate(admin, media, { title: 'Counting', description: 'Count to four with a friendly face.', category: 'counting', voiceOnly: false });
  voiceOnlyTemplate = await uploadTemplate(admin, media, { title: 'Colours', description: 'Name the colours together.', category: 'colors', voiceOnly: true });
  await admin.close();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
  console.log(`screenshots: ${SCREENSHOT_DIR}`);
});

/** A parent on the Free plan with one person who has a face photo and a voice recording. */
async function parentWithPerson(context: BrowserContext) {
  const userId = await register(context, 'parent');
  const person = (await (await context.request.post('/api/people', { data: { name: 'Grandpa Joe', relationship: 'Grandfather' } })).json()) as Person;
  expect((await context.request.post(`/api/people/${person.id}/consent`, { data: { basis: 'guardian' } })).status()).toBe(201);
  const face = await context.request.post('/api/faceImages', { data: { personId: person.id, name: 'Smiling', imageData: dataUrl(PERSON_PHOTO, 'image/jpeg') } });
  expect(face.status(), await face.text()).toBe(201);
  const voice = await context.request.post('/api/voiceRecordings', {
    data: { personId: person.id, name: 'Story time', audioData: dataUrl(path.join(mediaDir, 'story.wav'), 'audio/wav') },
  });
  expect(voice.status(), await voice.text()).toBe(201);
  return { userId, person };
}

describe('the personalised video', () => {
  it('is created with real progress, played, downloaded and deleted', { timeout: 360_000 }, async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    page.on('pageerror', (error) => console.error('page error:', error.message));
    try {
      const { person } = await parentWithPerson(context);
      // A sister's photo added to Grandpa Joe by mistake (another real face, face-api's sample2.jpg): the
      // render leaves it out and the player says so.
      const sister = await context.request.post('/api/faceImages', { data: { personId: person.id, name: 'Sister', imageData: dataUrl(SIBLING_PHOTO, 'image/jpeg') } });
      expect(sister.status(), await sister.text()).toBe(201);
      // And a photo of someone glancing to one side (the talking woman), deleted again before the video is made.
      const glancingFile = path.join(mediaDir, 'glancing.jpg');
      await ffmpeg(['-ss', '1.8', '-i', TALKING_WOMAN, '-frames:v', '1', '-q:v', '3', glancingFile]);
      const glancing = await context.request.post('/api/faceImages', { data: { personId: person.id, name: 'Glancing', imageData: dataUrl(glancingFile, 'image/jpeg') } });
      expect(glancing.status(), await glancing.text()).toBe(201);
      // And one taken from across the room (the portrait, its face 79 pixels high), deleted again too.
      const farFile = path.join(mediaDir, 'far-away.jpg');
      await ffmpeg(['-i', PORTRAIT, '-vf', 'scale=300:300,pad=640:480:170:90', '-frames:v', '1', '-q:v', '3', farFile]);
      const far = await context.request.post('/api/faceImages', { data: { personId: person.id, name: 'Far away', imageData: dataUrl(farFile, 'image/jpeg') } });
      expect(far.status(), await far.text()).toBe(201);

      // The menu's Create Video: pick the template first.
      await page.goto('/process/new');
      await page.getByRole('link', { name: /Counting/ }).click();
      await page.waitForURL((url) => url.pathname === `/process/${template.id}`);

      // The form as the spec fills it: the default title, both swaps on, the person's default face and voice.
      await expect.poll(() => page.getByLabel('Video Title').inputValue()).toBe('My version of Counting');
      await expect(page.getByLabel("Replace actor's face with your face").isChecked()).resolves.toBe(true);
      await expect(page.getByLabel("Replace actor's voice with your voice").isChecked()).resolves.toBe(true);
      await page.getByRole('radio', { name: 'Smiling', checked: true }).waitFor();
      // The sister's photo has her eyes shut: chosen, the form says so under it, before anything is made.
      const aboutPhoto = page.getByRole('note', { name: 'About the chosen photo' });
      expect(await aboutPhoto.count()).toBe(0);
      await page.getByRole('radio', { name: 'Sister' }).click();
      await aboutPhoto.getByText('The eyes look closed in "Sister": a photo with open eyes gives a more natural video.').waitFor();
      await screenshot(page, 'create-form-eyes-closed-desktop');
      await page.getByRole('radio', { name: 'Glancing' }).click();
      await aboutPhoto.getByText('The eyes look to one side in "Glancing": a photo looking straight at the camera gives a more natural video.').waitFor();
      await screenshot(page, 'create-form-looking-aside-desktop');
      await page.getByRole('radio', { name: 'Far away' }).click();
      await aboutPhoto.getByText('The face in "Far away" is small: a closer photo gives a more natural video.').waitFor();
      await screenshot(page, 'create-form-small-face-desktop');
      expect((await context.request.delete(`/api/faceImages/${((await glancing.json()) as { id: number }).id}`)).status()).toBe(204);
      expect((await context.request.delete(`/api/faceImages/${((await far.json()) as { id: number }).id}`)).status()).toBe(204);
      await page.getByRole('radio', { name: 'Smiling' }).click();
      await aboutPhoto.waitFor({ state: 'detached' });
      await page.getByText(/^More expressions make a more natural video: .*'s smiles and open mouths are used where the actor smiles or speaks\.$/).waitFor();
      await page.getByRole('radio', { name: /Story time/, checked: true }).waitFor();
      await expect(page.getByTestId('estimated-time').textContent()).resolves.toMatch(/Estimated processing time: \d+ (seconds|min \d+ sec)/);
      await page.getByRole('link', { name: 'Manage people profiles' }).waitFor();

      // The client checks what the server checks: a two-letter title is refused with the spec's words.
      await page.getByLabel('Video Title').fill('ab');
      await page.getByRole('button', { name: 'Create My Video' }).click();
      await page.getByText('Title must be at least 3 characters').waitFor();
      await page.getByLabel('Video Title').fill('My version of Counting');
      await screenshot(page, 'create-form-desktop');

      await page.getByRole('button', { name: 'Create My Video' }).click();
      // The status card with a bar per stage, fed by the worker's progress (the API test checks the figures
      // in between; here the render of 4 s may finish between two updates).
      const status = page.getByTestId('processing-status');
      await status.getByText('Processing Video').waitFor({ timeout: 30_000 });
      await status.getByRole('progressbar', { name: 'Face Swapping' }).waitFor();
      await status.getByRole('progressbar', { name: 'Voice Conversion' }).waitFor();
      await screenshot(page, 'create-progress-desktop');
      await status.getByText('Your video has been successfully processed!').waitFor({ timeout: 240_000 });
      await expect(status.getByRole('progressbar', { name: 'Face Swapping' }).getAttribute('aria-valuenow')).resolves.toBe('100');
      await expect(status.getByRole('progressbar', { name: 'Voice Conversion' }).getAttribute('aria-valuenow')).resolves.toBe('100');
      await status.getByText('Success!').waitFor();
      await screenshot(page, 'create-completed-desktop');
      const videoId = Number(new URL(page.url()).searchParams.get('video'));
      const video = (await (await context.request.get(`/api/processedVideos/${videoId}`)).json()) as ProcessedVideo;
      expect(video).toMatchObject({ status: 'completed', title: 'My version of Counting', templateId: template.id });

      // The player: it really plays.
      await status.getByRole('link', { name: 'Watch Video' }).click();
      await page.waitForURL((url) => url.pathname === `/player/${videoId}`);
      const player = page.getByTestId('video-player');
      await player.waitFor();
      await page.getByRole('button', { name: 'Play' }).click();
      await expect.poll(() => player.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 20_000 }).toBeGreaterThan(0.3);
      const notice = page.getByRole('note', { name: 'About this video' });
      await notice.getByText("1 of Grandpa Joe's face images shows someone else, so it was left out of this video.").waitFor();
      // The link opens Grandpa Joe on the People page, where the left-out image can be deleted.
      expect(await notice.getByRole('link', { name: 'Manage face images on the People page' }).getAttribute('href')).toBe(`/people?person=${person.id}`);
      await screenshot(page, 'player-desktop');

      // Download: a signed link whose file is named from the title (spec 02 §9), and it is the real video.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
      expect(download.suggestedFilename()).toBe('my-version-of-counting.mp4');
      const saved = path.join(mediaDir, 'downloaded.mp4');
      await download.saveAs(saved);
      expect(Math.abs((await probe(saved)).duration! - 4)).toBeLessThan(0.15);
      await toasts(page).getByText('Download started', { exact: true }).first().waitFor();

      // Saved Videos: the card, then delete through the dialog; the file is gone too.
      await page.goto('/saved');
      const card = page.getByRole('article').filter({ hasText: 'Your Counting' });
      await card.getByText('Completed').waitFor();
      await card.hover();
      await screenshot(page, 'saved-desktop');
      await card.getByRole('button', { name: 'Delete video' }).click();
      const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'));
      await dialog.getByText('Are you sure you want to delete this video? This action cannot be undone.').waitFor();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await toasts(page).getByText('Video deleted', { exact: true }).first().waitFor();
      await page.getByText('No videos found').waitFor();
      await page.getByText("You haven't created any personalized videos yet.").waitFor();
      expect((await context.request.get(video.videoUrl!)).status()).toBe(404);
      expect((await context.request.get(`/api/processedVideos/${videoId}`)).status()).toBe(404);
    } catch (error) {
      await screenshot(page, 'videos-failure').catch(() => undefined);
      throw error;
    } finally {
      await context.close();
    }
  });

  it('the Create page: a photo added there is selected and starts nothing, errors follow the changes, a voice-only template keeps the face off', { timeout: 240_000 }, async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    page.on('pageerror', (error) => console.error('page error:', error.message));
    try {
      const { userId } = await parentWithPerson(context);
      const videos = async () => (await (await context.request.get(`/api/users/${userId}/processedVideos`)).json()) as ProcessedVideo[];
      await page.goto(`/process/${template.id}`);
      await page.getByRole('radio', { name: 'Smiling', checked: true }).waitFor();

      // Add a photo: the dialog's Save saves the photo only; back on the form it is the chosen face.
      await page.getByRole('button', { name: 'Add a photo' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Face Image' });
      await dialog.getByRole('tab', { name: 'Upload' }).click();
      // A photo without a face is refused in the dialog, and nothing starts behind it either.
      const noFace = path.join(mediaDir, 'sky.jpg');
      await ffmpeg(['-f', 'lavfi', '-i', 'color=c=skyblue:s=640x480', '-frames:v', '1', noFace]);
      await dialog.getByLabel('Upload a face photo').setInputFiles(noFace);
      await dialog.getByRole('button', { name: 'Save Face Image' }).click();
      await dialog.getByText('This photo was not saved').waitFor({ timeout: 30_000 });
      expect(await videos()).toEqual([]);
      await dialog.getByRole('button', { name: 'Choose Another' }).click();
      await dialog.getByLabel('Upload a face photo').setInputFiles(PORTRAIT);
      await dialog.getByRole('button', { name: 'Save Face Image' }).click();
      await dialog.waitFor({ state: 'hidden', timeout: 30_000 });
      await page.getByRole('radio', { name: 'Grandpa Joe - Photo 2', checked: true }).waitFor();
      await expect(page.getByText(/Face image required/).count()).resolves.toBe(0);
      expect(new URL(page.url()).searchParams.get('video')).toBeNull();
      expect(await videos()).toEqual([]);

      // A message goes as soon as its cause does, without submitting again.
      await page.getByLabel('Video Title').fill('ab');
      await page.getByRole('button', { name: 'Create My Video' }).click();
      await page.getByText('Title must be at least 3 characters').waitFor();
      await page.getByLabel('Video Title').fill('abc');
      await page.getByText('Title must be at least 3 characters').waitFor({ state: 'detached' });
      await page.getByLabel("Replace actor's face with your face").uncheck();
      await page.getByLabel("Replace actor's voice with your voice").uncheck();
      await page.getByRole('button', { name: 'Create My Video' }).click();
      await page.getByText('Choose a face or a voice to put in the video.').waitFor();
      await page.getByLabel("Replace actor's voice with your voice").check();
      await page.getByText('Choose a face or a voice to put in the video.').waitFor({ state: 'detached' });
      expect(await videos()).toEqual([]);

      // A voice-only template: the face box is off and neither a click nor the keyboard turns it on.
      await page.goto(`/process/${voiceOnlyTemplate.id}`);
      const faceBox = page.getByLabel("Replace actor's face with your face");
      await expect(faceBox.isChecked()).resolves.toBe(false);
      await expect(faceBox.isDisabled()).resolves.toBe(true);
      await page.getByLabel('Video Title').focus();
      for (let i = 0; i < 4; i++) {
        await page.keyboard.press('Tab');
        await page.keyboard.press('Space');
      }
      await expect(faceBox.isChecked()).resolves.toBe(false);
      await expect(page.getByText('Face Selection').count()).resolves.toBe(0);
      await screenshot(page, 'create-voice-only-template');
    } catch (error) {
      await screenshot(page, 'create-form-failure').catch(() => undefined);
      throw error;
    } finally {
      await context.close();
    }
  });

  it('a failed video: tried again as it was, then with its choices changed; the Free plan’s limit leads to the plans', { timeout: 300_000 }, async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    page.on('pageerror', (error) => console.error('page error:', error.message));
    try {
      const { userId, person } = await parentWithPerson(context);
      const second = await context.request.post('/api/voiceRecordings', {
        data: { personId: person.id, name: 'Bedtime', audioData: dataUrl(path.join(mediaDir, 'bedtime.wav'), 'audio/wav') },
      });
      expect(second.status(), await second.text()).toBe(201);
      // The default recording's file is lost on the server: a real reason for the render to fail.
      const recordings = (await (await context.request.get(`/api/people/${person.id}/voiceRecordings`)).json()) as { name: string; audioUrl: string }[];
      rmSync(createStorage(server.dataDir).fromUrl(recordings.find((recording) => recording.name === 'Story time')!.audioUrl)!.path);

      await page.goto(`/process/${template.id}`);
      await page.getByLabel('Video Title').fill('Counting with Grandpa');
      await page.getByLabel("Replace actor's face with your face").uncheck();
      await page.getByRole('radio', { name: /Story time/, checked: true }).waitFor();
      await page.getByRole('button', { name: 'Create My Video' }).click();
      const status = page.getByTestId('processing-status');
      // Focus follows the parent to the card that now holds their video.
      await expect.poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('[data-testid="processing-status"]')))).toBe(true);
      const reason = 'Processing failed: The recording "Story time" is no longer available. Choose another recording and try again.';
      await status.getByText(reason).waitFor({ timeout: 120_000 });

      // Try again: the same choices, the same video, the same reason.
      const videoId = Number(new URL(page.url()).searchParams.get('video'));
      const read = async () => (await (await context.request.get(`/api/processedVideos/${videoId}`)).json()) as ProcessedVideo;
      const firstRun = (await read()).startedAt;
      await status.getByRole('button', { name: 'Try again' }).click();
      await expect.poll(async () => { const video = await read(); return video.status === 'failed' && video.startedAt !== firstRun; }, { timeout: 60_000 }).toBe(true);
      await status.getByText(reason).waitFor({ timeout: 120_000 });
      await status.getByRole('button', { name: 'Choose another recording' }).waitFor();
      await screenshot(page, 'create-failed-desktop');

      // Change choices: the form comes back with the title, the person and the swaps as they were.
      await status.getByRole('button', { name: 'Change choices' }).click();
      await expect.poll(() => page.getByLabel('Video Title').inputValue()).toBe('Counting with Grandpa');
      await expect(page.getByLabel("Replace actor's face with your face").isChecked()).resolves.toBe(false);
      await page.getByRole('radio', { name: /Story time/, checked: true }).waitFor();
      await page.getByRole('radio', { name: /Bedtime/ }).click();
      await page.getByRole('button', { name: 'Create My Video' }).click();
      await status.getByText('Your video has been successfully processed!').waitFor({ timeout: 120_000 });

      // One failed (not counted) and one made; two more use up the Free plan's three.
      for (const title of ['Second', 'Third']) {
        const made = await context.request.post('/api/processedVideos', { data: { templateId: template.id, title, personId: person.id, useFaceSwap: false, voiceRecordingId: (await second.json()).id } });
        expect(made.status(), await made.text()).toBe(201);
      }
      await page.goto(`/process/${template.id}`);
      await page.getByRole('radio', { name: 'Smiling', checked: true }).waitFor();
      await page.getByRole('radio', { name: /Bedtime/ }).click();
      await page.getByRole('button', { name: 'Create My Video' }).click();
      const refusal = page.getByRole('alert').filter({ hasText: 'Monthly video limit reached' });
      await refusal.getByText(/Your Free plan allows 3 videos a month/).waitFor();
      await expect(toasts(page).getByText('Processing failed').count()).resolves.toBe(0);
      await screenshot(page, 'create-limit-desktop');
      await refusal.getByRole('link', { name: 'See plans' }).click();
      await page.waitForURL((url) => url.pathname === '/profile');
      const plan = page.locator('#plan');
      await plan.getByText('Your plan: Free').waitFor();
      await plan.getByText('3 of 3').waitFor();
      await screenshot(page, 'profile-plan-desktop');
      expect((await (await context.request.get(`/api/users/${userId}/processedVideos`)).json()) as ProcessedVideo[]).toHaveLength(4);
    } catch (error) {
      await screenshot(page, 'create-retry-failure').catch(() => undefined);
      throw error;
    } finally {
      await context.close();
    }
  });

  it('voice-only: a parent’s own video gets the person’s voice and keeps its picture', { timeout: 240_000 }, async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    page.on('pageerror', (error) => console.error('page error:', error.message));
    try {
      await parentWithPerson(context);
      await page.goto('/voice-only');
      await page.getByLabel('Title').fill('Bedtime story');
      await page.getByLabel('Person').selectOption({ label: 'Grandpa Joe (Grandfather)' });
      await page.getByLabel('Choose a video').setInputFiles(path.join(mediaDir, 'counting.mp4'));
      await screenshot(page, 'voice-only-desktop');
      await page.getByRole('button', { name: 'Process Video' }).click();
      await toasts(page).getByText('Video submitted for processing', { exact: true }).first().waitFor({ timeout: 30_000 });
      await page.waitForURL((url) => url.pathname === '/saved');
      const card = page.getByRole('article').filter({ hasText: 'Bedtime story' });
      await card.getByRole('link', { name: /Watch Video/ }).waitFor({ timeout: 180_000 });
      const [video] = (await (await context.request.get(`/api/users/${(await (await context.request.get('/api/me')).json()).id}/processedVideos`)).json()) as ProcessedVideo[];
      expect(video).toMatchObject({ status: 'completed', voiceOnly: true, templateId: null, faceImageId: null });
    } catch (error) {
      await screenshot(page, 'voice-only-failure').catch(() => undefined);
      throw error;
    } finally {
      await context.close();
    }
  });

  it('shows the spec’s error for a template that does not exist, and the Create page on a phone', { timeout: 120_000 }, async () => {
    const { context, page } = await newPage(browser, server.baseUrl, MOBILE);
    try {
      await register(context, 'visitor');
      for (const address of ['/process/abc', '/process/999999']) {
        await page.goto(address);
        await page.getByText('Invalid template ID').waitFor();
        await page.getByText("The template you're looking for doesn't exist or may have been removed.").waitFor();
      }
      await page.getByRole('link', { name: 'Go to Library' }).waitFor();
      // Without people, the form says where faces and voices come from.
      await page.goto(`/process/${template.id}`);
      await page.getByText('Add a person first').waitFor();
      await screenshot(page, 'create-form-mobile');
    } finally {
      await context.close();
    }
  });
});
