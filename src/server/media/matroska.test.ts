// Matroska uploads are stored as what they hold (issue 16, item 10): an H.264 MKV was stored as .webm and
// served as video/webm. Real files made at test time with ffmpeg from the shared talking-man clip.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../shared/validation';
import { testDatabases } from '../testing/databases';
import { dataUrl, filesUnder, fixtures, multipart } from '../testing/media-fixtures';
import { type Member, memberWithPerson } from '../testing/people-kit';
import { type TestApp, createTestApp, json } from '../testing/test-app';
import { ffmpegBinary, probe } from './ffmpeg';
import { readHead } from './ingest';
import { sniff } from './sniff';

const TALKING_MAN = path.resolve(import.meta.dirname, '../../../../shared/media/talking-man.mp4');
const dir = mkdtempSync(path.join(tmpdir(), 'familystar-matroska-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function make(name: string, args: string[]): Buffer {
  const file = path.join(dir, name);
  execFileSync(ffmpegBinary(), ['-nostdin', '-v', 'error', '-y', ...args, file]);
  return readFileSync(file);
}

/** A digest of a file's video packets as stored (no decoding). */
const videoPackets = (file: string) =>
  execFileSync(ffmpegBinary(), ['-nostdin', '-v', 'error', '-i', file, '-map', '0:v:0', '-c', 'copy', '-f', 'md5', '-']).toString().trim();

const media = {
  /** The talking-man clip's own H.264 and AAC packets, copied into Matroska. */
  h264Mkv: () => make('h264.mkv', ['-i', TALKING_MAN, '-t', '4', '-c', 'copy']),
  /** The same with a WebM header (as Chrome's MediaRecorder writes for video/webm;codecs=h264). */
  h264WebmHeader: () => {
    const mkv = media.h264Mkv();
    const docType = Buffer.from('4282886d6174726f736b61', 'hex'); // DocType "matroska"
    const at = mkv.indexOf(docType);
    // DocType "webm" and a 4-byte Void element in the place of the 11 bytes: sizes stay right.
    return Buffer.concat([mkv.subarray(0, at), Buffer.from('428284', 'hex'), Buffer.from('webm'), Buffer.from('ec820000', 'hex'), mkv.subarray(at + docType.length)]);
  },
  /** VP9 and Opus, but written by the Matroska muxer (DocType "matroska"). */
  vp9Mkv: () => make('vp9.mkv', ['-i', TALKING_MAN, '-t', '2', '-vf', 'scale=160:160', '-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-c:a', 'libopus', '-f', 'matroska']),
  /** MPEG-4 Part 2: a picture no browser plays. */
  mpeg4Mkv: () => make('mpeg4.mkv', ['-i', TALKING_MAN, '-t', '2', '-c:v', 'mpeg4', '-an']),
  /** Sound only: AAC and Opus in Matroska audio. */
  aacMka: () => make('voice-aac.mka', ['-f', 'lavfi', '-i', 'sine=frequency=220:duration=6', '-c:a', 'aac', '-f', 'matroska']),
  opusMka: () => make('voice-opus.mka', ['-f', 'lavfi', '-i', 'sine=frequency=220:duration=6', '-c:a', 'libopus', '-f', 'matroska']),
};

// Conversions depend on the files, not the database: one database is enough (as media-limits.test.ts).
const [pglite] = (await testDatabases()).filter((database) => database.name === 'pglite');

describe('Matroska uploads', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(pglite!);
    await t.client().register(); // the first account is the admin
  });
  afterAll(() => t?.close());

  const userFiles = (userId: number) => filesUnder(t.storage.root).filter((file) => file.split(path.sep)[1] === String(userId));
  const upload = (m: Member, bytes: Buffer, filename: string) => {
    const body = multipart([
      { name: 'video', filename, type: 'video/webm', content: bytes },
      { name: 'personId', value: String(m.personId) },
    ]);
    return m.client.request('POST', '/api/upload/video', body.payload, body.headers);
  };
  /** The stored file as the browser gets it, and what it really is. */
  const served = async (m: Member, url: string) => {
    const response = await m.client.get(url);
    expect(response.statusCode).toBe(200);
    const file = t.storage.fromUrl(url)!.path;
    return { contentType: response.headers['content-type'], sniffed: sniff(await readHead(file)), probed: await probe(file) };
  };

  it('stores an H.264 MKV as MP4 with its own packets (served video/mp4), streamed or inline', async () => {
    const m = await memberWithPerson(t);
    media.h264Mkv();
    const source = path.join(dir, 'h264.mkv');
    const { duration } = await probe(source);
    for (const send of [
      () => upload(m, media.h264Mkv(), 'clip.mkv'),
      () => m.client.post('/api/faceVideos', { personId: m.personId, name: 'Clip', expressionType: 'neutral', videoData: dataUrl(media.h264Mkv(), 'video/x-matroska') }),
    ]) {
      const response = await send();
      expect(response.statusCode, response.body).toBe(201);
      const url = json<{ videoUrl: string }>(response).videoUrl;
      expect(url).toMatch(/\.mp4$/);
      const { contentType, sniffed, probed } = await served(m, url);
      expect(contentType).toBe('video/mp4');
      expect(sniffed?.mime).toBe('video/mp4');
      expect(probed).toMatchObject({ videoCodec: 'h264', audioCodec: 'aac', width: 480, height: 480 });
      expect(probed.duration).toBeCloseTo(duration!, 0);
      // Copied, not encoded again: the same H.264 packets.
      expect(videoPackets(t.storage.fromUrl(url)!.path)).toBe(videoPackets(source));
    }
    // The stored clip is accepted as a face video (the upload's URL claimed).
    const claimed = await upload(m, media.h264Mkv(), 'clip.mkv');
    const saved = await m.client.post('/api/faceVideos', { personId: m.personId, name: 'Saved', expressionType: 'neutral', videoUrl: json<{ videoUrl: string }>(claimed).videoUrl });
    expect(saved.statusCode, saved.body).toBe(201);
  });

  it('stores H.264 behind a WebM header (a recorder’s video/webm;codecs=h264) as MP4 too', async () => {
    const m = await memberWithPerson(t);
    expect(sniff(media.h264WebmHeader().subarray(0, 64))?.ext).toBe('webm');
    const response = await upload(m, media.h264WebmHeader(), 'clip.webm');
    expect(response.statusCode, response.body).toBe(201);
    const { contentType, probed } = await served(m, json<{ videoUrl: string }>(response).videoUrl);
    expect(contentType).toBe('video/mp4');
    expect(probed.videoCodec).toBe('h264');
  });

  it('keeps WebM codecs as WebM: a VP9 MKV is rewritten with a WebM header; a real WebM is kept byte for byte', async () => {
    const m = await memberWithPerson(t);
    const vp9 = await upload(m, media.vp9Mkv(), 'clip.mkv');
    expect(vp9.statusCode, vp9.body).toBe(201);
    const rewritten = await served(m, json<{ videoUrl: string }>(vp9).videoUrl);
    expect(rewritten.contentType).toBe('video/webm');
    expect(rewritten.sniffed?.ext).toBe('webm');
    expect(rewritten.probed).toMatchObject({ videoCodec: 'vp9', audioCodec: 'opus' });

    const webm = await upload(m, fixtures.vp8Webm(), 'clip.webm');
    const url = json<{ videoUrl: string }>(webm).videoUrl;
    expect(url).toMatch(/\.webm$/);
    expect(readFileSync(t.storage.fromUrl(url)!.path).equals(fixtures.vp8Webm())).toBe(true);
  });

  it('refuses a picture no browser plays (MPEG-4 Part 2 in MKV) with a message, leaving nothing', async () => {
    const m = await memberWithPerson(t);
    const response = await upload(m, media.mpeg4Mkv(), 'clip.mkv');
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({ message: MESSAGES.videoCodecNotPlayable });
    expect(userFiles(m.userId)).toEqual([]);
    expect(filesUnder(path.join(t.dataDir, 'tmp'))).toEqual([]);
  });

  it('stores a voice in Matroska audio as what browsers play: Opus as WebM audio, AAC made M4A', async () => {
    const m = await memberWithPerson(t);
    const post = (bytes: Buffer) => m.client.post('/api/voiceRecordings', { personId: m.personId, name: 'Voice', audioData: dataUrl(bytes, 'audio/x-matroska') });
    const opus = await post(media.opusMka());
    expect(opus.statusCode, opus.body).toBe(201);
    const opusServed = await served(m, json<{ audioUrl: string }>(opus).audioUrl);
    expect(opusServed.contentType).toBe('audio/webm');
    expect(opusServed.sniffed?.ext).toBe('webm');

    const aac = await post(media.aacMka());
    expect(aac.statusCode, aac.body).toBe(201);
    const aacServed = await served(m, json<{ audioUrl: string }>(aac).audioUrl);
    expect(aacServed.contentType).toBe('audio/mp4');
    expect(aacServed.probed).toMatchObject({ hasVideo: false, audioCodec: 'aac' });
    expect(json<{ duration: number }>(aac).duration).toBeCloseTo(6, 0);
  });
});
