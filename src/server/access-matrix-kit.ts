// The world the access matrix (access-matrix.test.ts) runs in: an admin and two parents with a person, a
// face photo, a face clip, a voice recording, a streamed upload and a saved video each; free and premium
// templates; a snapshot of every row and file, to prove a refused write changed nothing; and the strings
// by which each party's data can be recognised in a body where it does not belong.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import {
  faceImages,
  faceVideos,
  people,
  pendingUploads,
  processedVideoPeople,
  processedVideos,
  purchases,
  users,
  videoTemplates,
  voiceRecordings,
} from './db/schema';
import type { MediaKind } from './storage/storage';
import { dataUrl, filesUnder, fixtures, multipart } from './testing/media-fixtures';
import { type TestApp, type TestClient, json } from './testing/test-app';

export type Role = 'visitor' | 'owner' | 'other' | 'admin';
/** The order of the statuses in the matrix's rows. */
export const ROLES = ['visitor', 'owner', 'other', 'admin'] as const satisfies readonly Role[];

/** Real photos shipped in face-api's demo folder (tests only). */
const FACE_API_DEMO = path.join(path.dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')), 'demo');

export interface Account {
  id: number;
  username: string;
  password: string;
  /** Found in this account's username, e-mail and display name. */
  accountTag: string;
  /** A client signed in as this account for the whole suite. */
  client: TestClient;
}

interface Media {
  id: number;
  url: string;
}

export interface Parent extends Account {
  /** Found in the names of this parent's person, media and videos. */
  familyTag: string;
  personId: number;
  faceImage: Media;
  faceVideo: Media;
  voice: Media;
  video: Media;
  /** A clip streamed to /api/upload/video that no face video uses yet. */
  pendingUploadUrl: string;
}

export interface Template {
  id: number;
  videoUrl: string;
  thumbnailUrl: string;
}

/** Whose data a role may see in an answer besides its own: nobody's (the default), or other accounts (an admin's user pages). */
export type Sees = 'nothing' | 'accounts';

export interface World {
  t: TestApp;
  admin: Account;
  owner: Parent;
  other: Parent;
  freeTemplate: Template;
  premiumTemplate: Template;
  /** The role's session for the whole suite; a visitor is a new client with no cookie each time. */
  client(role: Role): TestClient;
  /** A new client with a session of its own, for calls that change the caller's session (sign-in, sign-out). */
  signIn(role: Role): Promise<TestClient>;
  account(role: Role): Account | undefined;
  /** Every row of the product's tables and every stored and temporary file. */
  snapshot(): Promise<unknown>;
  /** What identifies a party's account (username, e-mail, display name) and family (names, file ids, ids of private rows) in a body. */
  dataOf(role: Exclude<Role, 'visitor'>): { account: string[]; family: (string | RegExp)[] };
  /** What must not appear in an answer to `role`: every other party's data, but the accounts an admin `sees`. */
  foreignData(role: Role, sees: Sees): (string | RegExp)[];
  /** A new row of the owner's (with a real file where the row has one), for calls that change or delete it. */
  spare: {
    person(): Promise<Media>;
    faceImage(): Promise<Media>;
    faceVideo(): Promise<Media>;
    voice(): Promise<Media>;
    video(fields?: Partial<typeof processedVideos.$inferInsert>): Promise<Media>;
    template(): Promise<Media>;
    /** A clip streamed to /api/upload/video by the owner (its `url`; `id` is the person's). */
    pendingUpload(): Promise<Media>;
  };
}

const PASSWORD = 'correct horse battery';
const tag = (prefix: string) => `${prefix}${randomBytes(5).toString('hex')}`;

async function register(t: TestApp, label: string): Promise<Account> {
  const client = t.client();
  const accountTag = tag(label);
  const { user, username } = await client.register({
    username: accountTag,
    email: `${accountTag}@example.com`,
    displayName: `Display ${accountTag}`,
    password: PASSWORD,
  });
  return { id: user.id, username, password: PASSWORD, accountTag, client };
}

async function created(response: Awaited<ReturnType<TestClient['request']>>, what: string) {
  if (response.statusCode !== 201) throw new Error(`${what}: ${response.statusCode} ${response.body}`);
  return json<Record<string, unknown>>(response);
}

/** Moves bytes into storage as a file of `kind` owned by `ownerId`. */
async function store(t: TestApp, bytes: Buffer, kind: MediaKind, ownerId: number, ext: string) {
  const temp = await t.storage.tempPath();
  await writeFile(temp, bytes);
  return t.storage.moveIn(temp, kind, ownerId, ext);
}

/** A parent on the Premium plan (several people, no monthly limit) with one of everything, made through the API where it can be. */
async function parent(t: TestApp, label: string, photo: string): Promise<Parent> {
  const account = await register(t, label);
  const { client, id } = account;
  await t.database.db.update(users).set({ plan: 'premium' }).where(eq(users.id, id));
  const familyTag = tag(`${label}fam`);
  const person = await created(await client.post('/api/people', { name: `Person ${familyTag}`, relationship: `Aunt ${familyTag}` }), 'person');
  const personId = person.id as number;
  await created(await client.post(`/api/people/${personId}/consent`, { basis: 'guardian' }), 'consent');
  const face = await created(
    await client.post('/api/faceImages', { personId, name: `Face ${familyTag}`, imageData: dataUrl(readFileSync(path.join(FACE_API_DEMO, photo)), 'image/jpeg') }),
    'face image',
  );
  const clip = await created(
    await client.post('/api/faceVideos', { personId, name: `Clip ${familyTag}`, videoData: dataUrl(fixtures.faceClip(4), 'video/mp4') }),
    'face video',
  );
  const voice = await created(
    await client.post('/api/voiceRecordings', { personId, name: `Voice ${familyTag}`, audioData: dataUrl(fixtures.webmTone(6), 'audio/webm;codecs=opus') }),
    'voice recording',
  );
  const pendingUploadUrl = await upload(client, personId);
  // A saved video: a completed row with a real small file (a render would take minutes and prove nothing more here).
  const file = await store(t, fixtures.mp4(), 'processed-videos', id, 'mp4');
  const [video] = await t.database.db
    .insert(processedVideos)
    .values({ userId: id, personId, faceImageId: face.id as number, title: `Video ${familyTag}`, status: 'completed', videoUrl: file.url, outputUrl: file.url, completedAt: new Date() })
    .returning();
  return {
    ...account,
    familyTag,
    personId,
    faceImage: { id: face.id as number, url: face.imageUrl as string },
    faceVideo: { id: clip.id as number, url: clip.videoUrl as string },
    voice: { id: voice.id as number, url: voice.audioUrl as string },
    video: { id: video!.id, url: file.url },
    pendingUploadUrl,
  };
}

/** Streams a face clip to /api/upload/video for the person; the URL it is kept under until a face video uses it. */
async function upload(client: TestClient, personId: number): Promise<string> {
  const body = multipart([
    { name: 'personId', value: String(personId) },
    { name: 'video', filename: 'clip.mp4', type: 'video/mp4', content: fixtures.faceClip(4) },
  ]);
  return (await created(await client.request('POST', '/api/upload/video', body.payload, body.headers), 'upload')).videoUrl as string;
}

async function template(t: TestApp, fields: Partial<typeof videoTemplates.$inferInsert>): Promise<Template> {
  const [row] = await t.database.db
    .insert(videoTemplates)
    .values({ title: 'Counting Song', description: 'Count to ten', duration: 3, ...fields })
    .returning();
  const video = await store(t, fixtures.avMp4(), 'templates', row!.id, 'mp4');
  const thumbnail = await store(t, fixtures.smallJpeg(), 'templates', row!.id, 'jpg');
  await t.database.db.update(videoTemplates).set({ videoUrl: video.url, thumbnailUrl: thumbnail.url }).where(eq(videoTemplates.id, row!.id));
  return { id: row!.id, videoUrl: video.url, thumbnailUrl: thumbnail.url };
}


/** The file names (random ids) of a parent's stored files. */
const fileIds = (p: Parent) => [p.faceImage.url, p.faceVideo.url, p.voice.url, p.video.url, p.pendingUploadUrl].map((url) => path.basename(url, path.extname(url)));

export async function buildWorld(t: TestApp): Promise<World> {
  const admin = await register(t, 'admin'); // the first account is the admin
  const owner = await parent(t, 'owner', 'sample2.jpg');
  const other = await parent(t, 'other', 'sample3.jpg');
  const freeTemplate = await template(t, { title: 'Free Counting Song', featured: true });
  const premiumTemplate = await template(t, { title: 'Premium Counting Song', isPremium: true, priceCents: 299 });
  const parties: Record<Exclude<Role, 'visitor'>, Account> = { owner, other, admin };
  const { db } = t.database;

  async function signIn(role: Role): Promise<TestClient> {
    const client = t.client();
    if (role === 'visitor') return client;
    const { username, password } = parties[role];
    const response = await client.post('/api/login', { username, password });
    if (response.statusCode !== 200) throw new Error(`sign-in as ${role}: ${response.statusCode} ${response.body}`);
    return client;
  }

  async function snapshot() {
    const tables = [users, people, faceImages, faceVideos, voiceRecordings, pendingUploads, processedVideos, processedVideoPeople, videoTemplates, purchases];
    const rows: unknown[] = [];
    // One at a time: PGlite runs one query at a time anyway.
    for (const table of tables) rows.push(await db.select().from(table).orderBy(asc(table.id)));
    return { rows, files: filesUnder(t.storage.root), tmp: filesUnder(path.join(t.dataDir, 'tmp')) };
  }

  function dataOf(role: Exclude<Role, 'visitor'>): { account: string[]; family: (string | RegExp)[] } {
    const parent = role === 'admin' ? undefined : { owner, other }[role];
    const family = parent
      ? [parent.familyTag, ...fileIds(parent), new RegExp(`"userId":${parent.id}(?!\\d)`), new RegExp(`"personId":${parent.personId}(?!\\d)`)]
      : [];
    return { account: [parties[role].accountTag], family };
  }

  function foreignData(role: Role, sees: Sees): (string | RegExp)[] {
    return (Object.keys(parties) as Exclude<Role, 'visitor'>[])
      .filter((party) => party !== role)
      .flatMap((party) => {
        const { account, family } = dataOf(party);
        return role === 'admin' && sees === 'accounts' ? family : [...account, ...family];
      });
  }

  const spare = {
    async person() {
      const [row] = await db
        .insert(people)
        .values({ userId: owner.id, name: `Spare ${owner.familyTag}`, relationship: `Aunt ${owner.familyTag}`, consentBasis: 'guardian', consentVersion: 'test', consentGivenAt: new Date(), consentGivenBy: owner.id })
        .returning();
      return { id: row!.id, url: '' };
    },
    async faceImage() {
      const file = await store(t, fixtures.jpeg(), 'face-images', owner.id, 'jpg');
      const [row] = await db
        .insert(faceImages)
        .values({ userId: owner.id, personId: owner.personId, imageUrl: file.url, name: `Spare face ${owner.familyTag}`, mlProcessed: true })
        .returning();
      return { id: row!.id, url: file.url };
    },
    async faceVideo() {
      const file = await store(t, fixtures.faceClip(4), 'face-videos', owner.id, 'mp4');
      const [row] = await db
        .insert(faceVideos)
        .values({ userId: owner.id, personId: owner.personId, videoUrl: file.url, name: `Spare clip ${owner.familyTag}`, duration: 4 })
        .returning();
      return { id: row!.id, url: file.url };
    },
    async voice() {
      const file = await store(t, fixtures.webmTone(6), 'voice-recordings', owner.id, 'weba');
      const [row] = await db
        .insert(voiceRecordings)
        .values({ userId: owner.id, personId: owner.personId, audioUrl: file.url, name: `Spare voice ${owner.familyTag}`, duration: 6 })
        .returning();
      return { id: row!.id, url: file.url };
    },
    async video(fields: Partial<typeof processedVideos.$inferInsert> = {}) {
      const file = await store(t, fixtures.mp4(), 'processed-videos', owner.id, 'mp4');
      const [row] = await db
        .insert(processedVideos)
        .values({
          userId: owner.id,
          personId: owner.personId,
          templateId: freeTemplate.id,
          faceImageId: owner.faceImage.id,
          title: `Spare video ${owner.familyTag}`,
          status: 'completed',
          videoUrl: file.url,
          outputUrl: file.url,
          ...fields,
        })
        .returning();
      return { id: row!.id, url: file.url };
    },
    async template() {
      return { id: (await template(t, { title: 'Spare Template' })).id, url: '' };
    },
    async pendingUpload() {
      return { id: owner.personId, url: await upload(owner.client, owner.personId) };
    },
  };

  return {
    t,
    admin,
    owner,
    other,
    freeTemplate,
    premiumTemplate,
    client: (role) => (role === 'visitor' ? t.client() : parties[role].client),
    signIn,
    account: (role) => (role === 'visitor' ? undefined : parties[role]),
    snapshot,
    dataOf,
    foreignData,
    spare,
  };
}
