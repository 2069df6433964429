// Hostile input (issue 16, "Prove the rest" 2; decision 015): a property-based test (fast-check) throws
// random and malformed bodies, query strings, ids, data URLs, file headers and media files at every write
// route the server has, read from its own route table, so a new write route is covered without an entry
// here. Every answer is below 500, every refusal is JSON `{ message }`; after each request no temporary
// file is left, no stored file lacks a row, and nothing changed unless the answer was 2xx. Afterwards the
// server still answers a health check and a signed-in parent. On PGlite and on PostgreSQL, seeded, so a
// run is the same every time.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES } from '../shared/payments';
import { MESSAGES } from '../shared/validation';
import { type World, buildWorld } from './access-matrix-kit';
import { videoTemplates } from './db/schema';
import { ffmpegBinary } from './media/ffmpeg';
import { testDatabases } from './testing/databases';
import { dataUrl, fixtures, multipart } from './testing/media-fixtures';
import { until } from './testing/wait';
import { type TestApp, type TestClient, createTestApp, json } from './testing/test-app';

const databases = await testDatabases();

/**
 * Runs per write route; the seed makes every run of the suite send the same requests. HOSTILE_SEED and
 * HOSTILE_RUNS explore further by hand (decision 015 says what such runs found).
 */
const RUNS_PER_ROUTE = Number(process.env.HOSTILE_RUNS) || 40;
const SEED = Number(process.env.HOSTILE_SEED) || 20_261_124;
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** An id no row has. */
const MISSING = 999_999;

// ---- media files, made at test time ------------------------------------------------------------------

const TALKING_MAN = path.resolve(import.meta.dirname, '../../../shared/media/talking-man.mp4');
const FACE_API_DEMO = path.join(path.dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')), 'demo');
/** A real woman's recorded phrases (Debian's alsa-utils). */
const ALSA_VOICE = ['Front_Center', 'Front_Left', 'Front_Right', 'Rear_Center'].map((name) => `/usr/share/sounds/alsa/${name}.wav`);

const scratch = mkdtempSync(path.join(tmpdir(), 'familystar-hostile-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function ffmpeg(name: string, args: string[]): Buffer {
  const file = path.join(scratch, name);
  execFileSync(ffmpegBinary(), ['-nostdin', '-v', 'error', '-y', ...args, file]);
  return readFileSync(file);
}

const half = (bytes: Buffer) => bytes.subarray(0, Math.floor(bytes.length / 2));
/** The same length, every 7th byte of its second half flipped: its header reads well, its packets do not decode. */
const scrambled = (bytes: Buffer) => Buffer.from(bytes.map((byte, at) => (at > bytes.length / 2 && at % 7 === 0 ? byte ^ 0xa5 : byte)));

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG whose header claims 60000×60000 pixels (10.8 GB decoded) over a few bytes of picture. */
function hugePng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(60_000, 0);
  header.writeUInt32BE(60_000, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.alloc(64))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The photo with its frame header (SOF) claiming 65500×65500 pixels. */
function hugeJpeg(photo: Buffer): Buffer {
  const bytes = Buffer.from(photo);
  for (let at = 2; at + 9 < bytes.length; at++) {
    if (bytes[at] === 0xff && (bytes[at + 1] === 0xc0 || bytes[at + 1] === 0xc2)) {
      bytes.writeUInt16BE(65_500, at + 5);
      bytes.writeUInt16BE(65_500, at + 7);
      return bytes;
    }
  }
  throw new Error('no frame header in the photo');
}

/** A zip holding one stored file (a JPEG with this appended is still a JPEG, and a zip). */
function zipOf(name: string, content: string): Buffer {
  const data = Buffer.from(content);
  const fileName = Buffer.from(name);
  const crc = crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(10, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(10, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(local.length + fileName.length + data.length, 16);
  return Buffer.concat([local, fileName, data, central, fileName, end]);
}

/** A GIF whose width bytes open a JavaScript comment: the file is a picture and a script. */
function gifScript(): Buffer {
  return Buffer.concat([
    Buffer.from('GIF89a/*', 'latin1'),
    Buffer.from([0x0a, 0x00, 0x00, 0x00, 0x00, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, 0x4c, 0x01, 0x00, 0x3b]),
    Buffer.from('*/=alert(document.cookie);', 'latin1'),
  ]);
}

function buildMedia() {
  const photo = readFileSync(path.join(FACE_API_DEMO, 'sample1.jpg'));
  const picture = existsSync(TALKING_MAN) ? ['-i', TALKING_MAN] : ['-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25'];
  const voiceInputs = ALSA_VOICE.every(existsSync) ? ALSA_VOICE : [];
  // Four phrases of a real voice, 5.8 s (a tone when alsa-utils is missing).
  const wav = voiceInputs.length
    ? ffmpeg('voice.wav', [...voiceInputs.flatMap((file) => ['-i', file]), '-filter_complex', 'concat=n=4:v=0:a=1', '-ar', '16000', '-ac', '1'])
    : fixtures.wavTone(6);
  const mp4 = ffmpeg('clip.mp4', [...picture, '-t', '2', '-vf', 'scale=320:-2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-an', '-movflags', '+faststart']);
  const webm = ffmpeg('clip.webm', [...picture, '-t', '2', '-vf', 'scale=320:-2', '-c:v', 'libvpx', '-deadline', 'realtime', '-b:v', '300k', '-an']);
  // A picture with sound (what the voice-only upload needs).
  const sound = voiceInputs.length ? ['-i', path.join(scratch, 'voice.wav')] : ['-f', 'lavfi', '-i', 'sine=frequency=220:duration=3'];
  const talkingMp4 = ffmpeg('talking.mp4', [
    ...picture, ...sound, '-map', '0:v:0', '-map', '1:a:0', '-t', '3', '-vf', 'scale=320:-2',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', '+faststart',
  ]);
  return {
    photo,
    photoTruncated: half(photo),
    photoHugeHeader: hugeJpeg(photo),
    photoWithZip: Buffer.concat([photo, zipOf('index.html', '<script>alert(document.cookie)</script>')]),
    photoWithHtml: Buffer.concat([photo, Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>')]),
    jpegHeaderOnly: Buffer.concat([photo.subarray(0, 3), Buffer.from('not really a picture at all')]),
    hugePng: hugePng(),
    gifScript: gifScript(),
    svgScript: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.cookie)"><rect width="10" height="10"/></svg>'),
    html: Buffer.from('<!doctype html><script>alert(document.cookie)</script>'),
    mp4,
    mp4Truncated: half(mp4),
    talkingMp4,
    talkingMp4Scrambled: scrambled(talkingMp4),
    webm,
    webmTruncated: half(webm),
    wav,
    wavTruncated: half(wav),
    wavScrambled: scrambled(wav),
    empty: Buffer.alloc(0),
  };
}
type Media = ReturnType<typeof buildMedia>;
type MediaName = keyof Media;

// ---- what a request is made of (small descriptions: fast-check prints them when a run fails) ---------

/** A file's bytes: one of the media files, or random bytes. */
type Bytes = { media: MediaName } | { random: Uint8Array };

type DataUrlSpec =
  | { kind: 'base64'; mime: string; params: string; bytes: Bytes; damage: 'none' | 'badCharacters' | 'noPadding' | 'spaces' | 'urlSafe' }
  /** Longer than any inline media limit of an image (5 MB), under the JSON body limits of videos and voices. */
  | { kind: 'oversize'; mime: string }
  | { kind: 'text'; text: string };

/** A field's value: the valid one for this world, or something hostile. */
type Value = { valid: true } | { hostile: unknown } | { dataUrl: DataUrlSpec };
type Field = [name: string, value: Value];

interface FilePart {
  field: string;
  filename: string;
  type: string;
  bytes: Bytes;
}

type MultipartDamage = 'none' | 'truncated' | 'noBoundary' | 'otherBoundary' | 'bareNewlines' | 'partWithoutHeaders';

type Body =
  | { kind: 'json'; fields: Field[]; contentType: string }
  | { kind: 'text'; text: string; contentType: string }
  | { kind: 'multipart'; fields: Field[]; files: FilePart[]; filesFirst: boolean; damage: MultipartDamage }
  | { kind: 'none'; contentType: string | undefined };

interface HostileRequest {
  /** One value for each `:param` of the route, in order. */
  params: string[];
  query: string;
  body: Body;
}

// ---- arbitraries ---------------------------------------------------------------------------------------

/** Every field name the write routes read, across their schemas (shared/*-rules.ts, the routes' own). */
const FIELD_NAMES = [
  'username', 'email', 'password', 'displayName',
  'userId', 'personId', 'name', 'relationship',
  'imageData', 'videoData', 'videoUrl', 'audioData', 'isDefault', 'expressionType', 'type', 'duration',
  'title', 'description', 'templateId', 'faceImageId', 'voiceRecordingId', 'useFaceSwap', 'useVoiceSwap', 'purpose',
  'role', 'plan', 'subscriptionStatus',
  'category', 'ageRange', 'featured', 'isPremium', 'voiceOnly', 'price', 'thumbnailUrl',
] as const;
const DATA_FIELDS = new Set(['imageData', 'videoData', 'audioData']);
/** The text fields of the upload forms (multipart). */
const FORM_FIELD_NAMES = ['personId', 'userId', 'title', 'description', 'category', 'ageRange', 'featured', 'isPremium', 'voiceOnly', 'price', 'duration', 'name'];
const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString'];

const HOSTILE_STRINGS = [
  '', ' ', '\u0000', 'a\u0000b', '\u0007\u001b[31m', '\r\nSet-Cookie: x=1', '\u202Eevil.exe', '\u200B\u200D', '\uD800', '\uDFFFx',
  '../../../../etc/passwd', '..%2F..%2F..%2Fdb', '/api/media/face-images/1/../../../db', 'C:\\Windows\\win.ini',
  '<script>alert(1)</script>', "'; DROP TABLE users; --", "' OR '1'='1", '%00', '%ZZ', '${jndi:ldap://x}', '{{7*7}}',
  'null', 'undefined', 'NaN', 'Infinity', '-1', '0', '1.5', '1e3', '0x10', '2147483648', '99999999999999999999', 'true',
  '__proto__', 'constructor', 'data:', 'javascript:alert(1)', '//evil.example/x.mp4', 'http://169.254.169.254/latest/meta-data',
];

const hostileString = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_STRINGS), weight: 6 },
  { arbitrary: fc.string({ maxLength: 40 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 3 },
  { arbitrary: fc.constantFrom('x'.repeat(100_000), '\u00e9'.repeat(60_000), '\u0000'.repeat(5_000), '\u{1F600}'.repeat(20_000)), weight: 1 },
);
const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, -0, 0.5, 1.5, 2 ** 31, 2 ** 31 - 1, 2 ** 53 + 1, Number.MAX_VALUE, Number.MIN_VALUE, 1e308),
);
/** Any JSON value, with prototype-polluting keys among the object keys. */
const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileString, weight: 5 },
  { arbitrary: hostileNumber, weight: 3 },
  { arbitrary: fc.constantFrom(true, false, null), weight: 2 },
  { arbitrary: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }), weight: 1 },
  { arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...POLLUTION_KEYS), fc.string({ maxLength: 8 })), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }), weight: 1 },
);

const MIMES = ['image/jpeg', 'image/png', 'image/gif', 'image/svg+xml', 'video/mp4', 'video/webm', 'audio/webm', 'audio/wav', 'text/html', 'application/zip', 'application/octet-stream', ''];

function bytesArb(mediaNames: readonly MediaName[]): fc.Arbitrary<Bytes> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...mediaNames).map((media) => ({ media })), weight: 4 },
    { arbitrary: fc.uint8Array({ maxLength: 512 }).map((random) => ({ random })), weight: 1 },
  );
}

function dataUrlArb(mediaNames: readonly MediaName[]): fc.Arbitrary<DataUrlSpec> {
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant('base64' as const),
        mime: fc.constantFrom(...MIMES),
        params: fc.oneof({ arbitrary: fc.constant(''), weight: 4 }, { arbitrary: fc.constantFrom(';charset=utf-8', ';codecs=opus', ';size=99999999999', ';name=../../x.jpg', `;${'p'.repeat(600)}`), weight: 1 }),
        bytes: bytesArb(mediaNames),
        damage: fc.oneof({ arbitrary: fc.constant('none' as const), weight: 6 }, { arbitrary: fc.constantFrom('badCharacters', 'noPadding', 'spaces', 'urlSafe'), weight: 2 }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('oversize' as const), mime: fc.constantFrom(...MIMES) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('text' as const),
        text: fc.oneof(
          fc.constantFrom('data:', 'data:,', 'data:image/jpeg;base64,', 'data:image/jpeg,%FF%D8%FF', 'data:;base64,====', 'DATA:IMAGE/JPEG;BASE64,/9j/', 'data:image/jpeg;base64', `data:image/jpeg;base64,${'/'.repeat(4)}`),
          hostileString,
        ),
      }),
    },
  );
}

const CONTENT_TYPES = [
  'application/json; charset=utf-8', 'application/json; charset=latin1',
  'APPLICATION/JSON', 'application/vnd.api+json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data',
  'multipart/form-data; boundary=nothing-here', 'application/octet-stream', 'application/xml', 'image/jpeg',
];

const MALFORMED_JSON = [
  '{', '}', '{"a":', '[1,2', '{"a":1,}', "{'a':1}", '{"a":1}garbage', '{"__proto__":{"role":"admin"}}', '{"constructor":{"prototype":{"role":"admin"}}}',
  'null', '42', '"text"', '[]', 'true', '\u0000', '{"a":"\\ud800"}', '{"a":"\\u0000"}', '\uFEFF{"a":1}', `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `{"a":${'9'.repeat(400)}}`, '{"personId":1,"personId":"x"}',
];

const FILE_FIELDS = ['video', 'thumbnail', 'image', 'audio', 'file', '__proto__', ''];
const FILENAMES = ['clip.mp4', 'photo.jpg', 'voice.wav', 'own.webm', '../../../etc/passwd', 'a\u0000.jpg', '', 'x'.repeat(300), 'photo.jpg.exe', '"quoted".mp4', '\u202Egpj.mp4'];

function requestArb(paramCount: number, ids: string[], mediaNames: readonly MediaName[]): fc.Arbitrary<HostileRequest> {
  const value = (name: string): fc.Arbitrary<Value> =>
    fc.oneof(
      { arbitrary: fc.constant({ valid: true as const }), weight: 5 },
      { arbitrary: hostileJson.map((hostile) => ({ hostile })), weight: 3 },
      { arbitrary: dataUrlArb(mediaNames).map((spec) => ({ dataUrl: spec })), weight: DATA_FIELDS.has(name) ? 6 : 1 },
    );
  const spoiled = fc.oneof(
    { arbitrary: hostileJson.map((hostile): Value => ({ hostile })), weight: 4 },
    { arbitrary: dataUrlArb(mediaNames).map((spec): Value => ({ dataUrl: spec })), weight: 1 },
  );
  /**
   * A careful client's form with one or two fields gone wrong and a file (a data URL of one of the media
   * files, mostly): it gets past validation to the media checks and the database.
   */
  const carefulFields = (names: readonly string[]) =>
    fc
      .record({
        spoiledAt: fc.uniqueArray(fc.nat(names.length - 1), { maxLength: 2 }),
        spoil: fc.array(spoiled, { minLength: 2, maxLength: 2 }),
        media: fc.oneof({ arbitrary: dataUrlArb(mediaNames).map((spec): Value => ({ dataUrl: spec })), weight: 4 }, { arbitrary: fc.constant<Value>({ valid: true }), weight: 1 }),
      })
      .map(({ spoiledAt, spoil, media }): Field[] => [
        ...names.map((name, index): Field => [name, spoiledAt.includes(index) ? spoil[spoiledAt.indexOf(index)]! : { valid: true }]),
        // The same file in each media field (imageData, videoData, audioData): the route reads its own.
        ...[...DATA_FIELDS].map((name): Field => [name, media]),
      ]);
  /** Anything: each real field kept with its own chance (a sparse body, or nearly all of them), valid or not, and unknown keys. */
  const anyFields = fc
    .tuple(
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.tuple(...FIELD_NAMES.map((name) => fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), value(name)))),
      fc.array(fc.tuple(fc.oneof(fc.constantFrom(...POLLUTION_KEYS), fc.string({ maxLength: 12 })), hostileJson.map((hostile) => ({ hostile }) as Value)), { maxLength: 3 }),
    )
    .map(([density, chosen, extra]): Field[] => [
      ...FIELD_NAMES.flatMap((name, index) => (chosen[index]![0] < density ? [[name, chosen[index]![1]] as Field] : [])),
      ...extra,
    ]);
  const jsonFields = fc.oneof({ arbitrary: carefulFields(FIELD_NAMES.filter((name) => !DATA_FIELDS.has(name))), weight: 4 }, { arbitrary: anyFields, weight: 1 });
  // A form stays within the server's 20 fields: the text fields the upload forms have.
  const formFields = fc.oneof({ arbitrary: carefulFields(FORM_FIELD_NAMES), weight: 4 }, { arbitrary: anyFields, weight: 1 });
  const contentType = fc.oneof({ arbitrary: fc.constant('application/json'), weight: 3 }, { arbitrary: fc.constantFrom(...CONTENT_TYPES), weight: 2 });
  const file: fc.Arbitrary<FilePart> = fc.record({
    field: fc.oneof({ arbitrary: fc.constant('video'), weight: 6 }, { arbitrary: fc.constantFrom(...FILE_FIELDS), weight: 2 }),
    filename: fc.constantFrom(...FILENAMES),
    type: fc.constantFrom(...MIMES),
    bytes: bytesArb(mediaNames),
  });
  const body: fc.Arbitrary<Body> = fc.oneof(
    { weight: 5, arbitrary: fc.record({ kind: fc.constant('json' as const), fields: jsonFields, contentType }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('text' as const),
        text: fc.oneof(fc.constantFrom(...MALFORMED_JSON), fc.string({ maxLength: 60 }), fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null')),
        contentType,
      }),
    },
    {
      weight: 5,
      arbitrary: fc.record({
        kind: fc.constant('multipart' as const),
        fields: formFields,
        files: fc.oneof({ arbitrary: fc.array(file, { minLength: 1, maxLength: 1 }), weight: 4 }, { arbitrary: fc.array(file, { maxLength: 3 }), weight: 2 }),
        filesFirst: fc.boolean(),
        damage: fc.oneof(
          { arbitrary: fc.constant<MultipartDamage>('none'), weight: 3 },
          { arbitrary: fc.constantFrom<MultipartDamage>('truncated', 'noBoundary', 'otherBoundary', 'bareNewlines', 'partWithoutHeaders'), weight: 1 },
        ),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('none' as const), contentType: fc.option(contentType, { nil: undefined }) }) },
  );
  const id = fc.oneof(
    { arbitrary: fc.constantFrom(...ids), weight: 3 },
    { arbitrary: fc.constantFrom('-1', '0', '1.5', '1e3', '0x10', 'abc', '..', '..%2F..%2Fdb', '%2e%2e', '%00', '%20', '+1', '01', '2147483648', '99999999999999999999', 'NaN', '__proto__', 'constructor', '%ZZ', '1%3BDROP%20TABLE%20users', '%F0%9F%98%80', "1'"), weight: 3 },
    { arbitrary: fc.oneof(fc.integer(), fc.double()).map(String), weight: 1 },
    { arbitrary: fc.string({ maxLength: 12 }).map(encodeURIComponent), weight: 1 },
  );
  const query = fc.oneof(
    { arbitrary: fc.constant(''), weight: 5 },
    {
      arbitrary: fc.constantFrom('?', '?a=1&a=2', '?__proto__[role]=admin', '?constructor[prototype][role]=admin', '?userId=1&role=admin', '?id=..%2F..%2Fdb', '?%ZZ=%ZZ', '?x=%00', `?${'a=1&'.repeat(2000)}`, '?personId[]=1&personId[]=2'),
      weight: 2,
    },
    { arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 16 }), { maxKeys: 4 }).map((q) => `?${new URLSearchParams(q)}`), weight: 1 },
  );
  return fc.record({ params: fc.array(id, { minLength: paramCount, maxLength: paramCount }), query, body });
}

// ---- from a description to a request -------------------------------------------------------------------

function base64Of(bytes: Buffer, damage: Extract<DataUrlSpec, { kind: 'base64' }>['damage']): string {
  const text = bytes.toString('base64');
  switch (damage) {
    case 'none':
      return text;
    case 'badCharacters':
      return `${text.slice(0, 8)}!*~${text.slice(8)}`;
    case 'noPadding':
      return text.replace(/=+$/, '') + (text.endsWith('=') ? '' : 'A');
    case 'spaces':
      return text.replace(/(.{76})/g, '$1\n ');
    case 'urlSafe':
      return bytes.toString('base64url');
  }
}

describe.each(databases)('hostile input to every write route on $name', (testDatabase) => {
  let t: TestApp;
  let w: World;
  let media: Media;
  let spareTemplateId: number;
  let counter = 0;

  beforeAll(async () => {
    t = await createTestApp(testDatabase);
    w = await buildWorld(t);
    media = buildMedia();
    // The templates' narration is known, as after an upload: a voice swap does not analyse and store it first.
    await t.database.db.update(videoTemplates).set({ narration: { pitchMedianHz: 180, voicedSeconds: 2 } });
    spareTemplateId = (await w.spare.template()).id;
  }, 300_000);
  afterAll(() => t?.close());

  const bytesOf = (bytes: Bytes) => ('media' in bytes ? media[bytes.media] : Buffer.from(bytes.random));

  function dataUrlOf(spec: DataUrlSpec): string {
    if (spec.kind === 'text') return spec.text;
    if (spec.kind === 'oversize') return `data:${spec.mime};base64,${'A'.repeat(7_000_004)}`;
    return `data:${spec.mime}${spec.params};base64,${base64Of(bytesOf(spec.bytes), spec.damage)}`;
  }

  /** What a careful client sends in each field, for this world (each run its own account name). */
  function validValue(name: string, n: number): unknown {
    const account = `hostile_${n}`;
    const values: Record<string, unknown> = {
      username: account,
      email: `${account}@example.com`,
      password: 'correct horse battery',
      displayName: 'Hostile Tester',
      userId: w.owner.id,
      personId: w.owner.personId,
      name: 'Grandma Rose',
      relationship: 'Grandmother',
      imageData: dataUrl(media.photo, 'image/jpeg'),
      videoData: dataUrl(media.mp4, 'video/mp4'),
      audioData: dataUrl(media.wav, 'audio/wav'),
      // A streamed upload's URL, a template's, or none (then a face video is sent inline).
      videoUrl: [w.owner.pendingUploadUrl, '/videos/counting.mp4', undefined][n % 3],
      isDefault: n % 2 === 0,
      expressionType: 'neutral',
      type: 'natural',
      duration: 30,
      title: 'Counting with Maya',
      description: 'Count from one to ten.',
      templateId: w.freeTemplate.id,
      faceImageId: w.owner.faceImage.id,
      voiceRecordingId: w.owner.voice.id,
      useFaceSwap: true,
      useVoiceSwap: n % 2 === 0,
      purpose: 'download',
      // Never a change that would lock the suite out: the owner stays on Premium, the admin stays the only admin.
      role: 'user',
      plan: 'premium',
      subscriptionStatus: 'active',
      category: 'education',
      ageRange: '3-5',
      featured: false,
      isPremium: false,
      voiceOnly: false,
      price: 2.99,
      thumbnailUrl: '/images/counting.jpg',
    };
    return name in values ? values[name] : null;
  }

  function valueOf(name: string, value: Value, n: number): unknown {
    if ('valid' in value) return validValue(name, n);
    if ('dataUrl' in value) return dataUrlOf(value.dataUrl);
    return value.hostile;
  }

  /** JSON text written key by key, so `__proto__` and `constructor` are sent as keys. */
  const resolved = (fields: Field[], n: number) =>
    fields.flatMap(([name, value]) => {
      const resolvedValue = valueOf(name, value, n);
      return resolvedValue === undefined ? [] : [[name, resolvedValue] as const];
    });
  const jsonText = (fields: Field[], n: number) =>
    `{${resolved(fields, n).map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value) ?? 'null'}`).join(',')}}`;

  const fieldText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

  async function multipartBody(body: Extract<Body, { kind: 'multipart' }>, n: number): Promise<{ payload: Buffer; headers: Record<string, string> }> {
    const fields = resolved(body.fields, n).map(([name, value]) => ({ name, value: fieldText(value) }));
    const files = body.files.map((file) => ({ name: file.field, filename: file.filename, type: file.type, content: bytesOf(file.bytes) }));
    const built = multipart(body.filesFirst ? [...files, ...fields] : [...fields, ...files]);
    let payload = Buffer.concat(await built.payload.toArray());
    let contentType = built.headers['content-type'];
    const boundary = contentType.split('boundary=')[1]!;
    switch (body.damage) {
      case 'truncated':
        payload = payload.subarray(0, Math.floor(payload.length * 0.6));
        break;
      case 'noBoundary':
        contentType = 'multipart/form-data';
        break;
      case 'otherBoundary':
        contentType = 'multipart/form-data; boundary=----not-the-one-used';
        break;
      case 'bareNewlines':
        payload = Buffer.from(payload.toString('latin1').replaceAll('\r\n', '\n'), 'latin1');
        break;
      case 'partWithoutHeaders':
        payload = Buffer.concat([Buffer.from(`--${boundary}\r\n\r\nno headers here\r\n`), payload]);
        break;
    }
    return { payload, headers: { 'content-type': contentType } };
  }

  async function send(client: TestClient, method: string, url: string, body: Body, n: number): Promise<LightMyRequestResponse> {
    switch (body.kind) {
      case 'json':
        return client.request(method, url, Buffer.from(jsonText(body.fields, n)), { 'content-type': body.contentType });
      case 'text':
        return client.request(method, url, Buffer.from(body.text), { 'content-type': body.contentType });
      case 'multipart': {
        const { payload, headers } = await multipartBody(body, n);
        return client.request(method, url, payload, headers);
      }
      case 'none':
        return client.request(method, url, undefined, body.contentType === undefined ? {} : { 'content-type': body.contentType });
    }
  }

  /** The ids a route's `:param` is tried with besides hostile ones: rows of the caller's (never to delete) and of another parent's. */
  function idsFor(method: string, url: string): string[] {
    const kind = url.split('/').reverse().find((segment) => segment !== '' && !segment.startsWith(':') && !['role', 'plan', 'subscription', 'setDefault', 'retry', 'link'].includes(segment));
    const rows: Record<string, { own: number[]; foreign: number[] }> = {
      people: { own: [w.owner.personId], foreign: [w.other.personId] },
      faceImages: { own: [w.owner.faceImage.id], foreign: [w.other.faceImage.id] },
      faceVideos: { own: [w.owner.faceVideo.id], foreign: [w.other.faceVideo.id] },
      voiceRecordings: { own: [w.owner.voice.id], foreign: [w.other.voice.id] },
      processedVideos: { own: [w.owner.video.id], foreign: [w.other.video.id] },
      users: url.startsWith('/api/admin/') ? { own: [w.owner.id, w.other.id, w.admin.id], foreign: [] } : { own: [w.owner.id], foreign: [w.other.id, w.admin.id] },
      videoTemplates: { own: [spareTemplateId], foreign: [] },
    };
    const { own, foreign } = rows[kind ?? ''] ?? { own: [], foreign: [] };
    return [...(method === 'DELETE' ? [] : own), ...foreign, MISSING, 2_147_483_647].map(String);
  }

  /** What World.snapshot() returns: every row of the product's tables, stored files, temporary files. */
  type Snapshot = { rows: unknown[]; files: string[]; tmp: string[] };
  const snapshotNow = async () => (await w.snapshot()) as Snapshot;

  /** Every stored file's name that a row points at (a URL in any column of any table). */
  function referencedFiles(rows: unknown): Set<string> {
    const names = new Set<string>();
    JSON.stringify(rows, (_key, value: unknown) => {
      if (typeof value === 'string' && value.startsWith('/api/media/')) names.add(path.basename(value.split('?')[0]!));
      return value;
    });
    return names;
  }

  function expectNothingLeft(snapshot: Snapshot, label: string) {
    // The snapshot's temporary files (DATA_DIR/tmp): each process's folder, empty between requests.
    expect(snapshot.tmp, `${label}: a temporary file is left`).toEqual([]);
    const referenced = referencedFiles(snapshot.rows);
    const orphans = snapshot.files.filter((file) => !referenced.has(path.basename(file)));
    expect(orphans, `${label}: stored files no row points at`).toEqual([]);
  }

  it('sends hostile requests to every write route: never a 5xx, refusals are { message }, nothing left behind', async () => {
    const routes = t.app.routeTable.filter((route) => WRITE_METHODS.has(route.method));
    expect(routes.length).toBeGreaterThan(20);
    let snapshot = await snapshotNow();
    expectNothingLeft(snapshot, 'before any request');
    const statuses = new Map<string, Map<number, number>>();

    for (const [index, route] of routes.entries()) {
      const label = `${route.method} ${route.url}`;
      const paramCount = route.url.split('/').filter((segment) => segment.startsWith(':')).length;
      const fill = (params: string[]) => {
        let i = 0;
        return route.url.replace(/:[A-Za-z]+/g, () => params[i++] ?? String(MISSING));
      };
      // A route that answers a visitor (sign-in, registration, sign-out) is tried as one, a new one each
      // time: its own session changes, never the parents'. The admin's routes as the admin, the rest as a parent.
      const probe = await t.client().request(route.method, fill([String(MISSING)]), Buffer.from('{}'), { 'content-type': 'application/json' });
      const client = () => (probe.statusCode !== 401 ? t.client() : route.url.startsWith('/api/admin/') ? w.admin.client : w.owner.client);
      const seen = new Map<number, number>();
      statuses.set(label, seen);

      await fc.assert(
        fc.asyncProperty(requestArb(paramCount, idsFor(route.method, route.url), Object.keys(media) as MediaName[]), async (request) => {
          const n = ++counter;
          const url = `${fill(request.params)}${request.query}`;
          const response = await send(client(), route.method, url, request.body, n);
          const what = `${label} as ${url} → ${response.statusCode} ${response.body.slice(0, 300)}`;
          seen.set(response.statusCode, (seen.get(response.statusCode) ?? 0) + 1);
          // Payments are not configured on this app: their routes say so (503) before reading anything.
          const notConfigured = response.statusCode === 503 && json<{ message?: unknown }>(response).message === PAYMENT_MESSAGES.notConfigured;
          if (!notConfigured) expect(response.statusCode, what).toBeLessThan(500);
          if (response.statusCode >= 400) {
            expect(response.headers['content-type'], what).toMatch(/^application\/json/);
            const { message } = json<{ message?: unknown }>(response);
            expect(typeof message === 'string' && message.trim().length > 0, what).toBe(true);
          }
          const after = await snapshotNow();
          expectNothingLeft(after, what);
          // A refusal changed nothing: no row, no stored file.
          if (response.statusCode >= 300) expect(after, what).toEqual(snapshot);
          snapshot = after;
        }),
        { seed: SEED + index, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
      );
    }
    // What was answered, route by route (shows how far the runs reached), when exploring by hand.
    if (process.env.HOSTILE_SEED || process.env.HOSTILE_RUNS) console.log([...statuses].map(([label, seen]) => `${label}: ${[...seen].sort(([a], [b]) => a - b).map(([status, times]) => `${status}×${times}`).join(' ')}`).join('\n'));
  }, 1_200_000);

  // What the runs above found, kept as plain examples (decision 015, Hostile input).
  it('answers 400 to a form cut off inside a large file (it was a 500), and keeps no part of the file', async () => {
    const uploads: [string, TestClient][] = [
      ['/api/upload/video', w.owner.client],
      ['/api/upload/voice-only-video', w.owner.client],
      ['/api/admin/videoTemplates/upload', w.admin.client],
    ];
    for (const [url, client] of uploads) {
      const before = await snapshotNow();
      // Busboy fails the file's own stream ("Part terminated early ..."), which the route is writing to disk.
      const form = multipart([
        { name: 'personId', value: String(w.owner.personId) },
        { name: 'title', value: 'Counting with Maya' },
        { name: 'video', filename: 'clip.mp4', type: 'video/mp4', content: media.wav },
      ]);
      const whole = Buffer.concat(await form.payload.toArray());
      const response = await client.request('POST', url, whole.subarray(0, Math.floor(whole.length * 0.6)), form.headers);
      expect([response.statusCode, json(response).message], url).toEqual([400, MESSAGES.malformedUpload]);
      // Nothing left behind (a file still being closed when the answer left may take a moment to go).
      await until(snapshotNow, (now) => JSON.stringify(now) === JSON.stringify(before), 2000, 50).catch(() => undefined);
      expect(await snapshotNow(), url).toEqual(before);
    }
  });

  it('is still healthy: the health check, and a parent who reads and saves', async () => {
    const health = await t.client().get('/api/health');
    expect(health.statusCode).toBe(200);
    expect(json(health)).toEqual({ ok: true });
    const person = await w.owner.client.get(`/api/people/${w.owner.personId}`);
    expect(person.statusCode, person.body).toBe(200);
    const renamed = await w.owner.client.patch(`/api/people/${w.owner.personId}`, { name: 'After the storm' });
    expect(renamed.statusCode, renamed.body).toBe(200);
  });
});
