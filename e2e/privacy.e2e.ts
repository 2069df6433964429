// A parent's data rights in Chromium (issue 17): the privacy page reads this server's retention; a person
// added is asked for consent, and no face is added without it; 'Download my data' prepares a zip whose
// files are opened and listed; withdrawing consent says what goes, with the numbers, and the photo's file
// is gone from the server's disk; a refusal the page did not expect offers the consent; 'Delete my
// account' signs out to the landing page and the admin no longer lists the account.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import type { CurrentUser, FaceImage, Person } from '../src/shared/api-types';
import { PRIVACY_MESSAGES, consentStatement, rawClipRetentionText } from '../src/shared/privacy';
import { DESKTOP, MOBILE, type RunningServer, SCREENSHOT_DIR, launchBrowser, newPage, screenshot, startServer, uniqueAccount } from './harness';

/** Not the default (30), so the pages show they read this server's setting. */
const RETENTION_DAYS = 14;
/** The NASA portrait shipped with the app (assets/README.md): the face engine needs a real face. */
const PORTRAIT = path.resolve('assets/astronaut.jpg');

let server: RunningServer;
let browser: Browser;
let workDir: string;
let admin: BrowserContext;

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), 'familystar-e2e-privacy-'));
  // Its own copy of the built client, so a build by someone else mid-run changes nothing here.
  const clientDir = path.join(workDir, 'client');
  cpSync('dist/client', clientDir, { recursive: true });
  server = await startServer({ env: { CLIENT_DIR: clientDir, RAW_CLIP_RETENTION_DAYS: String(RETENTION_DAYS) } });
  // A fake camera, so the Add Face Image dialog's Camera tab opens quietly before the test picks Upload.
  browser = await launchBrowser(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream']);
  // The first account of an installation is the admin; the journey runs as a parent.
  admin = await browser.newContext({ baseURL: server.baseUrl });
  const registered = await admin.request.post('/api/register', { data: uniqueAccount('admin') });
  expect(registered.status(), await registered.text()).toBe(201);
}, 120_000);

afterAll(async () => {
  await admin?.close();
  await browser?.close();
  await server?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
  console.log(`Screenshots written to ${SCREENSHOT_DIR}`);
});

// Toasts sit outside any open dialog, which hides the rest of the page from the accessibility tree.
const toasts = (page: Page) => page.getByRole('region', { name: /Notifications/, includeHidden: true });

async function expectToast(page: Page, text: string | RegExp) {
  await toasts(page).getByText(text).first().waitFor();
}

/** Where the server keeps a media URL's file (src/server/storage/storage.ts). */
function storedPath(url: string): string {
  const [kind, ownerId, fileName] = url.replace(/^\/api\/media\//, '').split('/') as [string, string, string];
  return path.join(server.dataDir, 'media', kind, ownerId, fileName.slice(0, 2), fileName.slice(2, 4), fileName);
}

/** Every file under the server's media folder that belongs to this user. */
function mediaFilesOf(userId: number): string[] {
  const root = path.join(server.dataDir, 'media');
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((kind) => {
    const folder = path.join(root, kind, String(userId));
    return existsSync(folder) ? readdirSync(folder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name) : [];
  });
}

/** A dialog as the parent sees it: the viewport only (a full-page picture stretches the overlay oddly). */
async function dialogShot(page: Page, name: string) {
  await page.waitForTimeout(300); // the dialog's pop-in animation
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

async function readZip(file: string): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(readFileSync(file), { lazyEntries: true });
  const entries = new Map<string, Buffer>();
  for await (const entry of zip.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    entries.set(entry.fileName, Buffer.concat(chunks));
  }
  return entries;
}

async function facesOf(context: BrowserContext, personId: number): Promise<FaceImage[]> {
  const response = await context.request.get(`/api/people/${personId}/faceImages`);
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as FaceImage[];
}

/** Adds a face photo through the open Add Face Image dialog. */
async function savePortrait(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Add Face Image' });
  await dialog.getByRole('tab', { name: 'Upload' }).click();
  await dialog.getByLabel('Upload a face photo').setInputFiles(PORTRAIT);
  await dialog.getByRole('img', { name: 'Uploaded face' }).waitFor();
  await dialog.getByRole('button', { name: 'Save Face Image' }).click();
  return dialog;
}

describe("a parent's data rights", () => {
  it('consent, a face, Download my data, withdraw consent, delete the account', { timeout: 300_000 }, async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    page.on('pageerror', (error) => console.error('page error:', error.message));
    try {
      await journey(context, page);
    } catch (error) {
      await screenshot(page, 'privacy-failure').catch(() => undefined);
      throw error;
    } finally {
      await context.close();
    }
  });
});

async function journey(context: BrowserContext, page: Page) {
  // --- The privacy page, public, with this server's periods ------------------------------------------
  await page.goto('/privacy');
  await page.getByRole('heading', { name: 'For how long' }).waitFor();
  await page.getByText(`Raw face clips: deleted ${RETENTION_DAYS} days after their faces were taken out.`).waitFor();
  await page.getByText(/The zip from .Download my data.: 24 hours, then it is deleted\./).waitFor();
  await screenshot(page, 'privacy-page');

  const account = uniqueAccount('parent');
  const registered = await context.request.post('/api/register', { data: account });
  expect(registered.status(), await registered.text()).toBe(201);
  const user = (await registered.json()) as CurrentUser;

  // --- Add a person: the consent is asked at once; 'Not now' leaves it for the first face -------------
  await page.goto('/people');
  await page.getByText('No people yet').waitFor();
  await page.getByRole('button', { name: 'Add Person' }).first().click();
  const form = page.getByRole('dialog', { name: 'Add New Person' });
  await form.getByLabel('Name').fill('Sam');
  await form.getByLabel('Relationship').fill('Son');
  await form.getByRole('button', { name: 'Add Person' }).click();
  let consent = page.getByRole('dialog', { name: 'Consent for Sam' });
  await consent.getByText(consentStatement('Sam')).waitFor();
  await consent.getByText(/^Consent wording version \d{4}-\d{2}-\d{2}$/).waitFor();
  await dialogShot(page, 'privacy-consent-dialog');
  await page.setViewportSize(MOBILE);
  await dialogShot(page, 'privacy-consent-dialog-mobile');
  await page.setViewportSize(DESKTOP);
  await consent.getByRole('button', { name: 'Not now' }).click();
  await consent.waitFor({ state: 'detached' });
  const card = page.getByRole('region', { name: 'Consent', exact: true });
  await card.getByText('No consent yet').waitFor();

  // The first face asks for it again; once given, the Add Face Image dialog follows by itself.
  await page.getByRole('button', { name: 'Add Face Image' }).click();
  consent = page.getByRole('dialog', { name: 'Consent for Sam' });
  await consent.getByRole('button', { name: 'Give consent' }).click();
  await consent.getByText('Please choose who is giving consent').waitFor();
  await consent.getByLabel("I am Sam's parent or legal guardian").check();
  await consent.getByRole('button', { name: 'Give consent' }).click();
  await expectToast(page, 'Consent recorded for Sam');
  const addFace = await savePortrait(page);
  await expectToast(page, 'Face image added successfully');
  await addFace.waitFor({ state: 'detached' });
  await card.getByText(/^Consent given by you on .+, as their parent or guardian$/).waitFor();
  await page.getByRole('list', { name: 'Face images' }).getByRole('listitem').first().waitFor();
  await screenshot(page, 'privacy-person-consent');

  const people = (await (await context.request.get(`/api/users/${user.id}/people`)).json()) as Person[];
  const sam = people.find((person) => person.name === 'Sam')!;
  expect(sam.consent).toMatchObject({ basis: 'guardian', givenBy: user.id });
  const [face] = await facesOf(context, sam.id);
  const photoFile = storedPath(face!.imageUrl);
  expect(existsSync(photoFile)).toBe(true);
  const photoBytes = readFileSync(photoFile);

  // --- Profile → Your data: the retention, Download my data with its progress, the activity ------------
  await page.goto('/profile#data');
  const yourData = page.locator('#data');
  await yourData.getByRole('heading', { name: 'Your data' }).waitFor();
  await yourData.getByText(rawClipRetentionText(RETENTION_DAYS), { exact: false }).waitFor();
  await yourData.getByRole('button', { name: 'Download my data' }).click();
  const downloadButton = yourData.getByRole('button', { name: /^Download \(\d+(\.\d)? (KB|MB)\)$/ });
  await downloadButton.waitFor({ timeout: 90_000 });
  await yourData.getByText(/^Available until /).waitFor();
  const activity = yourData.getByRole('list', { name: 'Activity' });
  await activity.getByText(/Consent given for Sam/).waitFor();
  // From the top: a full-page picture taken scrolled down draws the sticky header mid-page.
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'privacy-your-data');

  const [download] = await Promise.all([page.waitForEvent('download'), downloadButton.click()]);
  expect(download.suggestedFilename()).toMatch(/^familystar-data-\d{4}-\d{2}-\d{2}\.zip$/);
  const zipFile = path.join(workDir, 'export.zip');
  await download.saveAs(zipFile);
  const zip = await readZip(zipFile);
  const names = [...zip.keys()];
  console.log(`The export holds: ${names.join(', ')}`);
  expect(names).toContain('README.txt');
  const photoInZip = names.filter((name) => name.startsWith('media/face-images/'));
  expect(photoInZip).toHaveLength(1);
  expect(zip.get(photoInZip[0]!)!.equals(photoBytes)).toBe(true);

  // --- Withdraw consent: the confirmation counts what goes; the photo's file is gone -------------------
  await page.goto('/people');
  await card.getByRole('button', { name: 'Withdraw consent' }).click();
  const withdraw = page.getByRole('alertdialog', { name: 'Withdraw consent for Sam?' });
  await withdraw
    .getByText("Sam's 1 face photo, 0 face clips, 0 voice recordings and the 0 videos made with them will be deleted. Sam's profile stays. This cannot be undone.")
    .waitFor();
  await dialogShot(page, 'privacy-withdraw-confirmation');
  await withdraw.getByRole('button', { name: 'Withdraw consent' }).click();
  await expectToast(page, 'Consent withdrawn for Sam');
  await withdraw.waitFor({ state: 'detached' });
  await card.getByText('No consent yet').waitFor();
  await page.getByText('No face images yet').waitFor();
  await page.getByRole('heading', { name: 'Sam', exact: true }).waitFor();
  expect(await facesOf(context, sam.id)).toEqual([]);
  expect(existsSync(photoFile)).toBe(false);

  // --- A refusal the page did not expect (consent withdrawn in another tab) offers the consent ---------
  await card.getByRole('button', { name: 'Give consent' }).click();
  consent = page.getByRole('dialog', { name: 'Consent for Sam' });
  await consent.getByLabel("I am Sam's parent or legal guardian").check();
  await consent.getByRole('button', { name: 'Give consent' }).click();
  await card.getByText(/^Consent given by you on /).waitFor();
  const elsewhere = await context.request.delete(`/api/people/${sam.id}/consent`);
  expect(elsewhere.status(), await elsewhere.text()).toBe(200);
  await page.getByRole('button', { name: 'Add Face Image' }).click();
  const retry = await savePortrait(page);
  await expectToast(page, PRIVACY_MESSAGES.consentRequired('Sam'));
  await toasts(page).getByRole('button', { name: 'Give consent', includeHidden: true }).click();
  consent = page.getByRole('dialog', { name: 'Consent for Sam' });
  await consent.getByLabel("I am Sam's parent or legal guardian").check();
  await consent.getByRole('button', { name: 'Give consent' }).click();
  await consent.waitFor({ state: 'detached' });
  await retry.getByRole('button', { name: 'Save Face Image' }).click();
  await expectToast(page, 'Face image added successfully');
  expect(await facesOf(context, sam.id)).toHaveLength(1);

  // --- Delete my account: a wrong password is refused inline; then everything goes ----------------------
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Delete my account' }).click();
  const remove = page.getByRole('alertdialog', { name: 'Delete my account' });
  await remove
    .getByText('This deletes your account, your people, their face photos, clips and voice recordings, your videos and your data exports. It cannot be undone.')
    .waitFor();
  await remove.getByLabel('Your password').fill('not my password');
  await remove.getByRole('button', { name: 'Delete my account' }).click();
  await remove.getByText(PRIVACY_MESSAGES.wrongPassword).waitFor();
  await dialogShot(page, 'privacy-delete-dialog');
  expect(mediaFilesOf(user.id).length).toBeGreaterThan(0);
  await remove.getByLabel('Your password').fill(account.password);
  await remove.getByRole('button', { name: 'Delete my account' }).click();
  await page.waitForURL((url) => url.pathname === '/landing');
  await expectToast(page, 'Your account and all its data were deleted.');
  expect((await context.request.get('/api/me')).status()).toBe(401);
  const listed = (await (await admin.request.get('/api/admin/users')).json()) as CurrentUser[];
  expect(listed.map((row) => row.username)).not.toContain(account.username);
  expect(mediaFilesOf(user.id)).toEqual([]);
}
