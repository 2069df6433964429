// The access matrix (issue 16, "Prove the rest" 1; decision 015): every route of the server, read from its
// own route table, tried as a visitor, as the parent who owns the data, as another parent and as an admin.
// Each answer's status is checked; no answer carries another party's data; a refused write changes no row
// and no file; and where the code says a row is not even said to exist, a missing id gets the very same
// answer. A route without a row here fails the first test: add its row (see decision 015).
import { randomBytes, randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MediaLink } from '../shared/video-rules';
import { type Role, ROLES, type Sees, type World, buildWorld } from './access-matrix-kit';
import { dataExports } from './db/schema';
import { MEDIA_LINK_LIFETIME_MS } from './features/videos/service';
import { testDatabases } from './testing/databases';
import { type MultipartPart, dataUrl, fixtures, multipart } from './testing/media-fixtures';
import { type TestApp, type TestClient, createTestApp, json } from './testing/test-app';

const databases = await testDatabases();

/** The expected status for each role, in the order of ROLES: visitor, owner, another parent, admin. */
type Statuses = readonly [visitor: number, owner: number, other: number, admin: number];

/** People's data (faces and voices are biometric): their owner only, not even an admin. */
const OWNER_ONLY: Statuses = [401, 200, 403, 403];
/** Processed videos: another parent's is not even said to exist. */
const HIDDEN: Statuses = [401, 200, 404, 404];
const SIGNED_IN: Statuses = [401, 200, 200, 200];
const ANYONE: Statuses = [200, 200, 200, 200];
const ADMIN_ONLY: Statuses = [401, 403, 403, 200];
/** A user's own account, which an admin manages too. */
const SELF_OR_ADMIN: Statuses = [401, 200, 403, 200];
/** The same with another success status (201 created, 204 no content). */
const succeeding = (statuses: Statuses, status: number) => statuses.map((s) => (s === 200 ? status : s)) as unknown as Statuses;

/** An id no row has. */
const MISSING = 999_999;

interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
  /** A multipart form, built anew for each request (its stream is read once). */
  form?: MultipartPart[];
}

/** The row a call is aimed at, when the case makes one (a spare row to change or delete, a signed link). */
interface Target {
  id: number;
  url: string;
}

interface Case {
  /** What is tried, when a route has several cases. */
  name?: string;
  prepare?: (w: World) => Promise<Target>;
  call: (w: World, role: Role, target: Target) => Call;
  statuses: Statuses;
  /**
   * The same call for an id no row has, and what another parent gets for it. When that is the status they
   * get for the owner's row, the two answers must be identical (the row's existence does not leak); a
   * visitor's must too, unless `visitor` says otherwise: the template catalogue is no secret, and a
   * visitor is told that a premium original is not public and a missing template is not found (issue 20).
   */
  missing?: { call: (w: World) => Call; other: number; visitor?: number };
  /** What an admin may see of others here: their accounts on the user pages. */
  adminSees?: Sees;
  /** The call changes the caller's session (sign-in, sign-out, registration): each role gets a session of its own. */
  ownSession?: boolean;
  /** When the call is made (a link tried after it expired). */
  at?: () => number;
}

const get = (url: string): Call => ({ method: 'GET', url });
const post = (url: string, body?: unknown): Call => ({ method: 'POST', url, body });
const patch = (url: string, body: unknown): Call => ({ method: 'PATCH', url, body });
const del = (url: string): Call => ({ method: 'DELETE', url });
const form = (url: string, parts: MultipartPart[]): Call => ({ method: 'POST', url, form: parts });

const jpeg = () => dataUrl(fixtures.jpeg(), 'image/jpeg');
const templateBody = {
  title: 'Counting with Maya',
  description: 'Count from one to ten.',
  category: 'education',
  ageRange: '3-5',
  duration: 30,
  featured: false,
  isPremium: false,
  voiceOnly: false,
  thumbnailUrl: '/images/counting.jpg',
  videoUrl: '/videos/counting.mp4',
};

/** The owner's download link of their saved video (a TV or a download fetches it without the cookie). */
async function ownersLink(w: World): Promise<Target> {
  const response = await w.owner.client.post(`/api/processedVideos/${w.owner.video.id}/link`, { purpose: 'download' });
  if (response.statusCode !== 200) throw new Error(`link: ${response.statusCode} ${response.body}`);
  return { id: w.owner.video.id, url: json<MediaLink>(response).url };
}

/** The owner's exports cleared: an account asks for one export at a time. */
async function noExportYet(w: World): Promise<Target> {
  await w.t.database.db.delete(dataExports).where(eq(dataExports.userId, w.owner.id));
  return { id: w.owner.id, url: '' };
}

/** A completed export of the owner's, with its zip in storage (the job that makes one is tried in export.test.ts). */
async function ownersExport(w: World): Promise<Target> {
  const temp = await w.t.storage.tempPath();
  await writeFile(temp, 'PK');
  const file = await w.t.storage.moveIn(temp, 'exports', w.owner.id, 'zip');
  const [row] = await w.t.database.db
    .insert(dataExports)
    .values({ userId: w.owner.id, status: 'completed', progress: 100, fileUrl: file.url, bytes: 2, completedAt: new Date(), expiresAt: new Date(Date.now() + 60 * 60 * 1000) })
    .returning();
  return { id: row!.id, url: file.url };
}

/** One case, or several for a route whose answer depends on what it is aimed at. */
const MATRIX: Record<string, Case[]> = {
  'GET /api/health': [{ call: () => get('/api/health'), statuses: ANYONE }],

  // Accounts and sessions
  'POST /api/register': [
    {
      ownSession: true,
      call: () => {
        const name = `new_${randomBytes(5).toString('hex')}`;
        return post('/api/register', { username: name, email: `${name}@example.com`, password: 'correct horse battery', displayName: name });
      },
      statuses: [201, 201, 201, 201],
    },
  ],
  'POST /api/login': [
    {
      name: 'each with their own account (a visitor has none)',
      ownSession: true,
      call: (w, role) => post('/api/login', { username: w.account(role)?.username ?? 'nobody_here', password: 'correct horse battery' }),
      statuses: [401, 200, 200, 200],
    },
  ],
  'POST /api/logout': [{ ownSession: true, call: () => post('/api/logout'), statuses: [204, 204, 204, 204] }],
  'GET /api/me': [{ call: () => get('/api/me'), statuses: SIGNED_IN }],
  'GET /api/users/:id': [
    {
      call: (w) => get(`/api/users/${w.owner.id}`),
      statuses: SELF_OR_ADMIN,
      adminSees: 'accounts',
      missing: { call: () => get(`/api/users/${MISSING}`), other: 403 },
    },
  ],
  'GET /api/users/:id/usage': [
    {
      call: (w) => get(`/api/users/${w.owner.id}/usage`),
      statuses: SELF_OR_ADMIN,
      missing: { call: () => get(`/api/users/${MISSING}/usage`), other: 403 },
    },
  ],
  'GET /api/users/:id/audit': [
    {
      call: (w) => get(`/api/users/${w.owner.id}/audit`),
      statuses: OWNER_ONLY,
      missing: { call: () => get(`/api/users/${MISSING}/audit`), other: 403 },
    },
  ],
  'GET /api/privacy': [{ call: () => get('/api/privacy'), statuses: ANYONE }],
  // 'Download my data': the account itself only, not even an admin.
  'POST /api/users/:id/exports': [
    {
      prepare: noExportYet,
      call: (w) => post(`/api/users/${w.owner.id}/exports`),
      statuses: succeeding(OWNER_ONLY, 202),
      missing: { call: () => post(`/api/users/${MISSING}/exports`), other: 403 },
    },
  ],
  'GET /api/users/:id/exports/latest': [
    {
      call: (w) => get(`/api/users/${w.owner.id}/exports/latest`),
      statuses: OWNER_ONLY,
      missing: { call: () => get(`/api/users/${MISSING}/exports/latest`), other: 403 },
    },
  ],
  'POST /api/users/:id/exports/:exportId/link': [
    {
      prepare: ownersExport,
      call: (w, _role, target) => post(`/api/users/${w.owner.id}/exports/${target.id}/link`),
      statuses: OWNER_ONLY,
      missing: { call: (w) => post(`/api/users/${w.owner.id}/exports/${MISSING}/link`), other: 403 },
    },
  ],
  'PATCH /api/users/:id': [
    {
      // Those allowed write the name it already has; the others try to change it.
      call: (w, role) =>
        patch(`/api/users/${w.owner.id}`, { displayName: role === 'owner' || role === 'admin' ? `Display ${w.owner.accountTag}` : 'Taken Over' }),
      statuses: SELF_OR_ADMIN,
      adminSees: 'accounts',
      missing: { call: () => patch(`/api/users/${MISSING}`, { displayName: 'Taken Over' }), other: 403 },
    },
  ],
  'DELETE /api/users/:id': [
    {
      // Refused before anything is touched: the world's accounts stay.
      name: "each their own account without its password (an admin's too)",
      call: (w, role) => del(`/api/users/${w.account(role)?.id ?? w.owner.id}`),
      statuses: [401, 400, 400, 400],
    },
    {
      name: 'a new account of its own: only an admin deletes another',
      prepare: async (w) => ({ id: (await w.t.client().register()).user.id, url: '' }),
      call: (_w, _role, target) => del(`/api/users/${target.id}`),
      statuses: succeeding(ADMIN_ONLY, 204),
      missing: { call: () => del(`/api/users/${MISSING}`), other: 403 },
    },
  ],

  // The template library
  'GET /api/videoTemplates/featured': [{ call: () => get('/api/videoTemplates/featured'), statuses: ANYONE }],
  // Whether the demo library is being made (the landing page asks while its featured list is empty).
  'GET /api/videoTemplates/demo-status': [{ call: () => get('/api/videoTemplates/demo-status'), statuses: ANYONE }],
  'GET /api/videoTemplates': [{ call: () => get('/api/videoTemplates'), statuses: SIGNED_IN }],
  'GET /api/videoTemplates/:id': [
    { name: 'a free template (the public preview)', call: (w) => get(`/api/videoTemplates/${w.freeTemplate.id}`), statuses: ANYONE },
    {
      name: 'a premium template',
      call: (w) => get(`/api/videoTemplates/${w.premiumTemplate.id}`),
      // A visitor is told it is a premium original, which is not public (the public preview's words).
      statuses: [403, 200, 200, 200],
      missing: { call: () => get(`/api/videoTemplates/${MISSING}`), other: 404, visitor: 404 },
    },
  ],

  // The admin's pages
  'GET /api/admin/videoTemplates': [{ call: () => get('/api/admin/videoTemplates'), statuses: ADMIN_ONLY }],
  'POST /api/admin/videoTemplates': [{ call: () => post('/api/admin/videoTemplates', templateBody), statuses: succeeding(ADMIN_ONLY, 201) }],
  'PATCH /api/admin/videoTemplates/:id': [
    {
      prepare: (w) => w.spare.template(),
      call: (_w, role, target) => patch(`/api/admin/videoTemplates/${target.id}`, { title: `Renamed by ${role}` }),
      statuses: ADMIN_ONLY,
      missing: { call: () => patch(`/api/admin/videoTemplates/${MISSING}`, { title: 'Renamed' }), other: 403 },
    },
  ],
  'DELETE /api/admin/videoTemplates/:id': [
    {
      prepare: (w) => w.spare.template(),
      call: (_w, _role, target) => del(`/api/admin/videoTemplates/${target.id}`),
      statuses: succeeding(ADMIN_ONLY, 204),
      missing: { call: () => del(`/api/admin/videoTemplates/${MISSING}`), other: 403 },
    },
  ],
  'POST /api/admin/videoTemplates/upload': [
    {
      call: () =>
        form('/api/admin/videoTemplates/upload', [
          ...Object.entries({ title: 'Farm Animals', description: 'Meet the cow.', category: 'animals', ageRange: '2-4' }).map(([name, value]) => ({ name, value })),
          { name: 'video', filename: 'farm.mp4', type: 'video/mp4', content: fixtures.avMp4() },
        ]),
      statuses: succeeding(ADMIN_ONLY, 201),
    },
  ],
  'GET /api/admin/users': [{ call: () => get('/api/admin/users'), statuses: ADMIN_ONLY, adminSees: 'accounts' }],
  // Those refused try to raise the owner; the admin sets what the owner already has.
  'PATCH /api/admin/users/:id/role': [
    {
      call: (w, role) => patch(`/api/admin/users/${w.owner.id}/role`, { role: role === 'admin' ? 'user' : 'admin' }),
      statuses: ADMIN_ONLY,
      adminSees: 'accounts',
      missing: { call: () => patch(`/api/admin/users/${MISSING}/role`, { role: 'admin' }), other: 403 },
    },
  ],
  'PATCH /api/admin/users/:id/subscription': [
    {
      call: (w, role) => patch(`/api/admin/users/${w.owner.id}/subscription`, { subscriptionStatus: role === 'admin' ? 'none' : 'active' }),
      statuses: ADMIN_ONLY,
      adminSees: 'accounts',
      missing: { call: () => patch(`/api/admin/users/${MISSING}/subscription`, { subscriptionStatus: 'active' }), other: 403 },
    },
  ],
  'PATCH /api/admin/users/:id/plan': [
    {
      call: (w, role) => patch(`/api/admin/users/${w.owner.id}/plan`, { plan: role === 'admin' ? 'premium' : 'family' }),
      statuses: ADMIN_ONLY,
      adminSees: 'accounts',
      missing: { call: () => patch(`/api/admin/users/${MISSING}/plan`, { plan: 'family' }), other: 403 },
    },
  ],
  'GET /api/admin/analytics': [{ call: () => get('/api/admin/analytics'), statuses: ADMIN_ONLY }],

  // Every file goes out through the media route.
  'GET /api/media/:kind/:ownerId/:fileName': [
    {
      name: "the owner's face photo",
      call: (w) => get(w.owner.faceImage.url),
      statuses: OWNER_ONLY,
      // Another parent's answer is the same whether or not the owner has such a file.
      missing: { call: (w) => get(`/api/media/face-images/${w.owner.id}/${randomUUID()}.jpg`), other: 403 },
    },
    { name: "the owner's face clip", call: (w) => get(w.owner.faceVideo.url), statuses: OWNER_ONLY },
    { name: "the owner's streamed upload, not saved yet", call: (w) => get(w.owner.pendingUploadUrl), statuses: OWNER_ONLY },
    { name: "the owner's voice recording", call: (w) => get(w.owner.voice.url), statuses: OWNER_ONLY },
    { name: "the owner's saved video", call: (w) => get(w.owner.video.url), statuses: OWNER_ONLY },
    { name: 'a free template video', call: (w) => get(w.freeTemplate.videoUrl), statuses: ANYONE },
    { name: 'a premium template video', call: (w) => get(w.premiumTemplate.videoUrl), statuses: SIGNED_IN },
    { name: "a premium template's thumbnail (the landing page)", call: (w) => get(w.premiumTemplate.thumbnailUrl), statuses: ANYONE },
    {
      name: "the owner's signed link: whoever holds it gets that one file",
      prepare: ownersLink,
      call: (_w, _role, link) => get(link.url),
      statuses: ANYONE,
    },
    {
      name: "the owner's signed link after it expired: the cookie decides",
      prepare: ownersLink,
      at: () => Date.now() + MEDIA_LINK_LIFETIME_MS.download + 60_000,
      call: (_w, _role, link) => get(link.url),
      statuses: OWNER_ONLY,
    },
    {
      name: "the owner's signed link with its signature changed",
      prepare: ownersLink,
      call: (_w, _role, link) => get(link.url.replace(/sig=[^&]+/, `sig=${'A'.repeat(43)}`)),
      statuses: OWNER_ONLY,
    },
    {
      name: "the owner's signed link with another download name",
      prepare: ownersLink,
      call: (_w, _role, link) => get(link.url.replace(/download=[^&]+/, 'download=other.mp4')),
      statuses: OWNER_ONLY,
    },
    {
      name: "the owner's signature on the other parent's video",
      prepare: ownersLink,
      call: (w, _role, link) => get(`${w.other.video.url}${link.url.slice(link.url.indexOf('?'))}`),
      statuses: [401, 403, 200, 403],
    },
    { name: 'a path out of the media folder', call: (w) => get(`/api/media/face-images/${w.owner.id}/..%2F..%2F..%2Fdb`), statuses: [404, 404, 404, 404] },
    { name: 'an unknown kind of media', call: (w) => get(`/api/media/sessions/${w.owner.id}/${randomUUID()}.jpg`), statuses: [404, 404, 404, 404] },
  ],

  // People
  'GET /api/users/:userId/people': [
    {
      call: (w) => get(`/api/users/${w.owner.id}/people`),
      statuses: OWNER_ONLY,
      missing: { call: () => get(`/api/users/${MISSING}/people`), other: 403 },
    },
  ],
  'GET /api/people/:id': [
    { call: (w) => get(`/api/people/${w.owner.personId}`), statuses: OWNER_ONLY, missing: { call: () => get(`/api/people/${MISSING}`), other: 404 } },
  ],
  'POST /api/people': [
    {
      name: 'for the owner',
      call: (w) => post('/api/people', { userId: w.owner.id, name: `New ${w.owner.familyTag}`, relationship: 'Uncle' }),
      statuses: succeeding(OWNER_ONLY, 201),
      missing: { call: () => post('/api/people', { userId: MISSING, name: 'Nobody', relationship: 'Uncle' }), other: 403 },
    },
  ],
  'PATCH /api/people/:id': [
    {
      prepare: (w) => w.spare.person(),
      call: (_w, role, target) => patch(`/api/people/${target.id}`, { name: `Renamed by ${role}` }),
      statuses: OWNER_ONLY,
      missing: { call: () => patch(`/api/people/${MISSING}`, { name: 'Renamed' }), other: 404 },
    },
  ],
  'POST /api/people/:id/consent': [
    {
      prepare: (w) => w.spare.person(),
      call: (_w, _role, target) => post(`/api/people/${target.id}/consent`, { basis: 'guardian' }),
      statuses: succeeding(OWNER_ONLY, 201),
      missing: { call: () => post(`/api/people/${MISSING}/consent`, { basis: 'guardian' }), other: 404 },
    },
  ],
  'DELETE /api/people/:id/consent': [
    {
      prepare: (w) => w.spare.person(),
      call: (_w, _role, target) => del(`/api/people/${target.id}/consent`),
      statuses: OWNER_ONLY,
      missing: { call: () => del(`/api/people/${MISSING}/consent`), other: 404 },
    },
  ],
  'DELETE /api/people/:id': [
    {
      prepare: (w) => w.spare.person(),
      call: (_w, _role, target) => del(`/api/people/${target.id}`),
      statuses: succeeding(OWNER_ONLY, 204),
      missing: { call: () => del(`/api/people/${MISSING}`), other: 404 },
    },
  ],

  // Face photos and clips
  'GET /api/users/:userId/faceImages': [
    {
      call: (w) => get(`/api/users/${w.owner.id}/faceImages`),
      statuses: OWNER_ONLY,
      missing: { call: () => get(`/api/users/${MISSING}/faceImages`), other: 403 },
    },
  ],
  'GET /api/people/:id/faceImages': [
    {
      call: (w) => get(`/api/people/${w.owner.personId}/faceImages`),
      statuses: OWNER_ONLY,
      missing: { call: () => get(`/api/people/${MISSING}/faceImages`), other: 404 },
    },
  ],
  'POST /api/faceImages': [
    {
      name: "to the owner's person",
      call: (w) => post('/api/faceImages', { personId: w.owner.personId, name: `New face ${w.owner.familyTag}`, imageData: jpeg() }),
      statuses: succeeding(OWNER_ONLY, 201),
      missing: { call: () => post('/api/faceImages', { personId: MISSING, name: 'Face', imageData: jpeg() }), other: 404 },
    },
  ],
  'PATCH /api/faceImages/:id/setDefault': [
    {
      prepare: (w) => w.spare.faceImage(),
      call: (_w, _role, target) => patch(`/api/faceImages/${target.id}/setDefault`, {}),
      statuses: OWNER_ONLY,
      missing: { call: () => patch(`/api/faceImages/${MISSING}/setDefault`, {}), other: 404 },
    },
  ],
  'DELETE /api/faceImages/:id': [
    {
      prepare: (w) => w.spare.faceImage(),
      call: (_w, _role, target) => del(`/api/faceImages/${target.id}`),
      statuses: succeeding(OWNER_ONLY, 204),
      missing: { call: () => del(`/api/faceImages/${MISSING}`), other: 404 },
    },
  ],
  'GET /api/users/:userId/faceVideos': [
    {
      call: (w) => get(`/api/users/${w.owner.id}/faceVideos`),
      statuses: OWNER_ONLY,
      missing: { call: () => get(`/api/users/${MISSING}/faceVideos`), other: 403 },
    },
  ],
  'GET /api/people/:id/faceVideos': [
    {
      call: (w) => get(`/api/people/${w.owner.personId}/faceVideos`),
      statuses: OWNER_ONLY,
      missing: { call: () => get(`/api/people/${MISSING}/faceVideos`), other: 404 },
    },
  ],
  'POST /api/faceVideos': [
    {
      name: "to the owner's person",
      call: (w) => post('/api/faceVideos', { personId: w.owner.personId, name: `New clip ${w.owner.familyTag}`, videoData: dataUrl(fixtures.faceClip(4), 'video/mp4') }),
      statuses: succeeding(OWNER_ONLY, 201),
      missing: { call: () => post('/api/faceVideos', { personId: MISSING, name: 'Clip', videoData: dataUrl(fixtures.faceClip(4), 'video/mp4') }), other: 404 },
    },
    {
      // Another parent names their own person: the owner's upload reads as no upload at all.
      name: "claiming the owner's streamed upload",
      prepare: (w) => w.spare.pendingUpload(),
      call: (w, role, upload) =>
        post('/api/faceVideos', { personId: role === 'other' ? w.other.personId : w.owner.personId, name: `Claimed clip ${w.owner.familyTag}`, videoUrl: upload.url }),
      statuses: [401, 201, 400, 403],
      missing: {
        call: (w) => post('/api/faceVideos', { personId: w.other.personId, name: 'Claimed clip', videoUrl: `/api/media/face-videos/${w.owner.id}/${randomUUID()}.mp4` }),
        other: 400,
      },
    },
  ],
  'DELETE /api/faceVideos/:id': [
    {
      prepare: (w) => w.spare.faceVideo(),
      call: (_w, _role, target) => del(`/api/faceVideos/${target.id}`),
      statuses: succeeding(OWNER_ONLY, 204),
      missing: { call: () => del(`/api/faceVideos/${MISSING}`), other: 404 },
    },
  ],
  'POST /api/upload/video': [
    {
      name: "for the owner's person",
      call: (w) =>
        form('/api/upload/video', [
          { name: 'personId', value: String(w.owner.personId) },
          { name: 'video', filename: 'clip.mp4', type: 'video/mp4', content: fixtures.faceClip(4) },
        ]),
      statuses: succeeding(OWNER_ONLY, 201),
      missing: {
        call: () =>
          form('/api/upload/video', [
            { name: 'personId', value: String(MISSING) },
            { name: 'video', filename: 'clip.mp4', type: 'video/mp4', content: fixtures.faceClip(4) },
          ]),
        other: 404,
      },
    },
  ],

  // Voice recordings
  'GET /api/users/:userId/voiceRecordings': [
    {
      call: (w) => get(`/api/users/${w.owner.id}/voiceRecordings`),
      statuses: OWNER_ONLY,
      missing: { call: () => get(`/api/users/${MISSING}/voiceRecordings`), other: 403 },
    },
  ],
  'GET /api/people/:id/voiceRecordings': [
    {
      call: (w) => get(`/api/people/${w.owner.personId}/voiceRecordings`),
      statuses: OWNER_ONLY,
      missing: { call: () => get(`/api/people/${MISSING}/voiceRecordings`), other: 404 },
    },
  ],
  'POST /api/voiceRecordings': [
    {
      name: "for the owner's person",
      call: (w) =>
        post('/api/voiceRecordings', { personId: w.owner.personId, name: `New voice ${w.owner.familyTag}`, audioData: dataUrl(fixtures.webmTone(6), 'audio/webm') }),
      statuses: succeeding(OWNER_ONLY, 201),
      missing: { call: () => post('/api/voiceRecordings', { personId: MISSING, name: 'Voice', audioData: dataUrl(fixtures.webmTone(6), 'audio/webm') }), other: 404 },
    },
  ],
  'GET /api/voiceRecordings/:id': [
    {
      call: (w) => get(`/api/voiceRecordings/${w.owner.voice.id}`),
      statuses: OWNER_ONLY,
      missing: { call: () => get(`/api/voiceRecordings/${MISSING}`), other: 404 },
    },
  ],
  'PATCH /api/voiceRecordings/:id/setDefault': [
    {
      prepare: (w) => w.spare.voice(),
      call: (_w, _role, target) => patch(`/api/voiceRecordings/${target.id}/setDefault`, {}),
      statuses: OWNER_ONLY,
      missing: { call: () => patch(`/api/voiceRecordings/${MISSING}/setDefault`, {}), other: 404 },
    },
  ],
  'DELETE /api/voiceRecordings/:id': [
    {
      prepare: (w) => w.spare.voice(),
      call: (_w, _role, target) => del(`/api/voiceRecordings/${target.id}`),
      statuses: succeeding(OWNER_ONLY, 204),
      missing: { call: () => del(`/api/voiceRecordings/${MISSING}`), other: 404 },
    },
  ],

  // Personalised videos: another parent's are not even said to exist.
  'POST /api/processedVideos': [
    {
      name: "with the owner's person",
      call: (w) =>
        post('/api/processedVideos', { templateId: w.freeTemplate.id, personId: w.owner.personId, title: `New video ${w.owner.familyTag}`, useVoiceSwap: false }),
      statuses: succeeding(HIDDEN, 201),
      missing: { call: (w) => post('/api/processedVideos', { templateId: w.freeTemplate.id, personId: MISSING, title: 'New video', useVoiceSwap: false }), other: 404 },
    },
    {
      name: "naming the owner's face photo",
      call: (w) =>
        post('/api/processedVideos', { templateId: w.freeTemplate.id, faceImageId: w.owner.faceImage.id, title: `New video ${w.owner.familyTag}`, useVoiceSwap: false }),
      statuses: succeeding(HIDDEN, 201),
      missing: { call: (w) => post('/api/processedVideos', { templateId: w.freeTemplate.id, faceImageId: MISSING, title: 'New video', useVoiceSwap: false }), other: 404 },
    },
  ],
  'GET /api/processedVideos/estimate': [
    { call: (w) => get(`/api/processedVideos/estimate?templateId=${w.freeTemplate.id}&face=1&voice=1`), statuses: SIGNED_IN },
  ],
  'GET /api/processedVideos/:id': [
    {
      call: (w) => get(`/api/processedVideos/${w.owner.video.id}`),
      statuses: HIDDEN,
      missing: { call: () => get(`/api/processedVideos/${MISSING}`), other: 404 },
    },
  ],
  'POST /api/processedVideos/:id/retry': [
    {
      name: 'a failed video',
      prepare: (w) => w.spare.video({ status: 'failed', error: 'The render stopped', outputUrl: null, videoUrl: null, completedAt: null }),
      call: (_w, _role, target) => post(`/api/processedVideos/${target.id}/retry`, {}),
      statuses: HIDDEN,
      missing: { call: () => post(`/api/processedVideos/${MISSING}/retry`, {}), other: 404 },
    },
  ],
  'POST /api/processedVideos/:id/link': [
    {
      call: (w) => post(`/api/processedVideos/${w.owner.video.id}/link`, { purpose: 'download' }),
      statuses: HIDDEN,
      missing: { call: () => post(`/api/processedVideos/${MISSING}/link`, { purpose: 'download' }), other: 404 },
    },
  ],
  'GET /api/users/:userId/processedVideos': [
    {
      call: (w) => get(`/api/users/${w.owner.id}/processedVideos`),
      statuses: OWNER_ONLY,
      missing: { call: () => get(`/api/users/${MISSING}/processedVideos`), other: 403 },
    },
  ],
  'DELETE /api/processedVideos/:id': [
    {
      prepare: (w) => w.spare.video(),
      call: (_w, _role, target) => del(`/api/processedVideos/${target.id}`),
      statuses: succeeding(HIDDEN, 204),
      missing: { call: () => del(`/api/processedVideos/${MISSING}`), other: 404 },
    },
  ],
  'GET /api/processedVideos/:id/events': [
    {
      name: 'a finished video (one event, then the stream ends)',
      call: (w) => get(`/api/processedVideos/${w.owner.video.id}/events`),
      statuses: HIDDEN,
      missing: { call: () => get(`/api/processedVideos/${MISSING}/events`), other: 404 },
    },
  ],
  'POST /api/upload/voice-only-video': [
    {
      name: "for the owner's person",
      call: (w) =>
        form('/api/upload/voice-only-video', [
          { name: 'title', value: `Own video ${w.owner.familyTag}` },
          { name: 'personId', value: String(w.owner.personId) },
          { name: 'video', filename: 'own.mp4', type: 'video/mp4', content: fixtures.avMp4() },
        ]),
      statuses: succeeding(HIDDEN, 201),
      missing: {
        call: () =>
          form('/api/upload/voice-only-video', [
            { name: 'title', value: 'Own video' },
            { name: 'personId', value: String(MISSING) },
            { name: 'video', filename: 'own.mp4', type: 'video/mp4', content: fixtures.avMp4() },
          ]),
        other: 404,
      },
    },
  ],

  // Payments (decision 017). This app has no Stripe keys: whoever may ask is told so (503), and nothing is
  // written; payments.test.ts and webhook.test.ts try them with keys.
  'GET /api/payments/config': [{ call: () => get('/api/payments/config'), statuses: ANYONE }],
  'GET /api/users/:id/entitlements': [
    {
      call: (w) => get(`/api/users/${w.owner.id}/entitlements`),
      statuses: SELF_OR_ADMIN,
      missing: { call: () => get(`/api/users/${MISSING}/entitlements`), other: 403 },
    },
  ],
  'POST /api/create-payment-intent': [{ call: (w) => post('/api/create-payment-intent', { templateId: w.premiumTemplate.id }), statuses: [401, 503, 503, 503] }],
  'POST /api/subscriptions/checkout': [{ call: () => post('/api/subscriptions/checkout', { plan: 'family' }), statuses: [401, 503, 503, 503] }],
  'POST /api/subscriptions/portal': [{ call: () => post('/api/subscriptions/portal'), statuses: [401, 503, 503, 503] }],
  // Stripe's, without a session (its signature is the proof): refused by all without a webhook secret.
  'POST /api/stripe/webhook': [{ call: () => post('/api/stripe/webhook', { id: 'evt_1', type: 'payment_intent.succeeded' }), statuses: [503, 503, 503, 503] }],
};

/** Routes Fastify adds by itself: HEAD for every GET (tried below with each GET case). */
function servedRoutes(t: TestApp): string[] {
  const table = t.app.routeTable;
  const gets = new Set(table.filter((route) => route.method === 'GET').map((route) => route.url));
  return table.filter((route) => !(route.method === 'HEAD' && gets.has(route.url))).map((route) => `${route.method} ${route.url}`);
}

async function send(client: TestClient, call: Call, method: string = call.method): Promise<LightMyRequestResponse> {
  if (!call.form) return client.request(method, call.url, call.body);
  const { payload, headers } = multipart(call.form);
  return client.request(method, call.url, payload, headers);
}

/** Runs `work` with the clock at `time` (only Date is faked: the database and timers keep real time). */
async function at<T>(time: number | undefined, work: () => Promise<T>): Promise<T> {
  if (time === undefined) return work();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(time);
  try {
    return await work();
  } finally {
    vi.useRealTimers();
  }
}

function expectNoForeignData(w: World, role: Role, response: LightMyRequestResponse, sees: Sees, label: string) {
  for (const foreign of w.foreignData(role, sees)) {
    if (typeof foreign === 'string') expect(response.body.includes(foreign), `${label}: the answer holds ${foreign}`).toBe(false);
    else expect(foreign.test(response.body), `${label}: the answer matches ${foreign}`).toBe(false);
  }
}

describe.each(databases)('the access matrix on $name', (testDatabase) => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await createTestApp(testDatabase);
    w = await buildWorld(t);
  }, 180_000);
  afterAll(() => t?.close());

  it("has a row for every route in the server's route table, and none for a route it lacks", () => {
    expect(servedRoutes(t).sort()).toEqual(Object.keys(MATRIX).sort());
  });

  it("finds each party's data where it belongs, so its absence elsewhere means something", async () => {
    const holds = async (role: Role, url: string, data: (string | RegExp)[]) => {
      const body = (await send(w.client(role), get(url))).body;
      const found = data.filter((item) => (typeof item === 'string' ? body.includes(item) : item.test(body)));
      expect(found.length, `${role}: GET ${url}`).toBeGreaterThan(0);
    };
    const { account, family } = w.dataOf('owner');
    await holds('owner', `/api/users/${w.owner.id}`, account);
    await holds('admin', '/api/admin/users', account);
    await holds('admin', '/api/admin/users', w.dataOf('other').account);
    for (const url of [
      `/api/people/${w.owner.personId}`,
      `/api/people/${w.owner.personId}/faceVideos`,
      `/api/voiceRecordings/${w.owner.voice.id}`,
      `/api/users/${w.owner.id}/processedVideos`,
    ]) {
      await holds('owner', url, family);
    }
    // Each kind of identifier is recognised: a name, a file's id, a private row's userId and personId.
    const faces = (await send(w.client('owner'), get(`/api/users/${w.owner.id}/faceImages`))).body;
    const [familyTag, faceFileId, , , , , userIdPattern, personIdPattern] = family;
    expect(faces).toContain(familyTag);
    expect(faces).toContain(faceFileId);
    expect(faces).toMatch(userIdPattern!);
    expect(faces).toMatch(personIdPattern!);
  });

  it('sees a write in its snapshot: a renamed row, a file left in the temporary folder', async () => {
    const before = await w.snapshot();
    const spare = await w.spare.person();
    const afterInsert = await w.snapshot();
    expect(afterInsert).not.toEqual(before);
    expect((await w.owner.client.patch(`/api/people/${spare.id}`, { name: 'Renamed Spare' })).statusCode).toBe(200);
    expect(await w.snapshot()).not.toEqual(afterInsert);
    const stray = await t.storage.tempPath();
    const beforeStray = await w.snapshot();
    await writeFile(stray, 'left behind');
    expect(await w.snapshot()).not.toEqual(beforeStray);
    await rm(stray);
  });

  const cases = Object.entries(MATRIX).flatMap(([route, list]) => list.map((c) => [c.name ? `${route}: ${c.name}` : route, c] as const));
  it.each(cases)('%s', async (_label, c) => {
    const target = c.prepare ? await c.prepare(w) : { id: 0, url: '' };
    const expected = (role: Role) => c.statuses[ROLES.indexOf(role)]!;
    const isWrite = c.call(w, 'owner', target).method !== 'GET';
    const before = isWrite ? await w.snapshot() : undefined;
    // Those refused go first: a successful delete would leave nothing to try.
    const order = [...ROLES].sort((a, b) => Number(expected(a) < 400) - Number(expected(b) < 400));
    const answers = new Map<Role, LightMyRequestResponse>();

    for (const role of order) {
      const call = c.call(w, role, target);
      const label = `${role}: ${call.method} ${call.url}`;
      const client = c.ownSession ? await w.signIn(role) : w.client(role);
      const response = await at(c.at?.(), () => send(client, call));
      expect(response.statusCode, `${label} → ${response.body.slice(0, 300)}`).toBe(expected(role));
      expectNoForeignData(w, role, response, role === 'admin' ? (c.adminSees ?? 'nothing') : 'nothing', label);
      if (call.method === 'GET') {
        const head = await at(c.at?.(), () => send(client, call, 'HEAD'));
        expect(head.statusCode, `HEAD ${label}`).toBe(expected(role));
      }
      // A refused write changed no row and left no file, not even a temporary one.
      if (before !== undefined && expected(role) >= 400) expect(await w.snapshot(), label).toEqual(before);
      answers.set(role, response);
    }

    if (!c.missing) return;
    for (const role of ['visitor', 'other'] as const) {
      const call = c.missing.call(w);
      const label = `${role} on a missing id: ${call.method} ${call.url}`;
      const response = await send(w.client(role), call);
      const status = role === 'visitor' ? (c.missing.visitor ?? expected('visitor')) : c.missing.other;
      expect(response.statusCode, `${label} → ${response.body.slice(0, 300)}`).toBe(status);
      expectNoForeignData(w, role, response, 'nothing', label);
      // Same status, same words: whether the owner's row exists cannot be told from the answer.
      if (status === expected(role)) expect(response.body, label).toBe(answers.get(role)!.body);
    }
  });
});
