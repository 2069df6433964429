// Hostile text through every route that takes text (issue 16, item 3): control characters (a NUL, which
// PostgreSQL refuses, and the other invisible ones) are a 400 naming the field, never a 500; a name made
// only of invisible characters (zero-width, bidi overrides) answers exactly as an empty one; nothing is
// written either way. And the logs: a failed query's parameters (a password hash, an e-mail address),
// cookies and a signed link's signature never reach them.
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, unusableCharactersMessage } from '../../shared/validation';
import {
  faceImages,
  faceVideos,
  pendingUploads,
  people,
  processedVideos,
  users,
  videoTemplates,
  voiceRecordings,
} from '../db/schema';
import { testDatabases } from '../testing/databases';
import { dataUrl, filesUnder, fixtures, multipart } from '../testing/media-fixtures';
import { type Member, memberWithPerson } from '../testing/people-kit';
import { type TestApp, anotherApp, TestClient, createTestApp, json } from '../testing/test-app';
import { SESSION_COOKIE } from './sessions';

const databases = await testDatabases();

/** Control characters a field must refuse, each inside otherwise ordinary text. */
const CONTROL = {
  NUL: '\u0000',
  BEL: '\u0007',
  'ESC (terminal colour)': '\u001B[31m',
  DEL: '\u007F',
  'C1 NEL': '\u0085',
  'C1 CSI': '\u009B',
  'half an emoji': '\uD83D',
};
/** Refused in one-line fields only; descriptions may have several lines. */
const LINE_BREAKS = { newline: '\n', tab: '\t', 'carriage return': '\r' };
/** Text that shows nothing. */
const INVISIBLE = {
  'zero-width space, non-joiner, joiner': '\u200B\u200C\u200D',
  'bidi override and isolates': '\u202E\u2066\u2069',
  'BOM, word joiner, bidi marks, spaces': '\uFEFF\u2060 \u200E\u200F ',
  'Hangul filler and soft hyphen': '\u3164\u00AD',
};

type Fields = Record<string, string>;

interface TextRoute {
  name: string;
  /** The field under attack, its name in the messages, and an ordinary value for it. */
  field: string;
  label: string;
  /** A name: text of invisible characters only must answer as empty text does. */
  isName?: boolean;
  multiline?: boolean;
  /** Multipart text is UTF-8 bytes: half an emoji cannot be sent that way (it arrives as U+FFFD). */
  multipart?: boolean;
  send(value: string): Promise<LightMyRequestResponse>;
}

describe.each(databases)('hostile text on $name', (testDatabase) => {
  let t: TestApp;
  let admin: TestClient;
  let m: Member;
  let templateId: number;
  let faceImageId: number;
  const routes: TextRoute[] = [];

  beforeAll(async () => {
    t = await createTestApp(testDatabase);
    admin = t.client();
    await admin.register(); // the first account is the admin
    m = await memberWithPerson(t, 'family');
    const face = await m.client.post('/api/faceImages', { personId: m.personId, name: 'Front', imageData: dataUrl(fixtures.jpeg(), 'image/jpeg') });
    expect(face.statusCode, face.body).toBe(201);
    faceImageId = json<{ id: number }>(face).id;
    const voice = await m.client.post('/api/voiceRecordings', {
      personId: m.personId,
      name: 'Hello',
      audioData: dataUrl(fixtures.webmTone(6), 'audio/webm;codecs=opus'),
    });
    expect(voice.statusCode, voice.body).toBe(201);
    const template = await admin.post('/api/admin/videoTemplates', { ...templateFields, videoUrl: '/demo/a.mp4', thumbnailUrl: '/demo/a.jpg' });
    expect(template.statusCode, template.body).toBe(201);
    templateId = json<{ id: number }>(template).id;
    routes.push(...textRoutes());
  }, 120_000);
  afterAll(() => t?.close());

  const templateFields = { title: 'Counting Song', description: 'Count to ten with a friend.', category: 'education', ageRange: '3-5', duration: 30 };
  const unique = () => randomBytes(4).toString('hex');
  const account = () => ({ username: `user_${unique()}`, email: `u${unique()}@example.com`, password: 'correct horse battery', displayName: 'New Parent' });
  const upload = (client: TestClient, url: string, fields: Fields, file: { name: string; bytes: Buffer; type: string }) => {
    const { payload, headers } = multipart([
      ...Object.entries(fields).map(([name, value]) => ({ name, value })),
      { name: file.name, filename: 'clip.mp4', type: file.type, content: file.bytes },
    ]);
    return client.request('POST', url, payload, headers);
  };

  /** Every route that takes text, one row per text field. */
  function textRoutes(): TextRoute[] {
    const jsonRoute = (name: string, method: string, url: () => string, client: () => TestClient, body: () => Fields | object) =>
      (field: string, label: string, extra: Partial<TextRoute> = {}): TextRoute => ({
        name: `${name} ${field}`,
        field,
        label,
        ...extra,
        send: (value) => client().request(method, url(), { ...body(), [field]: value }),
      });
    const register = jsonRoute('POST /api/register', 'POST', () => '/api/register', () => t.client(), account);
    const login = jsonRoute('POST /api/login', 'POST', () => '/api/login', () => t.client(), () => ({ username: 'someone', password: 'a password' }));
    const profile = jsonRoute('PATCH /api/users/:id', 'PATCH', () => `/api/users/${m.userId}`, () => m.client, () => ({}));
    const newPerson = jsonRoute('POST /api/people', 'POST', () => '/api/people', () => m.client, () => ({ name: 'Grandpa Joe', relationship: 'Grandfather' }));
    const renamePerson = jsonRoute('PATCH /api/people/:id', 'PATCH', () => `/api/people/${m.personId}`, () => m.client, () => ({}));
    const faceImage = jsonRoute('POST /api/faceImages', 'POST', () => '/api/faceImages', () => m.client, () => ({
      personId: m.personId,
      name: 'Smile',
      imageData: dataUrl(fixtures.jpeg(), 'image/jpeg'),
    }));
    const faceVideo = jsonRoute('POST /api/faceVideos', 'POST', () => '/api/faceVideos', () => m.client, () => ({
      personId: m.personId,
      name: 'Turning',
      videoData: dataUrl(fixtures.faceClip(2), 'video/mp4'),
    }));
    const recording = jsonRoute('POST /api/voiceRecordings', 'POST', () => '/api/voiceRecordings', () => m.client, () => ({
      personId: m.personId,
      name: 'Story',
      type: 'storytelling',
      audioData: dataUrl(fixtures.webmTone(6), 'audio/webm;codecs=opus'),
    }));
    const video = jsonRoute('POST /api/processedVideos', 'POST', () => '/api/processedVideos', () => m.client, () => ({
      templateId,
      personId: m.personId,
      faceImageId,
      title: 'My video',
      useVoiceSwap: false,
    }));
    const newTemplate = jsonRoute('POST /api/admin/videoTemplates', 'POST', () => '/api/admin/videoTemplates', () => admin, () => ({
      ...templateFields,
      videoUrl: '/demo/b.mp4',
      thumbnailUrl: '/demo/b.jpg',
    }));
    const editTemplate = jsonRoute('PATCH /api/admin/videoTemplates/:id', 'PATCH', () => `/api/admin/videoTemplates/${templateId}`, () => admin, () => ({}));
    const multipartRoute = (name: string, url: string, client: () => TestClient, fields: () => Fields, file: () => { name: string; bytes: Buffer; type: string }) =>
      (field: string, label: string, extra: Partial<TextRoute> = {}): TextRoute => ({
        name: `${name} ${field}`,
        field,
        label,
        ...extra,
        multipart: true,
        send: (value) => upload(client(), url, { ...fields(), [field]: value }, file()),
      });
    const voiceOnly = multipartRoute('POST /api/upload/voice-only-video', '/api/upload/voice-only-video', () => m.client, () => ({ personId: String(m.personId), title: 'Our trip' }), () => ({
      name: 'video',
      bytes: fixtures.avMp4(),
      type: 'video/mp4',
    }));
    const templateUpload = multipartRoute('POST /api/admin/videoTemplates/upload', '/api/admin/videoTemplates/upload', () => admin, () => ({
      title: 'Farm Animals',
      description: 'Meet the cow and the hen.',
      category: 'animals',
      ageRange: '2-4',
    }), () => ({ name: 'video', bytes: fixtures.avMp4(), type: 'video/mp4' }));

    return [
      register('username', 'Username'),
      register('email', 'Email'),
      register('displayName', 'Display name', { isName: true }),
      login('username', 'Username', { isName: true }),
      profile('username', 'Username'),
      profile('email', 'Email'),
      profile('displayName', 'Display name', { isName: true }),
      newPerson('name', 'Name', { isName: true }),
      newPerson('relationship', 'Relationship', { isName: true }),
      renamePerson('name', 'Name', { isName: true }),
      renamePerson('relationship', 'Relationship', { isName: true }),
      faceImage('name', 'Name', { isName: true }),
      faceImage('expressionType', 'Expression type'),
      faceVideo('name', 'Name', { isName: true }),
      faceVideo('expressionType', 'Expression type'),
      recording('name', 'Name', { isName: true }),
      recording('type', 'type'),
      video('title', 'Title', { isName: true }),
      video('description', 'Description', { multiline: true }),
      newTemplate('title', 'Title', { isName: true }),
      newTemplate('description', 'Description', { multiline: true }),
      newTemplate('videoUrl', 'The video or thumbnail URL'),
      newTemplate('thumbnailUrl', 'The video or thumbnail URL'),
      editTemplate('title', 'Title', { isName: true }),
      editTemplate('description', 'Description', { multiline: true }),
      voiceOnly('title', 'Title', { isName: true }),
      templateUpload('title', 'Title', { isName: true }),
      templateUpload('description', 'Description', { multiline: true }),
    ];
  }

  /** Everything a refused request could have written: rows and stored files. */
  async function written() {
    const db = t.database.db;
    const tables = await Promise.all(
      [users, people, faceImages, faceVideos, voiceRecordings, pendingUploads, videoTemplates, processedVideos].map((table) => db.select().from(table)),
    );
    return JSON.stringify(tables) + JSON.stringify(filesUnder(t.dataDir));
  }

  it('refuses control characters in every text field with 400 naming the field, and writes nothing', async () => {
    const before = await written();
    const failures: string[] = [];
    for (const route of routes) {
      const attacks: Record<string, string> = { ...CONTROL, ...(route.multiline ? {} : LINE_BREAKS) };
      if (route.multipart) delete attacks['half an emoji'];
      for (const [what, characters] of Object.entries(attacks)) {
        const response = await route.send(`Ann${characters}e`);
        const expected = { status: 400, message: unusableCharactersMessage(route.label) };
        const got = { status: response.statusCode, message: json(response).message };
        if (JSON.stringify(got) !== JSON.stringify(expected)) failures.push(`${route.name} with ${what}: ${response.statusCode} ${response.body}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await written()).toBe(before);
  }, 300_000);

  it('answers a name of invisible characters only exactly as an empty one (400), and writes nothing', async () => {
    const before = await written();
    const failures: string[] = [];
    for (const route of routes.filter((candidate) => candidate.isName)) {
      const empty = await route.send('');
      expect(empty.statusCode, `${route.name} empty`).toBe(400);
      for (const [what, characters] of Object.entries(INVISIBLE)) {
        const response = await route.send(characters);
        if (response.statusCode !== 400 || response.body !== empty.body) failures.push(`${route.name} with ${what}: ${response.statusCode} ${response.body}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await written()).toBe(before);
  }, 300_000);

  it('keeps ordinary text: accents, emoji, right-to-left names, and several lines in a description', async () => {
    const person = await m.client.post('/api/people', { name: 'Zoë 🌟 שרה', relationship: 'Aunt' });
    expect(person.statusCode, person.body).toBe(201);
    expect(json(person).name).toBe('Zoë 🌟 שרה');
    const edited = await admin.patch(`/api/admin/videoTemplates/${templateId}`, { description: 'First line.\nSecond line,\tindented.' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(json(edited).description).toBe('First line.\nSecond line,\tindented.');
  });

  it('never answers 500 to a NUL in a query string or a path', async () => {
    const urls = [
      `/api/processedVideos/estimate?templateId=${templateId}%00&face=1&voice=1`,
      `/api/processedVideos/estimate?templateId=${templateId}&face=%00&voice=1`,
      '/api/videoTemplates/1%00',
      `/api/users/${m.userId}%00/people`,
      `/api/media/faces/${m.userId}/%00.jpg`,
      `/api/users/${m.userId}?x=%00`, // an unknown parameter is ignored
    ];
    for (const url of urls) {
      const response = await m.client.get(url);
      expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(500);
    }
  });

  describe('a NUL that reaches the database past every schema, and what the log holds', () => {
    let app: FastifyInstance;
    const lines: string[] = [];
    const logged = () => lines.join('');

    beforeAll(async () => {
      // The same database and media as the suite's app, with its log captured (as auth.test.ts builds a second app).
      app = await anotherApp(t, { logStream: { write: (line) => void lines.push(line) } });
      // A field no schema checks, as a future route might have one: the text goes straight to the database.
      app.post('/api/test/unchecked-text', { config: { public: true } }, async (request) => {
        await t.database.db.execute(sql`select ${(request.body as { text: string }).text}::text`);
        return { ok: true };
      });
      await app.ready();
    });
    afterAll(() => app?.close());

    it('answers 400 with a plain message, not 500', async () => {
      const response = await new TestClient(app).post('/api/test/unchecked-text', { text: 'Ann\u0000e' });
      expect(response.statusCode, response.body).toBe(400);
      expect(json(response).message).toBe(MESSAGES.unusableCharacters);
      expect(logged()).not.toContain('"level":50');
    });

    it("logs a failed query's error without its parameters, the row, the e-mail, the password hash, the cookie or a signature", async () => {
      // A registration whose insert fails in the database: its parameters hold the e-mail and the password hash.
      await t.database.db.execute(sql.raw(`alter table users add constraint hostile_text_test check (username <> 'log_victim')`));
      try {
        const victim = new TestClient(app);
        const secret = { username: 'log_victim', email: 'log.victim@example.com', password: 'a very secret passphrase', displayName: 'Log Victim' };
        const failed = await victim.post('/api/register', secret);
        expect(failed.statusCode, failed.body).toBe(500);

        const signedIn = new TestClient(app);
        await signedIn.register();
        const cookie = signedIn.cookie(SESSION_COOKIE)!;
        await signedIn.get('/api/me');
        await signedIn.get(`/api/media/processed-videos/1/${'a'.repeat(32)}.mp4?expires=1&sig=signature-that-is-secret`);

        const log = logged();
        for (const leak of ['log.victim@example.com', 'log_victim', 'Log Victim', 'scrypt$', 'a very secret passphrase', 'params:', 'Failing row', cookie, 'signature-that-is-secret']) {
          expect(log, `the log holds ${leak}`).not.toContain(leak);
        }
        // The operator still learns what failed: the kind, the SQLSTATE, the constraint and the statement.
        const failure = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.msg === 'request failed');
        expect(failure?.err).toMatchObject({ type: 'DrizzleQueryError', cause: { code: '23514', constraint: 'hostile_text_test' } });
        expect((failure?.err as { query?: string }).query).toMatch(/^insert into "users"/);
        expect(log).toContain('/api/media/processed-videos/1/');
      } finally {
        await t.database.db.execute(sql.raw('alter table users drop constraint hostile_text_test'));
        await t.database.db.delete(users).where(eq(users.username, 'log_victim'));
      }
    });
  });
});
