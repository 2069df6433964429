// GET /api/me signed in, 50 connections, embedded database, against Fastify's hello world as the ceiling.
import { load, startScript, startServer, registerAndSignIn } from './lib';

export async function benchApiMe() {
  const server = await startServer();
  try {
    const cookie = await registerAndSignIn(server.baseUrl, 'bench_parent');
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
