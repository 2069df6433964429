// GET /api/me signed in, 50 connections, embedded database, against Fastify's hello world as the ceiling.
import { load, startScript, startServer } from './lib';

export async function benchApiMe() {
  const server = await startServer();
  try {
    const account = { username: 'bench_parent', email: 'bench@example.com', password: 'a good long password', displayName: 'Bench Parent' };
    const registered = await fetch(`${server.baseUrl}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(account),
    });
    if (registered.status !== 201) throw new Error(`register failed: ${registered.status}`);
    const cookie = registered.headers.get('set-cookie')!.split(';')[0]!;
    const me = await load(`${server.baseUrl}/api/me`, { headers: { cookie } });
    if (me.non2xx > 0 || me.errors > 0) throw new Error(`/api/me answered ${me.non2xx} non-2xx and ${me.errors} errors`);

    const hello = await startScript('bench/hello-server.ts');
    let ceiling;
    try {
      ceiling = await load(`http://127.0.0.1:${hello.port}/`);
    } finally {
      hello.stop();
    }
    return {
      'GET /api/me (PGlite)': me,
      'Fastify hello world': ceiling,
      ratio: Number((me.requestsPerSecond / ceiling.requestsPerSecond).toFixed(3)),
    };
  } finally {
    await server.stop();
  }
}
