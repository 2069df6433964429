// POST /api/upload/video with a real ~99 MB MP4 streamed over HTTP to the built server: throughput, and
// how much the server's resident memory grows while it receives, checks and stores the file (the goal
// is < 64 MB: the upload must stream to disk, never sit in memory).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MEDIA_LIMITS } from '../src/shared/media-rules';
import { ffmpegBinary } from '../src/server/media/ffmpeg';
import { startServer, registerAndSignIn } from './lib';

const TARGET_BYTES = MEDIA_LIMITS.videoMaxBytes - 2 * 1024 * 1024;

/** A real H.264 MP4 just under the limit: noisy 720p at a high bitrate, cut by size (-fs). Cached in tmp. */
function bigVideo(): string {
  const file = path.join(tmpdir(), 'familystar-bench-upload-99mb.mp4');
  const fits = () => existsSync(file) && statSync(file).size > 90 * 2 ** 20 && statSync(file).size < MEDIA_LIMITS.videoMaxBytes;
  if (fits()) return file;
  execFileSync(ffmpegBinary(), [
    '-nostdin', '-v', 'error', '-y',
    '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30',
    '-vf', 'noise=alls=80:allf=t+u',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '16', '-pix_fmt', 'yuv420p',
    '-t', '600', '-fs', String(TARGET_BYTES - 6 * 2 ** 20), file,
  ]);
  // -fs stops after the limit is passed, by up to a few frames.
  if (!fits()) throw new Error(`generated ${statSync(file).size} bytes, not between 90 MB and the limit`);
  return file;
}

function rssKb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
}

/** Streams `file` as the multipart field `video` after a `personId` field; resolves with status and body. */
function uploadStream(baseUrl: string, cookie: string, personId: number, file: string): Promise<{ status: number; body: string }> {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="personId"\r\n\r\n${personId}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="face.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const url = new URL('/api/upload/video', baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          cookie,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + statSync(file).size + tail.length,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.write(head);
    const source = createReadStream(file, { highWaterMark: 1024 * 1024 });
    source.on('error', reject);
    source.pipe(req, { end: false });
    source.on('end', () => req.end(tail));
  });
}

export async function benchUpload() {
  const file = bigVideo();
  const bytes = statSync(file).size;
  const server = await startServer();
  try {
    const cookie = await registerAndSignIn(server.baseUrl, 'bench_uploader');
    const person = await fetch(`${server.baseUrl}/api/people`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ name: 'Bench Person', relationship: 'Tester' }),
    });
    if (person.status !== 201) throw new Error(`person failed: ${person.status}`);
    const personId = ((await person.json()) as { id: number }).id;
    const pid = Number(readFileSync(path.join(server.dataDir, 'db.lock'), 'utf8'));

    /** One upload with the server's RSS sampled every 20 ms. */
    async function measuredUpload() {
      const baselineKb = rssKb(pid);
      let peakKb = baselineKb;
      const sampler = setInterval(() => {
        peakKb = Math.max(peakKb, rssKb(pid));
      }, 20);
      const started = performance.now();
      const result = await uploadStream(server.baseUrl, cookie, personId, file);
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      peakKb = Math.max(peakKb, rssKb(pid));
      if (result.status !== 201) throw new Error(`upload failed: ${result.status} ${result.body}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      return { result, seconds, baselineKb, peakKb };
    }

    // The first upload also loads code paths; the second is the steady state. Both are reported.
    const first = await measuredUpload();
    const { result, seconds, baselineKb, peakKb } = await measuredUpload();
    const { videoUrl } = JSON.parse(result.body) as { videoUrl: string };

    const saved = await fetch(`${server.baseUrl}/api/faceVideos`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ personId, name: 'Bench - Neutral', expressionType: 'neutral', videoUrl }),
    });
    if (saved.status !== 201) throw new Error(`faceVideos failed: ${saved.status} ${await saved.text()}`);

    const growthMb = (peakKb - baselineKb) / 1024;
    return {
      fileMb: Number((bytes / 2 ** 20).toFixed(1)),
      seconds: Number(seconds.toFixed(2)),
      throughputMbPerS: Number((bytes / 2 ** 20 / seconds).toFixed(1)),
      serverRssBaselineMb: Math.round(baselineKb / 1024),
      serverRssPeakMb: Math.round(peakKb / 1024),
      serverRssGrowthMb: Number(growthMb.toFixed(1)),
      firstUploadSeconds: Number(first.seconds.toFixed(2)),
      firstUploadRssGrowthMb: Number(((first.peakKb - first.baselineKb) / 1024).toFixed(1)),
      goalRssGrowthMb: 64,
      withinGoal: Math.max(growthMb, (first.peakKb - first.baselineKb) / 1024) < 64,
    };
  } finally {
    await server.stop();
  }
}
