// The demo library a fresh installation starts with (decisions: a real product is not empty). Each
// template is made here, never downloaded, from material that comes with the repository and
// `npm install`: a public-domain NASA portrait (Eileen Collins, assets/astronaut.jpg) animated with
// ffmpeg, narration spoken by eSpeak NG in wasm (media/speech.ts), and numbers, letters or colours
// drawn with DejaVu Sans Bold (npm dejavu-fonts-ttf). H.264/AAC MP4 with faststart.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/open';
import { videoTemplates } from '../../db/schema';
import { ffmpegBinary, probe, runProcess } from '../../media/ffmpeg';
import { type VoiceSettings, espeakModuleFile, speak } from '../../media/speech';
import type { Storage } from '../../storage/storage';
import { whilePreparingDemo } from './demo-status';
import { templateListCache } from './list-cache';

/** The narrator: eSpeak's third female variant, a little slow and a little high. */
export const NARRATOR: VoiceSettings = { voice: 'en-us+f3', speed: 135, pitch: 55 };

const WIDTH = 960;
const HEIGHT = 540;
const FPS = 25;
const AUDIO_RATE = 44_100;
const GAP_S = 0.5;
const MIN_S = 15;

interface Segment {
  /** What the narrator says. */
  say: string;
  /** Big text in the right panel while it is said. */
  show: string;
  /** Colour of the right panel (a colour name or 0xRRGGBB). */
  panel?: string;
}

interface DemoTemplate {
  title: string;
  description: string;
  category: string;
  ageRange: string;
  featured: boolean;
  isPremium: boolean;
  priceCents: number | null;
  voiceOnly: boolean;
  background: string;
  segments: Segment[];
}

export const DEMO_TEMPLATES: DemoTemplate[] = [
  {
    title: 'Counting to Five',
    description: 'Count from one to five together, with big friendly numbers and a smiling guide.',
    category: 'counting',
    ageRange: '2-4',
    featured: true,
    isPremium: false,
    priceCents: null,
    voiceOnly: false,
    background: '0x1e3a8a',
    segments: [
      { say: "Hello! Let's count to five together.", show: '1 2 3' },
      { say: 'One.', show: '1' },
      { say: 'Two.', show: '2' },
      { say: 'Three.', show: '3' },
      { say: 'Four.', show: '4' },
      { say: 'Five!', show: '5' },
      { say: 'One, two, three, four, five. Great counting! Let us do it again tomorrow.', show: '★ 5 ★' },
    ],
  },
  {
    title: 'A B C Adventure',
    description: 'Meet the first letters of the alphabet and a word for each one, spoken slowly and clearly.',
    category: 'alphabet',
    ageRange: '3-5',
    featured: false,
    isPremium: true,
    priceCents: 299,
    voiceOnly: false,
    background: '0x7c2d12',
    segments: [
      { say: "Hi there! Let's learn some letters.", show: 'A B C' },
      { say: 'A is for apple.', show: 'A' },
      { say: 'B is for ball.', show: 'B' },
      { say: 'C is for cat.', show: 'C' },
      { say: 'D is for duck.', show: 'D' },
      { say: 'E is for elephant.', show: 'E' },
      { say: 'A, B, C, D, E. You know five letters now. Well done!', show: 'ABCDE' },
    ],
  },
  {
    title: 'Colours All Around',
    description: 'Name the colours of everyday things. A voice-only template: only the narration is personalised.',
    category: 'colors',
    ageRange: '1-3',
    featured: false,
    isPremium: false,
    priceCents: null,
    voiceOnly: true,
    background: '0x14532d',
    segments: [
      { say: "Let's look at colours together.", show: 'Colours', panel: '0x334155' },
      { say: 'Red, like a fire truck.', show: 'Red', panel: '0xdc2626' },
      { say: 'Yellow, like the sun.', show: 'Yellow', panel: '0xeab308' },
      { say: 'Green, like the grass.', show: 'Green', panel: '0x16a34a' },
      { say: 'Blue, like the sky.', show: 'Blue', panel: '0x2563eb' },
      { say: 'Red, yellow, green and blue. What colour do you like best?', show: '?', panel: '0x7c3aed' },
    ],
  },
];

export interface DemoTools {
  ffmpeg: string;
  portrait: string;
  font: string;
}

/** assets/astronaut.jpg, found from this file both in the source tree and in the bundled server (dist/server). */
export function demoPortrait(): string | undefined {
  if (process.env.DEMO_PORTRAIT) return process.env.DEMO_PORTRAIT;
  const here = path.dirname(fileURLToPath(import.meta.url));
  return [path.resolve(here, '../../../../assets/astronaut.jpg'), path.resolve(here, '../../assets/astronaut.jpg')].find((candidate) =>
    existsSync(candidate),
  );
}

function demoFont(): string | undefined {
  if (process.env.DEMO_FONT) return process.env.DEMO_FONT;
  try {
    const pkg = createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json');
    return path.join(path.dirname(pkg), 'ttf', 'DejaVuSans-Bold.ttf');
  } catch {
    return undefined;
  }
}

function found(find: () => string): string | undefined {
  try {
    return find();
  } catch {
    return undefined;
  }
}

/**
 * The tools and material the demo needs, or the list of what is missing. All of it comes with the
 * repository and `npm install`, so something is missing only in a broken install or a wrong DEMO_* path.
 */
export function findDemoTools(): DemoTools | { missing: string[] } {
  const portrait = demoPortrait();
  const font = demoFont();
  const ffmpeg = found(ffmpegBinary);
  const missing = [
    portrait && existsSync(portrait) ? '' : (process.env.DEMO_PORTRAIT ? `DEMO_PORTRAIT ${portrait}` : 'assets/astronaut.jpg (in the repository)'),
    font && existsSync(font) ? '' : (process.env.DEMO_FONT ? `DEMO_FONT ${font}` : 'DejaVuSans-Bold.ttf (npm package dejavu-fonts-ttf)'),
    found(espeakModuleFile) ? '' : 'eSpeak NG (npm package @echogarden/espeak-ng-emscripten)',
    ffmpeg ? '' : 'ffmpeg (npm package @ffmpeg-installer/ffmpeg)',
  ].filter(Boolean);
  if (missing.length) return { missing };
  return { ffmpeg: ffmpeg!, portrait: portrait!, font: font! };
}

const seconds = (value: number) => value.toFixed(3);

/** Renders one template's video and thumbnail into `dir`; returns their paths and the duration. */
export async function renderDemo(template: DemoTemplate, tools: DemoTools, dir: string) {
  // 1. Narration, one WAV per segment, so the text on screen follows the voice.
  const windows: { start: number; end: number }[] = [];
  let clock = 0;
  for (const [index, segment] of template.segments.entries()) {
    const wav = path.join(dir, `say-${index}.wav`);
    const spoken = (await speak(segment.say, NARRATOR, wav)).seconds;
    windows.push({ start: clock, end: clock + spoken + GAP_S });
    clock += spoken + GAP_S;
    await writeFile(path.join(dir, `show-${index}.txt`), segment.show);
  }
  const duration = Math.max(MIN_S, clock + 0.5);
  await writeFile(path.join(dir, 'title.txt'), template.title);

  // 2. Picture: the portrait large and frontal on the left with a slow drift, a panel on the right.
  const n = template.segments.length;
  // Padding in samples (pad_len/whole_len), not seconds: the npm-shipped ffmpeg (2018) predates pad_dur.
  const audioChain = template.segments.map(
    (_, index) => `[${index + 1}:a]aresample=${AUDIO_RATE},apad=pad_len=${Math.round(GAP_S * AUDIO_RATE)}[a${index}]`,
  );
  const audioConcat = `${template.segments.map((_, index) => `[a${index}]`).join('')}concat=n=${n}:v=0:a=1,apad=whole_len=${Math.round(duration * AUDIO_RATE)}[aout]`;
  const font = tools.font.replace(/:/g, '\\:');
  const panels = template.segments
    .map((segment, index) => {
      const { start, end } = windows[index]!;
      const on = `enable='between(t,${seconds(start)},${seconds(end)})'`;
      const box = segment.panel ? `drawbox=x=570:y=30:w=360:h=480:color=${segment.panel}:t=fill:${on},` : '';
      const size = segment.show.length <= 2 ? 220 : segment.show.length <= 6 ? 96 : 64;
      return `${box}drawtext=fontfile=${font}:textfile=${path.join(dir, `show-${index}.txt`)}:fontsize=${size}:fontcolor=white:borderw=4:bordercolor=black@0.4:x=750-text_w/2:y=290-text_h/2:${on}`;
    })
    .join(',');
  const video = [
    `color=c=${template.background}:s=${WIDTH}x${HEIGHT}:r=${FPS}:d=${seconds(duration)}[bg]`,
    // The face sits around (225,120) of the 512×512 photo: a 300×300 crop keeps it large and frontal.
    `[0:v]crop=300:300:'75+14*sin(2*PI*t/7)':'8+7*sin(2*PI*t/9)',scale=500:500,setsar=1,format=yuv420p[face]`,
    `[bg]drawbox=x=570:y=30:w=360:h=480:color=white@0.12:t=fill[panel]`,
    `[panel][face]overlay=x=30:y=20:shortest=1,${panels},drawtext=fontfile=${font}:textfile=${path.join(dir, 'title.txt')}:fontsize=26:fontcolor=white:x=750-text_w/2:y=56,format=yuv420p[vout]`,
  ];
  const output = path.join(dir, 'video.mp4');
  await runProcess(
    tools.ffmpeg,
    [
      '-v', 'error', '-y',
      '-loop', '1', '-framerate', String(FPS), '-t', seconds(duration), '-i', tools.portrait,
      ...template.segments.flatMap((_, index) => ['-i', path.join(dir, `say-${index}.wav`)]),
      '-filter_complex', [...audioChain, audioConcat, ...video].join(';'),
      '-map', '[vout]', '-map', '[aout]', '-t', seconds(duration),
      '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '24', '-pix_fmt', 'yuv420p',
      '-c:a', 'aac', '-b:a', '96k', '-movflags', '+faststart', output,
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const thumbnail = path.join(dir, 'thumbnail.jpg');
  await runProcess(tools.ffmpeg, ['-v', 'error', '-y', '-ss', seconds(Math.min(windows[1]?.start ?? 2, duration / 2) + 0.3), '-i', output, '-frames:v', '1', '-q:v', '3', thumbnail]);
  return { video: output, thumbnail, duration: Math.round((await probe(output)).duration ?? duration) };
}

export interface SeedResult {
  created: string[];
  skipped: string[];
}

/**
 * Adds the demo templates that are not in the library yet (matched by title). Files are rendered in a
 * temporary folder, then moved into storage like an upload's.
 */
export async function seedDemoTemplates(db: Db, storage: Storage, tools: DemoTools): Promise<SeedResult> {
  const titles = DEMO_TEMPLATES.map((template) => template.title);
  const existing = new Set(
    (await db.select({ title: videoTemplates.title }).from(videoTemplates).where(inArray(videoTemplates.title, titles))).map(
      (row) => row.title,
    ),
  );
  const result: SeedResult = { created: [], skipped: [...existing] };
  const scratch = await mkdtemp(path.join(tmpdir(), 'familystar-demo-'));
  try {
    for (const template of DEMO_TEMPLATES) {
      if (existing.has(template.title)) continue;
      const dir = await mkdtemp(path.join(scratch, 'template-'));
      const rendered = await renderDemo(template, tools, dir);
      const { segments: _segments, background: _background, ...fields } = template;
      await db.transaction(async (tx) => {
        // Two processes starting together (server mode) must not both add the same template.
        await tx.execute(sql`select pg_advisory_xact_lock(7243002)`);
        const [already] = await tx.select({ id: videoTemplates.id }).from(videoTemplates).where(eq(videoTemplates.title, template.title));
        if (already) return;
        const [row] = await tx.insert(videoTemplates).values({ ...fields, duration: rendered.duration }).returning({ id: videoTemplates.id });
        const id = row!.id;
        try {
          const video = await storage.moveIn(rendered.video, 'templates', id, 'mp4');
          const thumbnail = await storage.moveIn(rendered.thumbnail, 'templates', id, 'jpg');
          await tx.update(videoTemplates).set({ videoUrl: video.url, thumbnailUrl: thumbnail.url }).where(eq(videoTemplates.id, id));
        } catch (error) {
          await storage.removeOwner('templates', id);
          throw error;
        }
      });
      templateListCache(db).invalidate();
      result.created.push(template.title);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return result;
}

interface Logger {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * At a first start (no marker in DATA_DIR yet) fill an empty library with the demo templates, in the
 * background. If the install is broken (material missing) the app runs with an empty library and the
 * log says what is missing and how to seed.
 * DEMO_TEMPLATES=off skips it.
 */
export async function seedDemoAtFirstStart(options: { db: Db; storage: Storage; dataDir: string; log: Logger }): Promise<void> {
  const { db, storage, dataDir, log } = options;
  if (process.env.DEMO_TEMPLATES === 'off') return;
  const marker = path.join(dataDir, 'demo-templates.done');
  if (existsSync(marker)) return;
  const [{ n } = { n: 0 }] = await db.select({ n: sql<number>`count(*)::int` }).from(videoTemplates);
  if (n > 0) {
    await writeFile(marker, 'the library already had templates\n');
    return;
  }
  const tools = findDemoTools();
  if ('missing' in tools) {
    log.warn(
      `The template library is empty and the demo templates cannot be made: missing ${tools.missing.join('; ')}. ` +
        'Run "npm install" (or fix DEMO_PORTRAIT / DEMO_FONT), then "npm run seed:demo" or restart the app.',
    );
    return;
  }
  log.info('Demo generation started: the template library is empty, making the demo templates in the background');
  const started = Date.now();
  const took = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  // The landing page and the library say the demo is being prepared until this ends (demo-status.ts).
  const result = await whilePreparingDemo(db, () => seedDemoTemplates(db, storage, tools)).catch((error: unknown) => {
    log.warn(`Demo generation stopped after ${took()} without finishing; the next start tries again`);
    throw error;
  });
  await writeFile(marker, `${new Date().toISOString()} ${result.created.join(', ')}\n`);
  log.info(`Demo generation ended: demo templates added in ${took()}: ${result.created.join(', ') || 'none'}`);
}
