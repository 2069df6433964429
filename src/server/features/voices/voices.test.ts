import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_LIMITS, MEDIA_MESSAGES } from '../../../shared/media-rules';
import { MESSAGES } from '../../../shared/validation';
import { testDatabases } from '../../testing/databases';
import { dataUrl, filesUnder, fixtures } from '../../testing/media-fixtures';
import { type Member, memberWithPerson } from '../../testing/people-kit';
import { type TestApp, createTestApp, json } from '../../testing/test-app';

const databases = await testDatabases();

interface VoiceJson {
  id: number;
  audioUrl: string;
  name: string;
  duration: number;
  isDefault: boolean;
  mlProcessed: boolean;
  type: string | null;
  personId: number;
  userId: number;
}

describe.each(databases)('voice recordings API on $name', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(testDatabase);
    await t.client().register(); // the first account is the admin
  });
  afterAll(() => t?.close());

  const sixSeconds = () => dataUrl(fixtures.webmTone(6), 'audio/webm;codecs=opus');
  const addVoice = async (m: Member, extra: Record<string, unknown> = {}) => {
    const response = await m.client.post('/api/voiceRecordings', {
      userId: m.userId,
      personId: m.personId,
      name: "Grandma Rose's Voice",
      audioData: sixSeconds(),
      duration: 6,
      ...extra,
    });
    expect(response.statusCode, response.body).toBe(201);
    return json<VoiceJson>(response);
  };
  const voicesOf = async (m: Member) => json<VoiceJson[]>(await m.client.get(`/api/people/${m.personId}/voiceRecordings`));
  const userFiles = (userId: number) => filesUnder(t.storage.root).filter((file) => file.split(path.sep)[1] === String(userId));
  const tmpFiles = () => filesUnder(path.join(t.dataDir, 'tmp'));

  it('stores a recording with the duration measured on the server, not the one sent', async () => {
    const m = await memberWithPerson(t);
    const voice = await addVoice(m, { duration: 999, type: 'casual' });
    expect(voice).toMatchObject({ personId: m.personId, userId: m.userId, isDefault: true, mlProcessed: false, type: 'casual' });
    expect(voice.duration).toBeGreaterThan(5.9);
    expect(voice.duration).toBeLessThan(6.1);
    expect(voice.audioUrl).toMatch(new RegExp(`^/api/media/voice-recordings/${m.userId}/[0-9a-f-]{36}\\.weba$`));
    expect(JSON.stringify(voice)).not.toContain('base64');

    const wav = await addVoice(m, { audioData: dataUrl(fixtures.wavTone(6), 'audio/wav'), name: 'WAV' });
    expect(wav.audioUrl).toMatch(/\.wav$/);
    expect(wav.isDefault).toBe(false);
    expect(wav.type).toBeNull();

    const read = await m.client.get(`/api/voiceRecordings/${voice.id}`);
    expect(read.statusCode).toBe(200);
    expect(json(read)).toEqual(voice);
    expect(json<unknown[]>(await m.client.get(`/api/users/${m.userId}/voiceRecordings`))).toHaveLength(2);

    const media = await m.client.request('GET', voice.audioUrl, undefined, { range: 'bytes=0-15' });
    expect(media.statusCode).toBe(206);
    expect(media.headers['content-type']).toBe('audio/webm');
    expect(media.rawPayload.equals(fixtures.webmTone(6).subarray(0, 16))).toBe(true);
  });

  it('accepts up to 30 s plus a little recorder overshoot', async () => {
    const m = await memberWithPerson(t);
    const voice = await addVoice(m, { audioData: dataUrl(fixtures.wavTone(30.3), 'audio/wav') });
    expect(voice.duration).toBeCloseTo(30.3, 1);
  });

  it('rejects recordings that are too short, too long, damaged, empty, of the wrong type or too large', async () => {
    const m = await memberWithPerson(t);
    const cases: [string, unknown, number, string][] = [
      ['a 3 s recording', dataUrl(fixtures.webmTone(3), 'audio/webm'), 400, MEDIA_MESSAGES.recordingTooShort],
      ['a 40 s recording', dataUrl(fixtures.webmTone(40), 'audio/webm'), 400, MEDIA_MESSAGES.recordingTooLong],
      ['a truncated WebM (its header says 6 s)', dataUrl(fixtures.webmTone(6).subarray(0, 26_000), 'audio/webm'), 400, MEDIA_MESSAGES.unreadableMedia],
      ['text declared audio/webm', dataUrl('this is not audio, only a sentence', 'audio/webm'), 400, MEDIA_MESSAGES.invalidAudioType],
      ['a JPEG declared audio/wav', dataUrl(fixtures.jpeg(), 'audio/wav'), 400, MEDIA_MESSAGES.invalidAudioType],
      ['a video declared audio/mp4', dataUrl(fixtures.mp4(), 'audio/mp4'), 400, MEDIA_MESSAGES.invalidAudioType],
      ['an empty data URL', 'data:audio/webm;base64,', 400, MEDIA_MESSAGES.emptyFile],
      ['not base64', 'data:audio/webm;base64,not base64 at all', 400, MEDIA_MESSAGES.notBase64],
      ['no audio', undefined, 400, MEDIA_MESSAGES.notBase64],
      ['a recording over 10 MB', dataUrl(Buffer.alloc(MEDIA_LIMITS.audioMaxBytes + 1), 'audio/wav'), 413, MEDIA_MESSAGES.audioTooLarge],
      ['a body over the route limit', dataUrl(Buffer.alloc(11 * 1024 * 1024), 'audio/wav'), 413, MEDIA_MESSAGES.audioTooLarge],
    ];
    for (const [label, audioData, status, message] of cases) {
      const response = await m.client.post('/api/voiceRecordings', { personId: m.personId, name: 'Bad', audioData, duration: 6 });
      expect(response.statusCode, label).toBe(status);
      expect(json(response), label).toEqual({ message });
    }
    expect(await voicesOf(m)).toEqual([]);
    expect(userFiles(m.userId)).toEqual([]);
    expect(tmpFiles()).toEqual([]);
  });

  it.each([
    ['a 1-character name is fine', 'A', 201],
    ['a 10,000-character name is too long', 'A'.repeat(10_000), 400],
  ])('names: %s', async (_label, name, status) => {
    const m = await memberWithPerson(t);
    const response = await m.client.post('/api/voiceRecordings', { personId: m.personId, name, audioData: sixSeconds() });
    expect(response.statusCode).toBe(status);
    expect(userFiles(m.userId)).toHaveLength(status === 201 ? 1 : 0);
  });

  it('makes the first recording default, lets the wizard take it, and passes it on when the default is deleted', async () => {
    const m = await memberWithPerson(t);
    const first = await addVoice(m, { name: 'First' });
    const second = await addVoice(m, { name: 'Second', isDefault: false });
    expect([first.isDefault, second.isDefault]).toEqual([true, false]);
    // The training wizard's first step is sent with isDefault: true.
    const wizard = await addVoice(m, { name: 'Wizard casual', isDefault: true, type: 'casual' });
    expect(wizard.isDefault).toBe(true);
    expect((await voicesOf(m)).filter((v) => v.isDefault).map((v) => v.name)).toEqual(['Wizard casual']);

    const set = await m.client.patch(`/api/voiceRecordings/${second.id}/setDefault`);
    expect(set.statusCode).toBe(200);
    expect(json(set)).toMatchObject({ id: second.id, isDefault: true });
    expect((await voicesOf(m)).filter((v) => v.isDefault).map((v) => v.name)).toEqual(['Second']);

    expect((await m.client.delete(`/api/voiceRecordings/${second.id}`)).statusCode).toBe(204);
    expect((await voicesOf(m)).map((v) => [v.name, v.isDefault])).toEqual([
      ['First', false],
      ['Wizard casual', true],
    ]);
    expect((await m.client.get(second.audioUrl)).statusCode).toBe(404);
    expect(userFiles(m.userId)).toHaveLength(2);
  });

  it("keeps another user's recordings and people out of reach and unchanged", async () => {
    const owner = await memberWithPerson(t);
    const other = await memberWithPerson(t);
    const voice = await addVoice(owner);

    expect((await other.client.get(`/api/voiceRecordings/${voice.id}`)).statusCode).toBe(403);
    expect((await other.client.get(`/api/people/${owner.personId}/voiceRecordings`)).statusCode).toBe(403);
    expect((await other.client.get(`/api/users/${owner.userId}/voiceRecordings`)).statusCode).toBe(403);
    expect((await other.client.patch(`/api/voiceRecordings/${voice.id}/setDefault`)).statusCode).toBe(403);
    expect((await other.client.delete(`/api/voiceRecordings/${voice.id}`)).statusCode).toBe(403);
    expect((await other.client.get(voice.audioUrl)).statusCode).toBe(403);
    const onOthersPerson = await other.client.post('/api/voiceRecordings', { personId: owner.personId, name: 'X', audioData: sixSeconds() });
    expect(onOthersPerson.statusCode).toBe(403);
    const asOtherUser = await other.client.post('/api/voiceRecordings', { userId: owner.userId, personId: other.personId, name: 'X', audioData: sixSeconds() });
    expect(asOtherUser.statusCode).toBe(403);
    const unknown = await other.client.post('/api/voiceRecordings', { personId: 999_999, name: 'X', audioData: sixSeconds() });
    expect(unknown.statusCode).toBe(404);
    expect(userFiles(other.userId)).toEqual([]);
    expect(await voicesOf(owner)).toEqual([voice]);
    expect((await owner.client.get(voice.audioUrl)).statusCode).toBe(200);
  });

  it('answers 400 to non-numeric ids, 404 to unknown ones and 401 when signed out', async () => {
    const m = await memberWithPerson(t);
    const voice = await addVoice(m);
    for (const [method, url] of [
      ['GET', '/api/voiceRecordings/abc'],
      ['PATCH', '/api/voiceRecordings/abc/setDefault'],
      ['DELETE', '/api/voiceRecordings/1e3'],
      ['GET', '/api/people/abc/voiceRecordings'],
      ['GET', '/api/users/abc/voiceRecordings'],
    ] as const) {
      const response = await m.client.request(method, url);
      expect(response.statusCode, url).toBe(400);
      expect(json(response)).toEqual({ message: MESSAGES.invalidId });
    }
    expect((await m.client.get('/api/voiceRecordings/999999')).statusCode).toBe(404);
    const badPerson = await m.client.post('/api/voiceRecordings', { personId: 'x', name: 'X', audioData: sixSeconds() });
    expect(json(badPerson)).toEqual({ message: MESSAGES.invalidId });

    const visitor = t.client();
    for (const [method, url, body] of [
      ['GET', `/api/users/${m.userId}/voiceRecordings`],
      ['GET', `/api/people/${m.personId}/voiceRecordings`],
      ['GET', `/api/voiceRecordings/${voice.id}`],
      ['POST', '/api/voiceRecordings', { personId: m.personId, name: 'X', audioData: sixSeconds() }],
      ['PATCH', `/api/voiceRecordings/${voice.id}/setDefault`],
      ['DELETE', `/api/voiceRecordings/${voice.id}`],
      ['GET', voice.audioUrl],
    ] as const) {
      expect((await visitor.request(method, url, body)).statusCode, `${method} ${url}`).toBe(401);
    }
    expect(await voicesOf(m)).toEqual([voice]);
  });
});
