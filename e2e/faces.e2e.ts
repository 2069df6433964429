// The Add Face Image dialog in Chromium, as a new parent meets it (issue 14): a group photo says how many
// faces it holds and shows the one it will use, and the parent crops it to another face (the crop replaces
// the photo) or keeps it; a refused photo's message shows once, in the dialog, and on a phone no toast
// covers the dialog's title or its close button. The server analyses the real photos.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaceImage, Person } from '../src/shared/api-types';
import { API_HEADERS } from '../src/server/http/security-headers';
import { FACE_ANALYSIS_MESSAGES } from '../src/shared/face-analysis';
import { DESKTOP, MOBILE, type RunningServer, SCREENSHOT_DIR, launchBrowser, newPage, screenshot, startServer, uniqueAccount } from './harness';

const FACE_API_DEMO = path.join(path.dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')), 'demo');
/** Three women (1920×1280); the centres of their faces as fractions of the photo, left to right. */
const GROUP_OF_THREE = path.join(FACE_API_DEMO, 'sample1.jpg');
const THREE_FACES = [
  { x: 0.265, y: 0.37 },
  { x: 0.48, y: 0.41 },
  { x: 0.82, y: 0.24 },
];
/** Four women. */
const GROUP_OF_FOUR = path.join(FACE_API_DEMO, 'sample6.jpg');

let server: RunningServer;
let browser: Browser;
let mediaDir: string;
const media = { noFace: '', text: '' };

beforeAll(async () => {
  mediaDir = mkdtempSync(path.join(tmpdir(), 'familystar-e2e-faces-'));
  media.noFace = path.join(mediaDir, 'sky.jpg');
  media.text = path.join(mediaDir, 'notes.txt');
  await sharp({ create: { width: 640, height: 480, channels: 3, background: '#8fc3e8' } }).jpeg().toFile(media.noFace);
  writeFileSync(media.text, 'not an image');
  // Its own copy of the built client, so a build by someone else mid-run changes nothing here.
  const clientDir = path.join(mediaDir, 'client');
  cpSync('dist/client', clientDir, { recursive: true });
  server = await startServer({ env: { CLIENT_DIR: clientDir } });
  // A fake camera, so the dialog's Camera tab opens quietly before the test picks Upload.
  browser = await launchBrowser(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream']);
  // The first account of an installation is the admin; the tests run as parents.
  const { context } = await newPage(browser, server.baseUrl);
  await context.request.post('/api/register', { data: uniqueAccount('admin') });
  await context.close();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
  console.log(`Screenshots written to ${SCREENSHOT_DIR}`);
});

// Toasts sit outside any open dialog, which hides the rest of the page from the accessibility tree.
const toasts = (page: Page) => page.getByRole('region', { name: /Notifications/, includeHidden: true });

/** A new parent with one person, on the People page with that person's Face Images tab open. */
async function parentOnPeoplePage(context: BrowserContext, page: Page): Promise<Person> {
  const account = uniqueAccount('parent');
  const registered = await context.request.post('/api/register', { data: account });
  expect(registered.status(), await registered.text()).toBe(201);
  const created = await context.request.post('/api/people', { data: { name: 'Aunt May', relationship: 'Aunt' } });
  expect(created.status(), await created.text()).toBe(201);
  const consent = await context.request.post(`/api/people/${((await created.json()) as Person).id}/consent`, { data: { basis: 'guardian' } });
  expect(consent.status(), await consent.text()).toBe(201);
  await page.goto('/people');
  await page.getByRole('heading', { name: 'Aunt May', exact: true }).waitFor();
  await page.getByText('No face images yet').waitFor();
  return (await created.json()) as Person;
}

async function openUploadDialog(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Add Face Image' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Face Image' });
  await dialog.getByRole('tab', { name: 'Upload' }).click();
  return dialog;
}

async function facesOf(context: BrowserContext, person: Person): Promise<FaceImage[]> {
  return (await (await context.request.get(`/api/people/${person.id}/faceImages`)).json()) as FaceImage[];
}

async function centreOf(locator: Locator): Promise<{ x: number; y: number }> {
  const box = (await locator.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** True when what is drawn at the element's centre belongs to it (nothing, a toast say, lies over it). */
async function isUncovered(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const { x, y, width, height } = element.getBoundingClientRect();
    const top = document.elementFromPoint(x + width / 2, y + height / 2);
    return top !== null && element.contains(top);
  });
}

async function run(viewport: { width: number; height: number }, journey: (context: BrowserContext, page: Page) => Promise<void>, name: string) {
  const { context, page } = await newPage(browser, server.baseUrl, viewport);
  page.on('pageerror', (error) => console.error('page error:', error.message));
  try {
    await journey(context, page);
  } catch (error) {
    await screenshot(page, `${name}-failure`).catch(() => undefined);
    throw error;
  } finally {
    await context.close();
  }
}

describe('Add Face Image dialog', () => {
  it.each([
    ['desktop', DESKTOP],
    ['mobile', MOBILE],
  ])('a group photo (%s): shows the face it will use, crops to another face, keeps only the crop', async (label, viewport) => {
    await run(viewport, async (context, page) => {
      const person = await parentOnPeoplePage(context, page);
      const dialog = await openUploadDialog(page);
      await dialog.getByLabel('Upload a face photo').setInputFiles(GROUP_OF_THREE);
      await dialog.getByRole('img', { name: 'Uploaded face' }).waitFor();
      await dialog.getByRole('button', { name: 'Save Face Image' }).click();

      // Saved with its largest face, and the dialog says so before it closes.
      await dialog.getByText("We found 3 faces in this photo. We'll use this one:").waitFor({ timeout: 30_000 });
      const preview = dialog.getByRole('img', { name: "The face we'll use for Aunt May" });
      await expect.poll(() => preview.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(1920);
      const [first] = await facesOf(context, person);
      expect(first).toMatchObject({ facesInPhoto: 3, isDefault: true, name: 'Aunt May - Photo 1' });
      await screenshot(page, `face-group-photo-${label}`);

      // The parent crops the photo to another woman's face: drag the square there, nudge it with the keys.
      await dialog.getByRole('button', { name: 'Crop the photo' }).click();
      const photo = dialog.getByRole('img', { name: 'The whole photo' });
      const area = dialog.getByRole('group', { name: 'Crop area' });
      await area.waitFor();
      const drag = async (to: { x: number; y: number }) => {
        const from = await centreOf(area);
        await page.mouse.move(from.x, from.y);
        await page.mouse.down();
        await page.mouse.move(to.x, to.y, { steps: 8 });
        await page.mouse.up();
      };
      let frame = (await photo.boundingBox())!;
      if (label === 'desktop') {
        // A crop without a face (the bottom-right corner: a chair) is refused in words; the photo stays.
        await drag({ x: frame.x + frame.width, y: frame.y + frame.height });
        await dialog.getByRole('button', { name: 'Save Crop' }).click();
        await dialog.getByRole('alert').getByText(FACE_ANALYSIS_MESSAGES.noFaceInPhoto).waitFor({ timeout: 30_000 });
        expect(await toasts(page).getByText(FACE_ANALYSIS_MESSAGES.noFaceInPhoto).count()).toBe(0);
        expect((await facesOf(context, person)).map((image) => image.id)).toEqual([first!.id]);
        await screenshot(page, 'face-group-crop-refused-desktop');
        frame = (await photo.boundingBox())!;
      }
      const used = { x: first!.faceBox!.x + first!.faceBox!.width / 2, y: first!.faceBox!.y + first!.faceBox!.height / 2 };
      const other = THREE_FACES.reduce((far, face) => (Math.hypot(face.x - used.x, face.y - used.y) > Math.hypot(far.x - used.x, far.y - used.y) ? face : far));
      const target = { x: frame.x + other.x * frame.width, y: frame.y + other.y * frame.height };
      await drag(target);
      const dropped = await centreOf(area);
      expect(Math.abs(dropped.x - target.x)).toBeLessThan(frame.width * 0.03);
      expect(Math.abs(dropped.y - target.y)).toBeLessThan(frame.height * 0.06);
      await expect.poll(() => area.evaluate((element) => element === document.activeElement)).toBe(true);
      await page.keyboard.press('ArrowLeft');
      expect((await centreOf(area)).x).toBeLessThan(dropped.x);
      await page.keyboard.press('ArrowRight');
      // The slider resizes it around its centre.
      const slider = dialog.getByRole('slider', { name: 'Crop size' });
      const size = Number(await slider.inputValue());
      await slider.focus();
      await page.keyboard.press('ArrowLeft');
      await expect.poll(async () => Number(await slider.inputValue())).toBeLessThan(size);
      await screenshot(page, `face-group-crop-${label}`);

      await dialog.getByRole('button', { name: 'Save Crop' }).click();
      await dialog.waitFor({ state: 'detached', timeout: 30_000 });
      await toasts(page).getByText('Face image added successfully', { exact: true }).first().waitFor();
      // One photo: the crop, with one face, the default, under the same name; the whole photo is gone.
      const list = page.getByRole('list', { name: 'Face images' });
      await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
      const images = await facesOf(context, person);
      expect(images).toHaveLength(1);
      expect(images[0]).toMatchObject({ facesInPhoto: 1, isDefault: true, name: 'Aunt May - Photo 1' });
      expect(images[0]!.id).not.toBe(first!.id);
      expect((await context.request.get(first!.imageUrl)).status()).toBe(404);
      await screenshot(page, `face-group-cropped-${label}`);

      if (label !== 'desktop') return;
      // The photo opened in a tab of its own shows, under the API's short header set (decision 015).
      const own = await context.newPage();
      const opened = await own.goto(images[0]!.imageUrl);
      expect(opened!.headers()).toMatchObject({ 'content-security-policy': API_HEADERS['content-security-policy'], 'x-content-type-options': 'nosniff' });
      await expect.poll(() => own.evaluate(() => (document.images[0]?.complete ? document.images[0].naturalWidth : 0))).toBeGreaterThan(0);
      await own.close();

      // Keeping the face chosen: the photo is saved as it is.
      const again = await openUploadDialog(page);
      await again.getByLabel('Upload a face photo').setInputFiles(GROUP_OF_FOUR);
      await again.getByRole('button', { name: 'Save Face Image' }).click();
      await again.getByText("We found 4 faces in this photo. We'll use this one:").waitFor({ timeout: 30_000 });
      await again.getByRole('button', { name: 'Use this face' }).click();
      await again.waitFor({ state: 'detached' });
      await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
      expect((await facesOf(context, person)).map((image) => image.facesInPhoto)).toEqual([1, 4]);
    }, `face-group-${label}`);
  }, 120_000);

  it('on a phone, a refused photo is explained once, in the dialog, and toasts leave its title and close button clear', async () => {
    await run(MOBILE, async (context, page) => {
      const person = await parentOnPeoplePage(context, page);
      const dialog = await openUploadDialog(page);
      const title = dialog.getByRole('heading', { name: 'Add Face Image' });
      const close = dialog.getByRole('button', { name: 'Close' });

      await dialog.getByLabel('Upload a face photo').setInputFiles(media.noFace);
      await dialog.getByRole('img', { name: 'Uploaded face' }).waitFor();
      await dialog.getByRole('button', { name: 'Save Face Image' }).click();
      const message = FACE_ANALYSIS_MESSAGES.noFaceInPhoto;
      await dialog.getByRole('alert').getByText(message).waitFor({ timeout: 30_000 });
      // A toast would have been raised with the error; give one a moment to show anyway.
      await page.waitForTimeout(500);
      expect(await toasts(page).getByText(message).count()).toBe(0);
      expect(await page.getByText(message).count()).toBe(1);
      expect(await isUncovered(title)).toBe(true);
      expect(await isUncovered(close)).toBe(true);
      expect(await facesOf(context, person)).toEqual([]);
      await screenshot(page, 'face-photo-refused-mobile');

      // A toast raised inside the dialog (a file that is not a picture) sits at the bottom, clear of the header.
      await dialog.getByRole('button', { name: 'Choose Another' }).click();
      await dialog.getByLabel('Upload a face photo').setInputFiles(media.text);
      const toast = toasts(page).getByText('Invalid file type', { exact: true });
      await toast.waitFor();
      // The empty upload box fits the phone: nothing pushes the header out under the close button.
      expect(await dialog.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      const toastBox = (await toast.boundingBox())!;
      const header = (await close.boundingBox())!;
      expect(toastBox.y).toBeGreaterThan(header.y + header.height);
      expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(MOBILE.height);
      expect(await isUncovered(title)).toBe(true);
      expect(await isUncovered(close)).toBe(true);
      await screenshot(page, 'face-dialog-toast-mobile');
    }, 'face-refused-mobile');
  }, 120_000);
});
