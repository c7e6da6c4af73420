// HTTP throughput of the one server process: autocannon, 50 connections, 10 s each, on
// /api/health and on a hashed static asset; RUNS rounds (default 3), medians printed.
// BENCH_URL=http://host:port uses a server you started; otherwise one is started here.
// --smoke: one round of 1 s.
import autocannon from 'autocannon';
import { median, sized, startServer } from './lib/harness';

const runs = sized(Number(process.env.RUNS ?? 3), 1);
const duration = sized(Number(process.env.DURATION ?? 10), 1);
const connections = 50;

async function staticAssetPath(url: string): Promise<string> {
  const html = await (await fetch(`${url}/`, { headers: { accept: 'text/html' } })).text();
  const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  if (!asset) throw new Error('no built asset found: run `npm run build -w web` first');
  return asset;
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function measure(url: string): Promise<Figures> {
  // Browsers ask for compressed bodies; so does the benchmark.
  const result = await autocannon({
    url,
    connections,
    duration,
    headers: { 'accept-encoding': 'br, gzip' },
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors,
  };
}

const server = await startServer();
try {
  const targets = {
    '/api/health': '/api/health',
    'static asset': await staticAssetPath(server.url),
  };
  const table: Record<string, Figures[]> = {};
  for (let run = 1; run <= runs; run++) {
    for (const [name, route] of Object.entries(targets)) {
      const figures = await measure(`${server.url}${route}`);
      (table[name] ??= []).push(figures);
      console.log(
        `run ${run}/${runs} ${name.padEnd(13)} ${figures.rps.toFixed(0).padStart(7)} req/s  p50 ${figures.p50} ms  p99 ${figures.p99} ms  non-2xx/errors ${figures.non2xx}`,
      );
    }
  }
  console.log(
    `\nmedian of ${runs} runs, ${connections} connections, ${duration} s each (${targets['static asset']} as the static asset):`,
  );
  for (const [name, all] of Object.entries(table)) {
    console.log(
      `${name.padEnd(13)} ${median(all.map((f) => f.rps))
        .toFixed(0)
        .padStart(
          7,
        )} req/s  p50 ${median(all.map((f) => f.p50))} ms  p99 ${median(all.map((f) => f.p99))} ms`,
    );
  }
} finally {
  server.stop();
}
