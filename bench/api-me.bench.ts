// GET /api/me signed in, 50 connections, on the embedded database and (when a server answers) on
// PostgreSQL, against Fastify's hello world as the ceiling; and a signed-in list (the parent's people)
// on each, to show what one real query costs on top of the session. Each figure is measured right
// after its own ceiling: the machine is shared, and a ceiling taken minutes apart drifts.
import { type LoadResult, cpuMsOf, freshPostgres, load, registerAndSignIn, startScript, startServer } from './lib';



interface Measured extends LoadResult {
  /** Fastify's hello world, measured just before. */
  ceilingRequestsPerSecond: number;
  ratio: number;
  /**
   * The server's CPU per request (all its threads, µs), and hello world's. On two cores the load
   * generator shares the machine with the server, so requests a second also measure the generator and
   * the neighbours; the server's own CPU per request does not.
   */
  serverCpuUsPerRequest: number;
  ceilingCpuUsPerRequest: number;
}

/** Requests a second at `url`, and the CPU the process `pid` spent per request meanwhile. */
async function loadWithCpu(url: string, pid: number, headers: Record<string, string> = {}) {
  const before = cpuMsOf(pid);
  const result = await load(url, { headers });
  // load() warms up for 2 s before its measured run: both count in the CPU and in the requests.
  const requests = result.requestsPerSecond * (result.durationS + 2);
  return { result, cpuUsPerRequest: Math.round(((cpuMsOf(pid) - before) * 1000) / requests) };
}

/** `url` with `headers`, right after the ceiling. */
async function againstCeiling(ceiling: { url: string; pid: number }, url: string, pid: number, headers: Record<string, string>): Promise<Measured> {
  const bare = await loadWithCpu(ceiling.url, ceiling.pid);
  const { result, cpuUsPerRequest } = await loadWithCpu(url, pid, headers);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url} answered ${result.non2xx} non-2xx and ${result.errors} errors`);
  return {
    ...result,
    ceilingRequestsPerSecond: bare.result.requestsPerSecond,
    ratio: Number((result.requestsPerSecond / bare.result.requestsPerSecond).toFixed(3)),
    serverCpuUsPerRequest: cpuUsPerRequest,
    ceilingCpuUsPerRequest: bare.cpuUsPerRequest,
  };
}

/** /api/me and the people list, signed in, on a server started with `env`. */
async function signedInLoad(ceiling: { url: string; pid: number }, env: Record<string, string>): Promise<{ me: Measured; people: Measured }> {
  const server = await startServer({ env });
  try {
    const cookie = await registerAndSignIn(server.baseUrl, 'bench_parent');
    const { id } = (await (await fetch(`${server.baseUrl}/api/me`, { headers: { cookie } })).json()) as { id: number };
    return {
      me: await againstCeiling(ceiling, `${server.baseUrl}/api/me`, server.pid, { cookie }),
      people: await againstCeiling(ceiling, `${server.baseUrl}/api/users/${id}/people`, server.pid, { cookie }),
    };
  } finally {
    await server.stop();
  }
}

export async function benchApiMe() {
  const hello = await startScript('bench/hello-server.ts');
  const ceiling = { url: `http://127.0.0.1:${hello.port}/`, pid: hello.child.pid! };
  try {
    const embedded = await signedInLoad(ceiling, {});
    const postgres = await freshPostgres();
    let server: Awaited<ReturnType<typeof signedInLoad>> | undefined;
    try {
      if (postgres) server = await signedInLoad(ceiling, { DATABASE_URL: postgres.url });
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
      'server CPU µs per request (hello world beside it)': {
        'me, PGlite': `${embedded.me.serverCpuUsPerRequest} (${embedded.me.ceilingCpuUsPerRequest})`,
        'people, PGlite': `${embedded.people.serverCpuUsPerRequest} (${embedded.people.ceilingCpuUsPerRequest})`,
        ...(server
          ? {
              'me, PostgreSQL': `${server.me.serverCpuUsPerRequest} (${server.me.ceilingCpuUsPerRequest})`,
              'people, PostgreSQL': `${server.people.serverCpuUsPerRequest} (${server.people.ceilingCpuUsPerRequest})`,
            }
          : {}),
      },
    };
  } finally {
    hello.stop();
  }
}
