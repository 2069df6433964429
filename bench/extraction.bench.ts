// Face extraction through the real server (dist/, as npm start runs it, workers in the same process):
// wall time from POST /api/faceVideos to `completed` for a 10 s clip, and GET /api/me latency while the
// extraction runs next to the same load on the idle server (the API must stay responsive: the heavy
// work is in worker threads and ffmpeg processes, never on the thread that answers HTTP).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import autocannon from 'autocannon';
import { ffmpegBinary } from '../src/server/media/ffmpeg';
import { registerAndSignIn, startServer } from './lib';

const PORTRAIT = path.resolve('assets/astronaut.jpg');
const REAL_CLIP = path.resolve('../shared/media/talking-woman.mp4');

/** 10 s at 25 fps, 1280×720: the portrait drifting and zooming (like a phone clip of a face). */
function portraitClip(dir: string): string {
  const file = path.join(dir, 'face-10s.mp4');
  execFileSync(ffmpegBinary(), ['-v', 'error', '-y', '-loop', '1', '-i', PORTRAIT, '-vf',
    "scale=1440:1440,zoompan=z='1.3+0.1*sin(on/40)':x='iw/2-(iw/zoom/2)+30*sin(on/23)':y='ih/2-(ih/zoom/2)':d=250:s=1280x720:fps=25",
    '-t', '10', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'veryfast', file]);
  return file;
}

/** The first 10 s of a real talking-face clip (local only: not in the repository). */
function realClip(dir: string): string | undefined {
  if (!existsSync(REAL_CLIP)) return undefined;
  const file = path.join(dir, 'real-10s.mp4');
  execFileSync(ffmpegBinary(), ['-v', 'error', '-y', '-i', REAL_CLIP, '-t', '10', '-c', 'copy', file]);
  return file;
}

/** Load for `durationS`, or until `until` settles when given (then it stops at that moment). */
async function latency(url: string, cookie: string, durationS: number, until?: Promise<unknown>) {
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, connections: 10, duration: durationS, headers: { cookie } }, (error, done) => (error ? reject(error) : resolve(done)));
    void until?.finally(() => instance.stop());
  });
  return { requestsPerSecond: Math.round(result.requests.average), p50Ms: result.latency.p50, p99Ms: result.latency.p99, maxMs: result.latency.max, non2xx: result.non2xx };
}

export async function benchExtraction() {
  const scratch = mkdtempSync(path.join(tmpdir(), 'familystar-bench-extract-'));
  const server = await startServer();
  try {
    const cookie = await registerAndSignIn(server.baseUrl, 'bench_extract');
    const call = async (method: string, url: string, body?: unknown) => {
      const response = await fetch(`${server.baseUrl}${url}`, {
        method,
        headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
      return response.json() as Promise<Record<string, unknown>>;
    };
    const person = await call('POST', '/api/people', { name: 'Bench Person', relationship: 'Aunt' });
    // Warm-up: the first job loads the face engine in each pipeline thread (not what a parent waits for twice).
    const me = `${server.baseUrl}/api/me`;
    const idle = await latency(me, cookie, 8);

    const clips: Record<string, string> = { 'portrait 1280x720 10 s': portraitClip(scratch) };
    const real = realClip(scratch);
    if (real) clips['talking-woman first 10 s'] = real;

    const runs: Record<string, unknown> = {};
    let first = true;
    for (const [label, clip] of Object.entries(clips)) {
      const extract = async () => {
        const started = performance.now();
        const video = await call('POST', '/api/faceVideos', {
          personId: person.id,
          name: label,
          expressionType: 'neutral',
          videoData: `data:video/mp4;base64,${readFileSync(clip).toString('base64')}`,
        });
        for (;;) {
          const list = (await call('GET', `/api/people/${person.id}/faceVideos`)) as unknown as { id: number; processingStatus: string; extractedFacesCount: number; errorMessage: string | null }[];
          const row = list.find((entry) => entry.id === video.id)!;
          if (row.processingStatus === 'completed' || row.processingStatus === 'failed') {
            return { seconds: Number(((performance.now() - started) / 1000).toFixed(1)), status: row.processingStatus, faces: row.extractedFacesCount, error: row.errorMessage };
          }
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      if (first) {
        runs[`${label} (cold: engine loading)`] = await extract();
        first = false;
      }
      // The load runs exactly as long as a second extraction of the same clip.
      const extraction = extract();
      const [result, busy] = await Promise.all([extraction, latency(me, cookie, 300, extraction)]);
      runs[label] = { ...result, 'GET /api/me while extracting': busy };
    }
    return { 'GET /api/me idle (10 connections, 8 s)': idle, extraction: runs };
  } finally {
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
