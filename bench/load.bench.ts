// Issue 19 §2: 200 signed-in parents browsing at once while one real video renders, on the loopback.
// Two setups: the embedded database (one process, as `npm start` runs it), and PostgreSQL (when a server
// answers; a fresh database, dropped after) with two web processes and one worker process, the parents
// alternating between the two web ports. Goal: p99 < 300 ms, no errors, the render completes.
//
// Setup, all through the real API unless said otherwise:
// - the demo templates are made by the server itself at its first start (as on a fresh install);
// - an admin (the first account), then 200 parents through the real sign-up route, 8 at a time (scrypt
//   costs ~140 ms and 64 MiB per hash, so more at once only queues in libuv's threads). Each parent
//   connects from its own loopback address (127.1.x.y) like 200 households: sign-ups are limited per address;
// - each parent: a person, consent (`self`), a face photo (face-api's demo photos, analysed by the
//   server before it is kept) and a voice recording (five of ALSA's spoken test words joined, ~7 s;
//   analysed by a background job, waited for before the load);
// - one real render of a demo template with parent #1's person, on the otherwise idle server: the
//   baseline fps, and the saved video every parent has. It is not rendered 200 times: its files are
//   hard-linked into each other parent's storage and a completed row written for each, straight into the
//   database (with the web process stopped, for PGlite), just as the render job's `keep` writes one.
//
// The load: each parent loops over page views picked at random (weights in ACTIONS: the library, their
// people with their media, saved videos, watching one, the progress page of a finished video), each
// view making the requests the client makes, a view's independent requests in parallel (a browser's
// keep-alive connections, at most 4 per parent); then a think time, uniform in 0..2×BENCH_THINK_MS (1000
// ms: a parent clicking every second or so, several times a real browsing pace). Media go with
// `Range: bytes=0-65535` (a player's first request) or a seek. Meanwhile parent #0 starts a render and
// follows its progress stream (SSE) until it ends. The load lasts BENCH_DURATION_S (30 s) and at least
// until that render ends, at most MAX_LOAD_S. Every request's time is its whole answer, body included;
// an error is any status but 200/206 (all of these GETs answer one of the two), or a failed connection.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { link, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FaceImage, Person, ProcessedVideo, VideoTemplate, VoiceRecording } from '../src/shared/api-types';
import { openDatabase } from '../src/server/db/open';
import { processedVideos } from '../src/server/db/schema';
import { ffmpegBinary, runFfprobe } from '../src/server/media/ffmpeg';
import { createStorage } from '../src/server/storage/storage';
import { freePort } from '../e2e/harness';
import { freshPostgres } from './lib';

const PARENTS = Number(process.env.BENCH_PARENTS ?? 200);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 30);
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 1000);
/** The load ends by then even when the render has not. */
const MAX_LOAD_S = 300;
const SETUP_CONCURRENCY = 8;
const GOAL_P99_MS = 300;
const RENDER_TEMPLATE = 'Counting to Five';
const PASSWORD = 'a good long password';

const FACE_PHOTOS = ['sample2.jpg', 'sample3.jpg', 'sample4.jpg', 'sample5.jpg'].map((name) =>
  path.join(path.dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')), 'demo', name),
);
/** ALSA's spoken channel names (Noise.wav is not a voice). */
const ALSA_DIR = '/usr/share/sounds/alsa';

// --- processes ---------------------------------------------------------------------------------------

interface Proc {
  pid: number;
  port?: number;
  stop(): Promise<void>;
}

/** A built server script (dist/server/…) on `dataDir`; a web process is waited for until /api/health answers. */
async function startProcess(script: 'main' | 'worker', dataDir: string, env: Record<string, string>): Promise<Proc> {
  const port = script === 'main' ? await freePort() : undefined;
  // BENCH_SERVER_NODE_ARGS: extra node options for the servers, e.g. `--cpu-prof --cpu-prof-dir=…` to profile them.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, `dist/server/${script}.js`], {
    env: { ...process.env, PORT: String(port ?? 0), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: process.env.BENCH_SERVER_LOG_LEVEL ?? 'warn', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  while (port !== undefined) {
    if (child.exitCode !== null) throw new Error(`${script} exited with code ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then((response) => response.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`${script} did not start within 60 s`);
    await sleep(200);
  }
  return {
    pid: child.pid!,
    port,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(15_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** CPU seconds (user + system) of a process and its waited-for children, from /proc. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime, stime, cutime, cstime are fields 14-17 (1-based); here after the ') ' split, 12-15 (1-based).
    return [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0) / 100;
  } catch {
    return 0;
  }
}

/** The whole machine's busy and total clock ticks so far (from /proc/stat). */
function machineTicks(): { busy: number; total: number } {
  const values = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = values.reduce((sum, value) => sum + value, 0);
  return { busy: total - values[3]! - values[4]!, total };
}

/** Every process in the tree under `pid` (ffmpeg runs as a child of the render's process). */
async function descendants(pid: number): Promise<number[]> {
  const children: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (Number(fields[1]) === pid) children.push(Number(entry), ...(await descendants(Number(entry))));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

// --- HTTP as a parent's browser -------------------------------------------------------------------------

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

class Browser {
  cookie = '';
  private readonly agents = new Map<number, http.Agent>();
  constructor(
    readonly localAddress: string,
    /** The web processes' ports (new ones after a restart). */
    public ports: number[],
    /** Which of the web processes this parent uses. */
    readonly portIndex: number,
  ) {}

  private agent(port: number): http.Agent {
    let agent = this.agents.get(port);
    if (!agent) {
      // A browser keeps a few connections per host.
      agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
      this.agents.set(port, agent);
    }
    return agent;
  }

  get port(): number {
    return this.ports[this.portIndex % this.ports.length]!;
  }

  request(method: string, url: string, options: { json?: unknown; headers?: Record<string, string>; port?: number; onChunk?: (chunk: Buffer) => boolean | void } = {}): Promise<Answer> {
    const body = options.json === undefined ? undefined : Buffer.from(JSON.stringify(options.json));
    const port = options.port ?? this.port;
    return new Promise<Answer>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          path: url,
          method,
          localAddress: this.localAddress,
          agent: this.agent(port),
          headers: {
            ...(this.cookie ? { cookie: this.cookie } : {}),
            ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}),
            ...options.headers,
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => {
            if (options.onChunk?.(chunk) === true) response.destroy();
            else chunks.push(chunk);
          });
          response.on('error', reject);
          response.on('close', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
        },
      );
      request.on('error', reject);
      request.setTimeout(60_000, () => request.destroy(new Error('no answer within 60 s')));
      request.end(body);
    });
  }

  /** A JSON call that must answer `expected`. */
  async json<T>(method: string, url: string, json?: unknown, expected = method === 'POST' ? 201 : 200): Promise<T> {
    const answer = await this.request(method, url, { json });
    if (answer.status !== expected) throw new Error(`${method} ${url}: ${answer.status} ${answer.body.toString().slice(0, 300)}`);
    return JSON.parse(answer.body.toString()) as T;
  }

  close() {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}

// --- setup -------------------------------------------------------------------------------------------

interface Parent {
  index: number;
  browser: Browser;
  userId: number;
  person: Person;
  face: FaceImage;
  voice: VoiceRecording;
  video?: ProcessedVideo;
}

const dataUrl = (buffer: Buffer, mime: string) => `data:${mime};base64,${buffer.toString('base64')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `work` over `items`, `limit` at a time. */
async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}

/** Eight ~7 s recordings (5 s at least are asked for), each five of ALSA's spoken words joined: a real voice, varied per parent. */
async function makeVoices(dir: string): Promise<Buffer[]> {
  const words = (await readdir(ALSA_DIR)).filter((name) => name.endsWith('.wav') && name !== 'Noise.wav').sort();
  if (words.length < 5) throw new Error(`${ALSA_DIR} has too few spoken test sounds`);
  const voices: Buffer[] = [];
  for (let index = 0; index < 8; index++) {
    const picked = [0, 1, 2, 3, 4].map((offset) => path.join(ALSA_DIR, words[(index + offset) % words.length]!));
    const output = path.join(dir, `voice-${index}.wav`);
    await new Promise<void>((resolve, reject) => {
      const child = spawn(ffmpegBinary(), ['-v', 'error', '-y', ...picked.flatMap((file) => ['-i', file]), '-filter_complex', `${picked.map((_, input) => `[${input}:a]`).join('')}concat=n=${picked.length}:v=0:a=1`, output]);
      child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited with ${code}`))));
    });
    voices.push(await readFile(output));
  }
  return voices;
}

async function signUp(browser: Browser, username: string): Promise<number> {
  const answer = await browser.request('POST', '/api/register', {
    json: { username, email: `${username}@example.com`, password: PASSWORD, displayName: `Parent ${username}` },
  });
  if (answer.status !== 201) throw new Error(`register ${username}: ${answer.status} ${answer.body.toString().slice(0, 300)}`);
  const cookies = answer.headers['set-cookie'] ?? [];
  browser.cookie = cookies.map((cookie) => cookie.split(';')[0]).join('; ');
  return (JSON.parse(answer.body.toString()) as { id: number }).id;
}

/** Address of parent `index`: one household each, none of them 127.0.0.1 (the admin's). */
const parentAddress = (index: number) => `127.1.${Math.floor(index / 250)}.${(index % 250) + 1}`;

async function setUpParent(index: number, ports: number[], photos: Buffer[], voices: Buffer[], tag: string): Promise<Parent> {
  const browser = new Browser(parentAddress(index), ports, index);
  const userId = await signUp(browser, `load_${tag}_${index}`);
  const person = await browser.json<Person>('POST', '/api/people', { name: `Grandma ${index}`, relationship: 'Grandmother' });
  await browser.json('POST', `/api/people/${person.id}/consent`, { basis: 'self' });
  const face = await browser.json<FaceImage>('POST', '/api/faceImages', {
    personId: person.id,
    name: 'Smiling',
    imageData: dataUrl(photos[index % photos.length]!, 'image/jpeg'),
  });
  const voice = await browser.json<VoiceRecording>('POST', '/api/voiceRecordings', {
    personId: person.id,
    name: 'Hello',
    audioData: dataUrl(voices[index % voices.length]!, 'audio/wav'),
  });
  return { index, browser, userId, person, face, voice };
}

async function waitFor<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(1000);
  }
}

/** Frames in a stored video (counted packets of its picture). */
async function frameCount(file: string): Promise<number> {
  const { stdout } = await runFfprobe(['-v', 'error', '-select_streams', 'v:0', '-count_packets', '-show_entries', 'stream=nb_read_packets', '-of', 'csv=p=0', file], {
    timeoutMs: 60_000,
  });
  return Number(stdout.trim());
}

interface RenderFigures {
  status: string;
  frames?: number;
  /** startedAt → completedAt, as the render job wrote them. */
  renderSeconds?: number;
  fps?: number;
  /** createdAt → startedAt: time in the queue. */
  queuedSeconds?: number;
  error?: string | null;
}

async function renderFigures(dataDir: string, video: ProcessedVideo): Promise<RenderFigures> {
  if (video.status !== 'completed') return { status: video.status, error: video.error };
  const file = createStorage(dataDir).fromUrl(video.videoUrl);
  const frames = await frameCount(file!.path);
  const renderSeconds = (Date.parse(video.completedAt!) - Date.parse(video.startedAt!)) / 1000;
  return {
    status: video.status,
    frames,
    renderSeconds: round(renderSeconds, 1),
    fps: round(frames / renderSeconds, 1),
    queuedSeconds: round((Date.parse(video.startedAt!) - Date.parse(video.createdAt)) / 1000, 1),
  };
}

const round = (value: number, digits = 0) => Number(value.toFixed(digits));

/**
 * Every parent but the source gets a completed video: the source's files hard-linked into their own
 * storage (the media route serves a video to its owner only) and the row the render job would write.
 */
async function copySavedVideos(config: { dataDir: string; databaseUrl: string | undefined }, source: ProcessedVideo, parents: Parent[]) {
  const database = await openDatabase(config);
  const storage = createStorage(config.dataDir);
  try {
    for (const parent of parents) {
      if (parent.userId === source.userId) continue;
      const moved = [];
      for (const url of [source.videoUrl, source.thumbnailUrl]) {
        const temp = await storage.tempPath();
        await link(storage.fromUrl(url)!.path, temp);
        moved.push(await storage.moveIn(temp, 'processed-videos', parent.userId, url!.endsWith('.jpg') ? 'jpg' : 'mp4'));
      }
      await database.db.insert(processedVideos).values({
        userId: parent.userId,
        templateId: source.templateId,
        personId: parent.person.id,
        title: source.title,
        faceImageId: parent.face.id,
        voiceRecordingId: parent.voice.id,
        status: 'completed',
        videoUrl: moved[0]!.url,
        outputUrl: moved[0]!.url,
        thumbnailUrl: moved[1]!.url,
        faceProgress: 100,
        voiceProgress: 100,
        startedAt: new Date(source.startedAt!),
        completedAt: new Date(source.completedAt!),
      });
    }
  } finally {
    await storage.removeOwnTemp();
    await database.close();
  }
}

// --- the load ----------------------------------------------------------------------------------------

type Kind =
  | 'library'
  | 'template thumbnail'
  | 'people'
  | 'faces list'
  | 'voices list'
  | 'face image (Range)'
  | 'voice recording (Range)'
  | 'saved videos'
  | 'video thumbnail'
  | 'video (Range)'
  | 'progress stream, finished video'
  | 'progress stream in flight: first event';

class Recorder {
  readonly times = new Map<Kind, number[]>();
  readonly errors = new Map<string, number>();
  recording = false;

  add(kind: Kind, ms: number, status: number | string) {
    if (!this.recording) return;
    let list = this.times.get(kind);
    if (!list) this.times.set(kind, (list = []));
    list.push(ms);
    if (typeof status === 'string' || (status !== 200 && status !== 206)) {
      const key = `${kind}: ${status}`;
      this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
    }
  }
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return { requests: sorted.length, p50Ms: round(percentile(sorted, 50), 1), p99Ms: round(percentile(sorted, 99), 1), maxMs: round(sorted.at(-1) ?? 0, 1) };
}

/** One request, timed to the end of its body, recorded under `kind`. */
async function timed(recorder: Recorder, kind: Kind, browser: Browser, url: string, headers?: Record<string, string>): Promise<Answer | undefined> {
  const started = performance.now();
  try {
    const answer = await browser.request('GET', url, { headers });
    recorder.add(kind, performance.now() - started, answer.status);
    return answer;
  } catch (error) {
    recorder.add(kind, performance.now() - started, (error as NodeJS.ErrnoException).code ?? (error as Error).message);
    return undefined;
  }
}

const RANGE_FIRST = { range: 'bytes=0-65535' };
const GZIP = { 'accept-encoding': 'gzip, deflate, br' };

interface Library {
  templates: VideoTemplate[];
  videoSize: number;
}

/** The page views, each as the client makes its requests, with their weights. */
const ACTIONS: { weight: number; run(parent: Parent, recorder: Recorder, library: Library, seen: Set<number>): Promise<void> }[] = [
  {
    // The library: the list; template thumbnails (cached for an hour) the first time only.
    weight: 3,
    async run(parent, recorder, library, seen) {
      await timed(recorder, 'library', parent.browser, '/api/videoTemplates', GZIP);
      if (seen.has(parent.index)) return;
      seen.add(parent.index);
      await Promise.all(library.templates.map((template) => timed(recorder, 'template thumbnail', parent.browser, template.thumbnailUrl!)));
    },
  },
  {
    // People: the list, then the person's faces and voices, then the photo and the recording (never cached: no-store).
    weight: 3,
    async run(parent, recorder) {
      const { browser, person } = parent;
      await timed(recorder, 'people', browser, `/api/users/${parent.userId}/people`, GZIP);
      await Promise.all([
        timed(recorder, 'faces list', browser, `/api/people/${person.id}/faceImages`, GZIP),
        timed(recorder, 'voices list', browser, `/api/people/${person.id}/voiceRecordings`, GZIP),
      ]);
      await Promise.all([
        timed(recorder, 'face image (Range)', browser, parent.face.imageUrl, RANGE_FIRST),
        timed(recorder, 'voice recording (Range)', browser, parent.voice.audioUrl, RANGE_FIRST),
      ]);
    },
  },
  {
    // Saved videos: the list and the thumbnail.
    weight: 2,
    async run(parent, recorder) {
      await timed(recorder, 'saved videos', parent.browser, `/api/users/${parent.userId}/processedVideos`, GZIP);
      if (parent.video) await timed(recorder, 'video thumbnail', parent.browser, parent.video.thumbnailUrl!);
    },
  },
  {
    // Watching: the player's first range, then a seek.
    weight: 1,
    async run(parent, recorder, library) {
      if (!parent.video) return;
      await timed(recorder, 'video (Range)', parent.browser, parent.video.videoUrl!, RANGE_FIRST);
      const start = Math.floor(Math.random() * Math.max(1, library.videoSize - 65_536));
      await timed(recorder, 'video (Range)', parent.browser, parent.video.videoUrl!, { range: `bytes=${start}-${start + 65_535}` });
    },
  },
  {
    // The progress page of a finished video: its stream sends the row once and ends.
    weight: 1,
    async run(parent, recorder) {
      if (parent.video) await timed(recorder, 'progress stream, finished video', parent.browser, `/api/processedVideos/${parent.video.id}/events`);
    },
  },
];
const TOTAL_WEIGHT = ACTIONS.reduce((sum, action) => sum + action.weight, 0);

function pickAction() {
  let roll = Math.random() * TOTAL_WEIGHT;
  for (const action of ACTIONS) {
    roll -= action.weight;
    if (roll < 0) return action;
  }
  return ACTIONS[0]!;
}

interface LiveStream {
  events: number;
  firstEventMs?: number;
  lastStatus?: string;
  faceStageSeconds?: number;
  ended: boolean;
}

/** The render owner's progress stream, read until it ends (the server ends it at completed or failed). */
function followRender(parent: Parent, videoId: number, recorder: Recorder): { live: LiveStream; done: Promise<void> } {
  const live: LiveStream = { events: 0, ended: false };
  const started = performance.now();
  let faceStarted: number | undefined;
  let buffered = '';
  const done = parent.browser
    .request('GET', `/api/processedVideos/${videoId}/events`, {
      onChunk(chunk) {
        buffered += chunk.toString();
        let end;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const message = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const data = /^data: (.*)$/m.exec(message)?.[1];
          if (!data) continue;
          const row = JSON.parse(data) as ProcessedVideo;
          live.events++;
          if (live.firstEventMs === undefined) {
            live.firstEventMs = round(performance.now() - started, 1);
            recorder.add('progress stream in flight: first event', live.firstEventMs, 200);
          }
          if (row.faceProgress > 0 && faceStarted === undefined) faceStarted = performance.now();
          if (row.faceProgress === 100 && faceStarted !== undefined && live.faceStageSeconds === undefined) {
            live.faceStageSeconds = round((performance.now() - faceStarted) / 1000, 1);
          }
          live.lastStatus = row.status;
        }
      },
    })
    .then(
      (answer) => {
        if (answer.status !== 200) recorder.add('progress stream in flight: first event', performance.now() - started, answer.status);
        live.ended = true;
      },
      (error: unknown) => {
        recorder.add('progress stream in flight: first event', performance.now() - started, (error as Error).message);
        live.ended = true;
      },
    );
  return { live, done };
}

interface SetupResult {
  processes: { web: number; worker: number };
  parents: number;
  setupSeconds: number;
  loadSeconds: number;
  offeredThinkMs: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  errorKinds: Record<string, number>;
  warmUpErrors: Record<string, number>;
  perKind: Record<string, ReturnType<typeof summary>>;
  renderIdle: RenderFigures;
  renderUnderLoad: RenderFigures & { faceStageSeconds?: number; faceStageFps?: number; progressEvents: number; streamEnded: boolean };
  cpu: Record<string, string>;
  goal: { p99Under300Ms: boolean; noErrors: boolean; renderCompleted: boolean; met: boolean };
}

/** Drives one setup: `webs` are started web processes (all on `dataDir`), `workerPids` those of separate workers. */
async function runSetup(options: {
  dataDir: string;
  databaseUrl: string | undefined;
  start(): Promise<{ webs: Proc[]; workers: Proc[] }>;
  tag: string;
}): Promise<SetupResult> {
  const setupStarted = Date.now();
  const scratch = await mkdtemp(path.join(tmpdir(), 'familystar-bench-load-'));
  let running = await options.start();
  const browsers: Browser[] = [];
  try {
    const ports = () => running.webs.map((web) => web.port!);
    const photos = await Promise.all(FACE_PHOTOS.map((file) => readFile(file)));
    const voices = await makeVoices(scratch);

    const admin = new Browser('127.0.0.1', ports(), 0);
    browsers.push(admin);
    await signUp(admin, `load_${options.tag}_admin`);
    const parents = await pool(
      Array.from({ length: PARENTS }, (_, index) => index),
      SETUP_CONCURRENCY,
      async (index) => {
        const parent = await setUpParent(index, ports(), photos, voices, options.tag);
        if ((index + 1) % 50 === 0) console.log(`  parent ${index + 1} of ${PARENTS} set up after ${Math.round((Date.now() - setupStarted) / 1000)} s`);
        return parent;
      },
    );
    browsers.push(...parents.map((parent) => parent.browser));
    console.log(`  ${PARENTS} parents set up in ${Math.round((Date.now() - setupStarted) / 1000)} s`);

    // The demo templates (made by the server at its first start) and every voice analysed before the load.
    const templates = await waitFor('the demo templates', 600_000, async () => {
      const list = await admin.json<VideoTemplate[]>('GET', '/api/videoTemplates');
      return list.length >= 3 && list.every((template) => template.videoUrl) ? list : undefined;
    });
    const template = templates.find((candidate) => candidate.title === RENDER_TEMPLATE);
    if (!template) throw new Error(`no demo template called ${RENDER_TEMPLATE}`);
    await waitFor('the voice analyses', 600_000, async () => {
      const recordings = await pool(parents, 16, (parent) => parent.browser.json<VoiceRecording>('GET', `/api/voiceRecordings/${parent.voice.id}`));
      const unusable = recordings.find((recording) => recording.analysisError);
      if (unusable) throw new Error(`voice analysis failed: ${unusable.analysisError}`);
      return recordings.every((recording) => recording.analysis) ? true : undefined;
    });

    // One render on the otherwise idle server: the baseline, and the video every parent has saved.
    const makeVideo = (parent: Parent, title: string) =>
      parent.browser.json<ProcessedVideo>('POST', '/api/processedVideos', {
        userId: parent.userId,
        templateId: template.id,
        personId: parent.person.id,
        faceImageId: parent.face.id,
        voiceRecordingId: parent.voice.id,
        title,
      });
    const finished = (parent: Parent, id: number) =>
      waitFor('the render', MAX_LOAD_S * 1000, async () => {
        const video = await parent.browser.json<ProcessedVideo>('GET', `/api/processedVideos/${id}`);
        return video.status === 'completed' || video.status === 'failed' ? video : undefined;
      });
    const source = parents[1]!;
    const idleVideo = await finished(source, (await makeVideo(source, `Counting with Grandma ${source.index}`)).id);
    const renderIdle = await renderFigures(options.dataDir, idleVideo);
    if (idleVideo.status !== 'completed') throw new Error(`the first render failed: ${idleVideo.error}`);
    console.log(`  idle render: ${JSON.stringify(renderIdle)}`);

    // Its files and a row for every other parent, straight into the database (PGlite: with the server stopped).
    if (!options.databaseUrl) {
      await Promise.all([...running.webs, ...running.workers].map((proc) => proc.stop()));
      for (const browser of browsers) browser.close();
    }
    await copySavedVideos({ dataDir: options.dataDir, databaseUrl: options.databaseUrl }, idleVideo, parents);
    if (!options.databaseUrl) {
      running = await options.start();
      // The same parents (their sessions are in the database) on the new port.
      for (const browser of browsers) browser.ports = ports();
    }
    await pool(parents, 16, async (parent) => {
      const list = await parent.browser.json<ProcessedVideo[]>('GET', `/api/users/${parent.userId}/processedVideos`);
      parent.video = list.find((video) => video.status === 'completed');
      if (!parent.video) throw new Error(`parent ${parent.index} has no saved video`);
    });
    const videoSize = (await stat(createStorage(options.dataDir).fromUrl(idleVideo.videoUrl)!.path)).size;
    const library: Library = { templates, videoSize };
    const setupSeconds = Math.round((Date.now() - setupStarted) / 1000);

    // Warm-up, timed apart: each parent once through the library and their people.
    const warmUp = new Recorder();
    warmUp.recording = true;
    const seen = new Set<number>();
    await pool(parents, 50, async (parent) => {
      await ACTIONS[0]!.run(parent, warmUp, library, seen);
      await ACTIONS[1]!.run(parent, warmUp, library, seen);
    });
    const recorder = new Recorder();

    // The load, with parent #0's render in flight.
    const cpuPids = [...running.webs, ...running.workers].map((proc) => proc.pid);
    const cpuBefore = { own: process.cpuUsage(), procs: cpuPids.map(cpuSeconds), machine: machineTicks() };
    const renderOwner = parents[0]!;
    recorder.recording = true;
    const loadStarted = performance.now();
    const inFlight = await makeVideo(renderOwner, `Counting with Grandma ${renderOwner.index}, again`);
    const stream = followRender(renderOwner, inFlight.id, recorder);
    let stop = false;
    const elapsedS = () => (performance.now() - loadStarted) / 1000;
    const stopper = (async () => {
      while (elapsedS() < MAX_LOAD_S && !(elapsedS() >= DURATION_S && stream.live.ended)) await sleep(250);
      stop = true;
    })();
    // Render children (ffmpeg) come and go: their CPU is summed from samples.
    const childCpu = new Map<number, number>();
    const sampler = (async () => {
      while (!stop) {
        for (const pid of cpuPids) for (const child of await descendants(pid)) childCpu.set(child, cpuSeconds(child));
        await sleep(1000);
      }
    })();
    await Promise.all(
      parents.map(async (parent) => {
        // Spread the starts over one think time, as parents do not all click in the same millisecond.
        await sleep(Math.random() * 2 * THINK_MS);
        while (!stop) {
          await pickAction().run(parent, recorder, library, seen);
          await sleep(Math.random() * 2 * THINK_MS);
        }
      }),
    );
    const loadSeconds = elapsedS();
    recorder.recording = false;
    await Promise.all([stopper, sampler]);
    const own = process.cpuUsage(cpuBefore.own);
    const machine = machineTicks();
    const share = (seconds: number) => `${Math.round((seconds / loadSeconds) * 100)} % of a core`;
    const cpu: Record<string, string> = {
      machine: `${Math.round(((machine.busy - cpuBefore.machine.busy) / (machine.total - cpuBefore.machine.total)) * 100)} % of both cores busy (other helpers included)`,
      'load generator (this process)': share((own.user + own.system) / 1e6),
    };
    cpuPids.forEach((pid, index) => {
      const name = index < running.webs.length ? `web process ${index + 1}` : 'worker process';
      cpu[`${name} (render threads included where it renders)`] = share(cpuSeconds(pid) - cpuBefore.procs[index]!);
    });
    cpu['ffmpeg children (sampled, at least)'] = share([...childCpu.values()].reduce((sum, value) => sum + value, 0));

    // A render still running at MAX_LOAD_S is reported as it stands.
    await Promise.race([stream.done, sleep(2000)]);
    const rendered = await renderOwner.browser.json<ProcessedVideo>('GET', `/api/processedVideos/${inFlight.id}`);
    const underLoad = await renderFigures(options.dataDir, rendered);
    const renderUnderLoad = {
      ...underLoad,
      // The face stage alone (from the stream's first face progress to its 100 %, ±0.5 s: progress is written every 500 ms).
      faceStageSeconds: stream.live.faceStageSeconds,
      faceStageFps: underLoad.frames && stream.live.faceStageSeconds ? round(underLoad.frames / stream.live.faceStageSeconds, 1) : undefined,
      progressEvents: stream.live.events,
      streamEnded: stream.live.ended,
    };

    const all = [...recorder.times.entries()].filter(([kind]) => kind !== 'progress stream in flight: first event').flatMap(([, times]) => times);
    const overall = summary(all);
    const errors = [...recorder.errors.values()].reduce((sum, value) => sum + value, 0);
    const perKind = Object.fromEntries([...recorder.times.entries()].map(([kind, times]) => [kind, summary(times)]));
    const goal = { p99Under300Ms: overall.p99Ms < GOAL_P99_MS, noErrors: errors === 0, renderCompleted: rendered.status === 'completed' };
    return {
      processes: { web: running.webs.length, worker: running.workers.length },
      parents: PARENTS,
      setupSeconds,
      loadSeconds: round(loadSeconds, 1),
      offeredThinkMs: `uniform 0..${2 * THINK_MS} between page views`,
      requestsPerSecond: round(overall.requests / loadSeconds),
      p50Ms: overall.p50Ms,
      p99Ms: overall.p99Ms,
      errors,
      errorKinds: Object.fromEntries(recorder.errors),
      warmUpErrors: Object.fromEntries(warmUp.errors),
      perKind,
      renderIdle,
      renderUnderLoad,
      cpu,
      goal: { ...goal, met: goal.p99Under300Ms && goal.noErrors && goal.renderCompleted },
    };
  } finally {
    for (const browser of browsers) browser.close();
    await Promise.all([...running.webs, ...running.workers].map((proc) => proc.stop()));
    await rm(scratch, { recursive: true, force: true });
  }
}

export async function benchLoad() {
  const results: Record<string, unknown> = {};
  // BENCH_LOAD_SETUPS=embedded or =postgres runs one of the two (both by default).
  const setups = (process.env.BENCH_LOAD_SETUPS ?? 'embedded,postgres').split(',');
  if (setups.includes('embedded')) await embeddedSetup(results);
  if (setups.includes('postgres')) await postgresSetup(results);
  return results;
}

async function embeddedSetup(results: Record<string, unknown>) {
  const embeddedDir = await mkdtemp(path.join(tmpdir(), 'familystar-bench-load-data-'));
  try {
    console.log('  embedded database, one process');
    // DEMO_TEMPLATES on: the server makes the demo library at its first start.
    results['PGlite, one process'] = await runSetup({
      dataDir: embeddedDir,
      databaseUrl: undefined,
      tag: 'e',
      start: async () => ({ webs: [await startProcess('main', embeddedDir, { DEMO_TEMPLATES: 'on' })], workers: [] }),
    });
  } finally {
    await rm(embeddedDir, { recursive: true, force: true });
  }
}

async function postgresSetup(results: Record<string, unknown>) {
  const postgres = await freshPostgres();
  if (!postgres) {
    results.PostgreSQL = 'no server answered: skipped';
    return;
  }
  const sharedDir = await mkdtemp(path.join(tmpdir(), 'familystar-bench-load-data-'));
  try {
    console.log('  PostgreSQL, two web processes and a worker');
    // As a deployment runs them: one secret for all, web processes without job workers, one worker process.
    const common = { DATABASE_URL: postgres.url, SESSION_SECRET: randomBytes(32).toString('hex') };
    results['PostgreSQL, two web processes + one worker'] = await runSetup({
      dataDir: sharedDir,
      databaseUrl: postgres.url,
      tag: 'p',
      start: async () => {
        // The first makes the demo library; started first so that the migrations run once.
        const first = await startProcess('main', sharedDir, { ...common, JOB_WORKERS: 'off', DEMO_TEMPLATES: 'on' });
        const [second, worker] = await Promise.all([
          startProcess('main', sharedDir, { ...common, JOB_WORKERS: 'off', DEMO_TEMPLATES: 'off' }),
          startProcess('worker', sharedDir, common),
        ]);
        return { webs: [first, second], workers: [worker] };
      },
    });
  } finally {
    await postgres.drop();
    await rm(sharedDir, { recursive: true, force: true });
  }
}
