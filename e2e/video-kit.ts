// What the video journeys share (videos.e2e.ts, saved-videos.e2e.ts): a 4 s template made here (the
// portrait as the actor, narrated by a high eSpeak voice) with its thumbnail, low eSpeak recordings for a
// person, the admin's real upload route, and an account registered through the API.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { VideoTemplate } from '../src/shared/api-types';
import { ffmpegBinary } from '../src/server/media/ffmpeg';
import { closeSpeech, speak } from '../src/server/media/speech';
import { PORTRAIT } from '../src/server/testing/media-fixtures';
import { uniqueAccount } from './harness';

const run = promisify(execFile);

/** The toasts' region (hidden while none shows). */
export const toasts = (page: Page) => page.getByRole('region', { name: /Notifications/, includeHidden: true });

export const dataUrl = (file: string, mime: string) => `data:${mime};base64,${readFileSync(file).toString('base64')}`;

export async function ffmpeg(args: string[]) {
  await run(ffmpegBinary(), ['-hide_banner', '-loglevel', 'error', '-y', ...args], { timeout: 60_000 });
}

/** A new account through the API (its cookie kept by the context); the first one is the admin. */
export async function register(context: BrowserContext, prefix: string): Promise<number> {
  const response = await context.request.post('/api/register', { data: uniqueAccount(prefix) });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

export interface TemplateMedia {
  /** counting.mp4: 4 s, 640×360, the portrait zooming slowly, narrated. */
  video: string;
  /** counting.jpg: its first frame. */
  thumbnail: string;
  /** story.wav and bedtime.wav: two different takes of a low voice (more than 5 s each). */
  story: string;
  bedtime: string;
}

export async function makeTemplateMedia(dir: string): Promise<TemplateMedia> {
  const narration = path.join(dir, 'narration.wav');
  await speak('One, two, three, four. Let us count together, one more time.', { voice: 'en-us+f3', pitch: 60, speed: 150 }, narration);
  const video = path.join(dir, 'counting.mp4');
  await ffmpeg(['-loop', '1', '-i', PORTRAIT, '-i', narration,
    '-vf', "scale=720:720,zoompan=z='1.3+0.05*sin(on/10)':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=40:s=640x360:fps=10",
    '-t', '4', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-af', 'apad', '-shortest', '-movflags', '+faststart', video]);
  const thumbnail = path.join(dir, 'counting.jpg');
  await ffmpeg(['-i', video, '-frames:v', '1', '-q:v', '4', thumbnail]);
  const story = path.join(dir, 'story.wav');
  await speak('Once upon a time a little fox found a shiny red ball and rolled it all the way home to show her brother.', { voice: 'en-us+m3', pitch: 25, speed: 140 }, story);
  const bedtime = path.join(dir, 'bedtime.wav');
  await speak('Good night little one. The moon is up and the stars are out, so close your eyes and dream of the sea.', { voice: 'en-us+m3', pitch: 30, speed: 135 }, bedtime);
  await closeSpeech();
  return { video, thumbnail, story, bedtime };
}

/** The template uploaded by an admin through the real upload route. */
export async function uploadTemplate(
  admin: BrowserContext,
  media: Pick<TemplateMedia, 'video' | 'thumbnail'>,
  fields: { title: string; description: string; category: string; voiceOnly: boolean },
): Promise<VideoTemplate> {
  const upload = await admin.request.post('/api/admin/videoTemplates/upload', {
    multipart: {
      video: { name: 'counting.mp4', mimeType: 'video/mp4', buffer: readFileSync(media.video) },
      thumbnail: { name: 'counting.jpg', mimeType: 'image/jpeg', buffer: readFileSync(media.thumbnail) },
      title: fields.title,
      description: fields.description,
      category: fields.category,
      ageRange: '3-5',
      duration: '4',
      featured: 'false',
      isPremium: 'false',
      voiceOnly: String(fields.voiceOnly),
    },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  return (await upload.json()) as VideoTemplate;
}
