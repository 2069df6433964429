// Consent per person (issue 17, decision 016): nothing of a person's face or voice is kept without it, and
// withdrawing it deletes every face, clip, recording and video made with them, rows and files.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, ConsentWithdrawal, Person } from '../../../shared/api-types';
import { CONSENT_WORDING_VERSION, PRIVACY_MESSAGES } from '../../../shared/privacy';
import { faceImages, faceVideos, people, processedVideos, videoTemplates, voiceRecordings } from '../../db/schema';
import { testDatabases } from '../../testing/databases';
import { dataUrl, filesUnder, fixtures, multipart } from '../../testing/media-fixtures';
import { type Member, memberWithPerson } from '../../testing/people-kit';
import { type TestApp, createTestApp, json } from '../../testing/test-app';

const databases = await testDatabases();

describe.each(databases)('consent per person on $name', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(testDatabase);
    await t.client().register(); // the first account is the admin
  });
  afterAll(() => t?.close());

  const media = () => filesUnder(t.storage.root);
  const face = (m: Member) => m.client.post('/api/faceImages', { personId: m.personId, name: 'Front', imageData: dataUrl(fixtures.jpeg(), 'image/jpeg') });
  const clip = (m: Member) =>
    m.client.post('/api/faceVideos', { personId: m.personId, name: 'Smile', expressionType: 'happy', videoData: dataUrl(fixtures.faceClip(4), 'video/mp4') });
  const voice = (m: Member) =>
    m.client.post('/api/voiceRecordings', { personId: m.personId, name: 'Story', audioData: dataUrl(fixtures.webmTone(6), 'audio/webm;codecs=opus') });
  const upload = (m: Member) => {
    const body = multipart([
      { name: 'video', filename: 'face.mp4', type: 'video/mp4', content: fixtures.mp4() },
      { name: 'personId', value: String(m.personId) },
    ]);
    return m.client.request('POST', '/api/upload/video', body.payload, body.headers);
  };

  it('refuses every face and voice of a person without consent with 403 and what to do, and keeps nothing', async () => {
    const m = await memberWithPerson(t, 'free', { consent: false });
    const person = json<Person>(await m.client.get(`/api/people/${m.personId}`));
    expect(person.consent).toBeNull();
    const before = media();
    for (const response of [await face(m), await clip(m), await voice(m), await upload(m)]) {
      expect(response.statusCode, response.body).toBe(403);
      expect(json(response).message).toBe(PRIVACY_MESSAGES.consentRequired('Grandma Rose'));
    }
    expect(media()).toEqual(before);
    for (const table of [faceImages, faceVideos, voiceRecordings]) {
      expect(await t.database.db.select().from(table).where(eq(table.personId, m.personId))).toEqual([]);
    }
  });

  it('records the consent with its basis, time, account and the wording version; GET shows it; bad bases get 400', async () => {
    const m = await memberWithPerson(t, 'free', { consent: false });
    for (const body of [{}, { basis: 'neighbour' }, { basis: '' }, null]) {
      const refused = await m.client.post(`/api/people/${m.personId}/consent`, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
    }
    const started = Date.now();
    const given = await m.client.post(`/api/people/${m.personId}/consent`, { basis: 'guardian', givenAt: '2000-01-01', wordingVersion: 'forged' });
    expect(given.statusCode, given.body).toBe(201);
    const consent = json<Person>(given).consent!;
    expect(consent).toMatchObject({ basis: 'guardian', wordingVersion: CONSENT_WORDING_VERSION, givenBy: m.userId });
    expect(Date.parse(consent.givenAt)).toBeGreaterThanOrEqual(started - 1000);
    expect(json<Person>(await m.client.get(`/api/people/${m.personId}`)).consent).toEqual(consent);
    expect(json<Person[]>(await m.client.get(`/api/users/${m.userId}/people`))[0]!.consent).toEqual(consent);
    expect((await face(m)).statusCode).toBe(201);

    const audit = json<AuditEntry[]>(await m.client.get(`/api/users/${m.userId}/audit`));
    expect(audit[0]).toMatchObject({ action: 'consent.given', actorRole: 'owner', personId: m.personId });
    expect(audit[0]!.detail).toContain('Grandma Rose');
  });

  it("withdrawing deletes the person's faces, clips, recordings, pending uploads and every video made with them, rows and files", async () => {
    const m = await memberWithPerson(t, 'premium');
    const other = await memberWithPerson(t);
    expect((await face(other)).statusCode).toBe(201);
    const { id: faceId } = json<{ id: number }>(await face(m));
    expect((await clip(m)).statusCode).toBe(201);
    const { id: voiceId } = json<{ id: number }>(await voice(m));
    expect((await upload(m)).statusCode).toBe(201);
    // A second person of the same family, and videos: one of the person, one of the sibling made with the
    // person's face (it goes too), and one of the sibling alone (it stays).
    const sibling = json<Person>(await m.client.post('/api/people', { name: 'Little Sam', relationship: 'Grandson' }));
    const video = async (personId: number, faceImageId: number | null, voiceRecordingId: number | null) => {
      const file = path.join(t.storage.tempFolder, `${personId}-${faceImageId}.mp4`);
      await writeFile(file, fixtures.mp4());
      const stored = await t.storage.moveIn(file, 'processed-videos', m.userId, 'mp4');
      const [row] = await t.database.db
        .insert(processedVideos)
        .values({ userId: m.userId, personId, title: 'Counting', status: 'completed', outputUrl: stored.url, videoUrl: stored.url, faceImageId, voiceRecordingId })
        .returning();
      return { id: row!.id, file: stored.path };
    };
    const own = await video(m.personId, faceId, voiceId);
    const borrowed = await video(sibling.id, faceId, null);
    const siblings = await video(sibling.id, null, null);
    const othersFiles = filesUnder(path.join(t.storage.root, 'face-images', String(other.userId)));
    const ownFiles = () => media().filter((file) => file.split(path.sep)[1] === String(m.userId));
    expect(ownFiles().length).toBe(7); // face, clip, recording, upload, three videos

    const withdrawn = await m.client.delete(`/api/people/${m.personId}/consent`);
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    const result = json<ConsentWithdrawal>(withdrawn);
    expect(result.deleted).toEqual({ faceImages: 1, faceVideos: 1, voiceRecordings: 1, processedVideos: 2 });
    expect(result.person).toMatchObject({ id: m.personId, name: 'Grandma Rose', consent: null });

    expect(ownFiles().map((file) => path.join(t.storage.root, file))).toEqual([siblings.file]);
    expect(filesUnder(path.join(t.storage.root, 'face-images', String(other.userId)))).toEqual(othersFiles);
    const left = await t.database.db.select({ id: processedVideos.id }).from(processedVideos).where(eq(processedVideos.userId, m.userId));
    expect(left.map((row) => row.id)).toEqual([siblings.id]);
    expect([own.id, borrowed.id]).not.toContain(siblings.id);
    for (const list of ['faceImages', 'faceVideos', 'voiceRecordings']) {
      expect(json<unknown[]>(await m.client.get(`/api/people/${m.personId}/${list}`))).toEqual([]);
    }
    const pending = await t.database.db.execute(sql`select count(*)::int as n from pending_uploads where person_id = ${m.personId}`);
    expect((pending as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);

    // Without consent again: refused until it is given anew.
    expect((await face(m)).statusCode).toBe(403);
    const audit = json<AuditEntry[]>(await m.client.get(`/api/users/${m.userId}/audit`));
    expect(audit[0]).toMatchObject({ action: 'consent.withdrawn', personId: m.personId });
    expect(audit[0]!.detail).toContain('1 face photo(s)');
  });

  it('answers 409 when there is no consent to withdraw, and only the owner may give or withdraw it', async () => {
    const m = await memberWithPerson(t, 'free', { consent: false });
    const withdrawn = await m.client.delete(`/api/people/${m.personId}/consent`);
    expect(withdrawn.statusCode).toBe(409);
    expect(json(withdrawn).message).toBe(PRIVACY_MESSAGES.noConsentToWithdraw);
    const stranger = await memberWithPerson(t);
    expect((await stranger.client.post(`/api/people/${m.personId}/consent`, { basis: 'self' })).statusCode).toBe(403);
    expect((await stranger.client.get(`/api/users/${m.userId}/audit`)).statusCode).toBe(403);
    expect((await t.client().get(`/api/users/${m.userId}/audit`)).statusCode).toBe(401);
    expect(json<Person>(await m.client.get(`/api/people/${m.personId}`)).consent).toBeNull();
  });

  it('makes no video with a face kept from before consent was asked for', async () => {
    const m = await memberWithPerson(t);
    expect((await face(m)).statusCode).toBe(201);
    expect((await voice(m)).statusCode).toBe(201);
    // As a person whose faces predate the consent rule: their consent is not recorded.
    await t.database.db.update(people).set({ consentBasis: null, consentGivenAt: null, consentVersion: null }).where(eq(people.id, m.personId));
    const [template] = await t.database.db.insert(videoTemplates).values({ title: 'Counting', description: 'Count', duration: 2 }).returning();
    const file = path.join(t.storage.tempFolder, 'template.mp4');
    await writeFile(file, fixtures.mp4());
    const stored = await t.storage.moveIn(file, 'templates', template!.id, 'mp4');
    await t.database.db.update(videoTemplates).set({ videoUrl: stored.url }).where(eq(videoTemplates.id, template!.id));
    const response = await m.client.post('/api/processedVideos', { templateId: template!.id, personId: m.personId, title: 'Counting', useVoiceSwap: false });
    expect(response.statusCode, response.body).toBe(403);
    expect(json(response).message).toBe(PRIVACY_MESSAGES.consentRequired('Grandma Rose'));
  });

  it('never leaves a face of a person whose consent was withdrawn while it was being saved', async () => {
    const m = await memberWithPerson(t);
    const saves = Array.from({ length: 4 }, () => voice(m));
    const withdrawal = m.client.delete(`/api/people/${m.personId}/consent`);
    const statuses = (await Promise.all(saves)).map((response) => response.statusCode);
    expect((await withdrawal).statusCode).toBe(200);
    for (const status of statuses) expect([201, 403]).toContain(status);
    expect(await t.database.db.select().from(voiceRecordings).where(eq(voiceRecordings.personId, m.personId))).toEqual([]);
    expect(filesUnder(path.join(t.storage.root, 'voice-recordings', String(m.userId)))).toEqual([]);
  });

  it("records a parent's deletions of faces, clips, recordings and people in their audit log", async () => {
    const m = await memberWithPerson(t, 'premium');
    const faceId = json<{ id: number }>(await face(m)).id;
    const clipId = json<{ id: number }>(await clip(m)).id;
    const voiceId = json<{ id: number }>(await voice(m)).id;
    for (const url of [`/api/faceImages/${faceId}`, `/api/faceVideos/${clipId}`, `/api/voiceRecordings/${voiceId}`, `/api/people/${m.personId}`]) {
      expect((await m.client.delete(url)).statusCode, url).toBe(204);
    }
    const audit = json<AuditEntry[]>(await m.client.get(`/api/users/${m.userId}/audit`));
    expect(audit.map((entry) => entry.detail)).toEqual([
      'Deleted Grandma Rose with 0 face photo(s), 0 face clip(s) and 0 voice recording(s)',
      'Deleted the voice recording "Story"',
      'Deleted the face clip "Smile"',
      'Deleted the face photo "Front"',
      expect.stringContaining('Consent given for Grandma Rose as parent or guardian'),
    ]);
    expect(audit.every((entry) => entry.actorRole === 'owner' && entry.personId === m.personId)).toBe(true);
  });

  it('keeps the audit log append-only in the database', async () => {
    const m = await memberWithPerson(t);
    await expect(t.database.db.execute(sql`update audit_log set detail = 'changed' where user_id = ${m.userId}`)).rejects.toThrow();
    await expect(t.database.db.execute(sql`delete from audit_log where user_id = ${m.userId}`)).rejects.toThrow();
    expect(json<AuditEntry[]>(await m.client.get(`/api/users/${m.userId}/audit`)).length).toBe(1);
  });
});
