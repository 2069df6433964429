// Bodies are judged before they are read (issue 16, item 4), over real sockets against a listening app:
// a visitor's 28 MB post is answered 401 while most of it is still unsent, a body declared over its
// route's limit is answered 413 the same way, and a body that trickles in, one that never ends, and a
// connection that never says anything are all closed within the configured times.
import { once } from 'node:events';
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_MESSAGES } from '../../shared/media-rules';
import { TEMPLATE_MESSAGES } from '../../shared/template-rules';
import { MESSAGES } from '../../shared/validation';
import { testDatabases } from '../testing/databases';
import { type TestApp, anotherApp, TestClient, createTestApp } from '../testing/test-app';
import { until } from '../testing/wait';
import type { RequestTimeouts } from './early-checks';
import { SESSION_COOKIE } from './sessions';

const databases = await testDatabases();

/** Short versions of the production timeouts (early-checks.ts REQUEST_TIMEOUTS), in the same proportions. */
const TIMEOUTS: RequestTimeouts = { requestMs: 4000, bodyWindowMs: 500, minBodyBytes: 1024, idleMs: 2500 };
const MB = 1024 * 1024;
/** The issue's anonymous posts: 28 MB (decimal), just within /api/faceVideos' body limit, so the parser would read it all. */
const ISSUE_POST_BYTES = 28_000_000;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A raw HTTP/1.1 connection: what we send is exactly what the server gets, byte by byte, when we say. */
async function connect(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const opened = Date.now();
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  // A refused body's connection is closed under us while we may still be sending.
  socket.on('error', () => {});
  let closedAt: number | undefined;
  socket.once('close', () => (closedAt = Date.now()));
  const parse = (): Answer | undefined => {
    const end = received.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const [statusLine, ...lines] = received.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
    const body = received.slice(end + 4);
    if (headers['content-length'] !== undefined && body.length < Number(headers['content-length'])) return undefined;
    return { status: Number(statusLine!.split(' ')[1]), headers, body };
  };
  return {
    socket,
    send: (data: string | Buffer) => new Promise<void>((resolve) => socket.write(data, () => resolve())),
    /** The server's whole answer, waiting at most `timeoutMs`. */
    answer: (timeoutMs: number) => until(parse, Boolean, timeoutMs, 10) as Promise<Answer>,
    /** Milliseconds from connecting until the server closed the connection, waiting at most `timeoutMs`. */
    closedAfter: async (timeoutMs: number) => (await until(() => closedAt, Boolean, timeoutMs, 20))! - opened,
    isClosed: () => closedAt !== undefined,
  };
}

const head = (method: string, url: string, headers: Record<string, string | number>) =>
  [`${method} ${url} HTTP/1.1`, 'Host: 127.0.0.1', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), '', ''].join('\r\n');

/** The start of a multipart upload whose file part goes on for `declared` bytes in all. */
function multipartStart(fields: Record<string, string>) {
  const boundary = `----familystar${randomBytes(8).toString('hex')}`;
  const text = Object.entries(fields)
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('');
  const fileHead = `--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`;
  return { contentType: `multipart/form-data; boundary=${boundary}`, start: Buffer.concat([Buffer.from(text + fileHead), Buffer.alloc(64 * 1024)]) };
}

describe.each(databases)('reading bodies on $name', (testDatabase) => {
  let t: TestApp;
  let app: FastifyInstance;
  let port: number;
  let adminCookie: string;
  let userCookie: string;
  let personId: number;
  const logLines: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(testDatabase);
    // The suite's database and media, served on a real port with short timeouts.
    // What the server logs is checked too (an upload the client gives up on is not an error).
    app = await anotherApp(t, { logStream: { write: (line) => void logLines.push(line) }, timeouts: TIMEOUTS });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
    const admin = new TestClient(app);
    await admin.register(); // the first account is the admin
    adminCookie = `${SESSION_COOKIE}=${admin.cookie(SESSION_COOKIE)}`;
    const user = new TestClient(app);
    await user.register();
    userCookie = `${SESSION_COOKIE}=${user.cookie(SESSION_COOKIE)}`;
    const person = await user.post('/api/people', { name: 'Grandma Rose', relationship: 'Grandmother' });
    personId = (JSON.parse(person.body) as { id: number }).id;
    await user.post(`/api/people/${personId}/consent`, { basis: 'guardian' });
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });

  it('logs an upload the client gives up on as information, not as an error, and keeps nothing of it', async () => {
    const client = await connect(port);
    const { contentType, start } = multipartStart({ personId: String(personId) });
    await client.send(head('POST', '/api/upload/video', { 'Content-Type': contentType, 'Content-Length': 20 * MB, Cookie: userCookie }));
    await client.send(start);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = logLines.length;
    client.socket.destroy();
    await until(() => logLines.slice(before).some((line) => line.includes('closed the connection')), Boolean, 3000, 20);
    const after = logLines.slice(before).map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(after.filter((line) => line.level >= 50)).toEqual([]);
    expect(after.find((line) => line.msg.includes('closed the connection'))!.level).toBe(30);
    expect(await t.storage.sweepTemp(0)).toBe(0);
  });

  describe('who may send a body', () => {
    it("answers a visitor's 28 MB face video 401 after 64 KB of it, and closes the connection", async () => {
      const client = await connect(port);
      await client.send(head('POST', '/api/faceVideos', { 'Content-Type': 'application/json', 'Content-Length': ISSUE_POST_BYTES }));
      await client.send(`{"personId":1,"name":"Big","videoData":"data:video/mp4;base64,${'A'.repeat(64 * 1024)}`);
      // Without the check the JSON parser waits for all 28 MB (and holds them) before the route says 401.
      const answer = await client.answer(TIMEOUTS.requestMs / 2);
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toEqual({ message: MESSAGES.notSignedIn });
      expect(answer.headers.connection).toBe('close');
      expect(await client.closedAfter(1000)).toBeLessThan(TIMEOUTS.bodyWindowMs);
    });

    it("answers a visitor's multipart upload 401 before its file arrives", async () => {
      const client = await connect(port);
      const { contentType, start } = multipartStart({ personId: '1' });
      await client.send(head('POST', '/api/upload/video', { 'Content-Type': contentType, 'Content-Length': ISSUE_POST_BYTES }));
      await client.send(start);
      const answer = await client.answer(TIMEOUTS.requestMs / 2);
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toEqual({ message: MESSAGES.notSignedIn });
      expect(await client.closedAfter(1000)).toBeLessThan(TIMEOUTS.bodyWindowMs);
    });

    it('answers a session that is not valid (expired, forged) as a visitor', async () => {
      const client = await connect(port);
      await client.send(head('POST', '/api/faceVideos', { 'Content-Type': 'application/json', 'Content-Length': ISSUE_POST_BYTES, Cookie: `${SESSION_COOKIE}=forged.signature` }));
      await client.send('{"personId":1,');
      expect((await client.answer(TIMEOUTS.requestMs / 2)).status).toBe(401);
    });

    it('lets visitors sign in, register and sign out with a body', async () => {
      const visitor = new TestClient(app);
      const login = await visitor.post('/api/login', { username: 'nobody', password: 'wrong password' });
      expect(login.statusCode).toBe(401);
      expect(JSON.parse(login.body)).toEqual({ message: MESSAGES.invalidCredentials });
      await visitor.register();
      expect((await visitor.post('/api/logout', {})).statusCode).toBe(204);
      expect((await new TestClient(app).post('/api/logout', {})).statusCode).toBe(204);
    });
  });

  describe('how much may be sent', () => {
    it("answers a declared 200 MB face video upload 413 in the route's words before its file arrives", async () => {
      const client = await connect(port);
      const { contentType, start } = multipartStart({ personId: String(personId) });
      await client.send(head('POST', '/api/upload/video', { 'Content-Type': contentType, 'Content-Length': 200 * MB, Cookie: userCookie }));
      await client.send(start);
      // Without the check the upload streams to disk until 100 MB, then 413: here it would wait for the rest.
      const answer = await client.answer(TIMEOUTS.requestMs / 2);
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toEqual({ message: MEDIA_MESSAGES.videoTooLarge });
      expect(answer.headers.connection).toBe('close');
    });

    it("answers an admin's declared 200 MB template upload 413, and a face video JSON over its limit 413", async () => {
      const upload = await connect(port);
      const { contentType, start } = multipartStart({ title: 'Huge' });
      await upload.send(head('POST', '/api/admin/videoTemplates/upload', { 'Content-Type': contentType, 'Content-Length': 200 * MB, Cookie: adminCookie }));
      await upload.send(start);
      const uploadAnswer = await upload.answer(TIMEOUTS.requestMs / 2);
      expect(uploadAnswer.status).toBe(413);
      expect(JSON.parse(uploadAnswer.body)).toEqual({ message: TEMPLATE_MESSAGES.videoTooLargeDetail });

      const inline = await connect(port);
      await inline.send(head('POST', '/api/faceVideos', { 'Content-Type': 'application/json', 'Content-Length': 40 * MB, Cookie: userCookie }));
      await inline.send('{"personId":1,');
      const inlineAnswer = await inline.answer(TIMEOUTS.requestMs / 2);
      expect(inlineAnswer.status).toBe(413);
      expect(JSON.parse(inlineAnswer.body)).toEqual({ message: MEDIA_MESSAGES.videoDataTooLarge });
    });

    it('lets a declared size within the limit through to the route', async () => {
      const client = await connect(port);
      const body = JSON.stringify({ name: 'Grandma Rosie' });
      await client.send(head('PATCH', `/api/people/${personId}`, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Cookie: userCookie }));
      await client.send(body);
      expect((await client.answer(TIMEOUTS.requestMs / 2)).status).toBe(200);
    });
  });

  describe('how long it may take', () => {
    it('cuts a body that trickles in a byte at a time', async () => {
      const client = await connect(port);
      await client.send(head('POST', '/api/login', { 'Content-Type': 'application/json', 'Content-Length': 1000 }));
      const trickle = setInterval(() => !client.isClosed() && client.socket.write('{'), 100);
      try {
        // One window to see it, at most one more to decide: long before the request timeout.
        expect(await client.closedAfter(TIMEOUTS.requestMs)).toBeLessThan(TIMEOUTS.bodyWindowMs * 2 + 500);
      } finally {
        clearInterval(trickle);
      }
    });

    it('lets a steady body run, but no longer than the request timeout (408)', async () => {
      const client = await connect(port);
      await client.send(head('POST', '/api/login', { 'Content-Type': 'application/json', 'Content-Length': 1_000_000 }));
      // 4 KB every 100 ms: well above the minimum rate, and 1 MB would take 25 s.
      const steady = setInterval(() => !client.isClosed() && client.socket.write(Buffer.alloc(4096, 0x20)), 100);
      try {
        const closedAfter = await client.closedAfter(TIMEOUTS.requestMs * 3);
        expect(closedAfter).toBeGreaterThanOrEqual(TIMEOUTS.requestMs);
        // Node looks at unfinished requests every requestMs / 4.
        expect(closedAfter).toBeLessThan(TIMEOUTS.requestMs * 1.5 + 500);
        expect((await client.answer(0)).status).toBe(408);
      } finally {
        clearInterval(steady);
      }
    });

    it('closes a connection that never sends anything', async () => {
      const client = await connect(port);
      const closedAfter = await client.closedAfter(TIMEOUTS.idleMs * 3);
      expect(closedAfter).toBeGreaterThanOrEqual(TIMEOUTS.idleMs - 100);
      expect(closedAfter).toBeLessThan(TIMEOUTS.idleMs + 1000);
    });
  });
});
