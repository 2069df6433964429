// GET /api/me signed in, 50 connections, on the embedded database and (when a server answers) on
// PostgreSQL, against Fastify's hello world as the ceiling; and a signed-in list (the parent's people)
// on each, to show what one real query costs on top of the session. Each figure is measured right
// after its own ceiling: the machine is shared, and a ceiling taken minutes apart drifts.
import { type LoadResult, freshPostgres, load, registerAndSignIn, startScript, startServer } from './lib';



interface Measured extends LoadResult {
  /** Fastify's hello world, measured just before. */
  ceilingRequestsPerSecond: number;
  ratio: number;
}

/** `url` with `headers`, right after the ceiling. */
async function againstCeiling(ceilingUrl: string, url: string, headers: Record<string, string>): Promise<Measured> {
  const ceiling = await load(ceilingUrl);
  const result = await load(url, { headers });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url} answered ${result.non2xx} non-2xx and ${result.errors} errors`);
  return { ...result, ceilingRequestsPerSecond: ceiling.requestsPerSecond, ratio: Number((result.requestsPerSecond / ceiling.requestsPerSecond).toFixed(3)) };
}

/** /api/me and the people list, signed in, on a server started with `env`. */
async function signedInLoad(ceilingUrl: string, env: Record<string, string>): Promise<{ me: Measured; people: Measured }> {
  const server = await startServer({ env });
  try {
    const cookie = await registerAndSignIn(server.baseUrl, 'bench_parent');
    const { id } = (await (await fetch(`${server.baseUrl}/api/me`, { headers: { cookie } })).json()) as { id: number };
    return {
      me: await againstCeiling(ceilingUrl, `${server.baseUrl}/api/me`, { cookie }),
      people: await againstCeiling(ceilingUrl, `${server.baseUrl}/api/users/${id}/people`, { cookie }),
    };
  } finally {
    await server.stop();
  }
}

export async function benchApiMe() {
  const hello = await startScript('bench/hello-server.ts');
  const ceilingUrl = `http://127.0.0.1:${hello.port}/`;
  try {
    const embedded = await signedInLoad(ceilingUrl, {});
    const postgres = await freshPostgres();
    let server: Awaited<ReturnType<typeof signedInLoad>> | undefined;
    try {
      if (postgres) server = await signedInLoad(ceilingUrl, { DATABASE_URL: postgres.url });
    } finally {
      await postgres?.drop();
    }
    return {
      'GET /api/me (PGlite)': embedded.me,
      'GET /api/users/:id/people (PGlite)': embedded.people,
      ...(server ? { 'GET /api/me (PostgreSQL)': server.me, 'GET /api/users/:id/people (PostgreSQL)': server.people } : { PostgreSQL: 'no server answered: skipped' }),
      ratio: embedded.me.ratio,
      ratios: {
        'me, PGlite': embedded.me.ratio,
        'people, PGlite': embedded.people.ratio,
        ...(server ? { 'me, PostgreSQL': server.me.ratio, 'people, PostgreSQL': server.people.ratio } : {}),
      },
    };
  } finally {
    hello.stop();
  }
}
