// What the sign-up gate costs (docs/security.md#the-sign-up-gate). In Node: this machine's PBKDF2
// rate (one attempt = one PBKDF2/SHA-256 derivation of 1,000 iterations), and the CPU seconds one
// challenge costs at the base and the raised difficulty, with ALTCHA's solver (what tests and a
// scripted client use) and with a plain synchronous loop (the cheapest native solver per core):
// mean and median per challenge, the median of RUNS runs (default 3). With Chromium and a built web
// app (web/dist), the same challenges solved by the built gate worker, at full speed and with the
// CPU slowed 4× (as Lighthouse emulates a mid-range phone). The SIGNUP_GATE_* settings apply.
import { createServer } from 'node:http';
import { pbkdf2Sync } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { GateChallenge } from '@crw/core';
import { parseConfig } from '@crw/server/config';
import {
  GATE_COST,
  gateMaxNumber,
  issueGateChallenge,
  type GateDifficulty,
} from '@crw/server/http/guards/signup-gate';
import { solveGate } from '@crw/server/testing/signup-gate';
import {
  hasChromium,
  launchChromium,
  median,
  repoRoot,
  sized,
  smoke,
  smokeLacksChromium,
} from './lib/harness';

const runs = sized(Number(process.env.RUNS ?? 3), 1);
const solves: Record<GateDifficulty, number> = { base: sized(40, 3), raised: sized(3, 1) };

const settings = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => name.startsWith('SIGNUP_GATE_')),
) as Record<string, string>;
// A smoke run keeps the raised difficulty small: it checks the code path, not the figure.
const parsed = parseConfig(
  smoke ? { ...settings, SIGNUP_GATE_RAISED_MAX_NUMBER: '400' } : settings,
);
if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
const config = parsed.config;
// Challenges are made as the server makes them, with throwaway keys: only solving is measured.
const secrets = { challenge: 'bench-challenge-key', answer: 'bench-answer-key' };
const challengeOf = (difficulty: GateDifficulty) =>
  issueGateChallenge(config, secrets, 'register', difficulty);

/** CPU seconds (this process, every thread) and wall seconds that `work` took. */
async function timed(work: () => Promise<unknown>): Promise<{ cpu: number; wall: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await work();
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / 1e6, wall: (performance.now() - start) / 1000 };
}

/** The cheapest native solver: derive key after key on one thread until the prefix matches. */
function solveInLoop(challenge: GateChallenge): number {
  const { nonce, salt, cost, keyPrefix } = challenge.parameters;
  const password = Buffer.alloc(16 + 4);
  Buffer.from(nonce, 'hex').copy(password);
  const saltBytes = Buffer.from(salt, 'hex');
  const prefix = Buffer.from(keyPrefix, 'hex');
  for (let counter = 0; counter <= 0xffff_ffff; counter++) {
    password.writeUInt32BE(counter, 16);
    const key = pbkdf2Sync(password, saltBytes, cost, 32, 'sha256');
    if (key.subarray(0, prefix.length).equals(prefix)) return counter;
  }
  throw new Error('no answer');
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const s = (seconds: number) => `${seconds.toFixed(3)} s`;

// This machine's rate, one thread.
const rateSeconds = sized(2, 0.2);
let attempts = 0;
const rateStart = performance.now();
while (performance.now() - rateStart < rateSeconds * 1000) {
  pbkdf2Sync(Buffer.from(`rate-${attempts}`), 'salt', GATE_COST, 32, 'sha256');
  attempts += 1;
}
const perSecond = attempts / ((performance.now() - rateStart) / 1000);
console.log(
  `Node ${process.version}, one thread: ${perSecond.toFixed(0)} attempts/s (PBKDF2/SHA-256, ${GATE_COST} iterations) = ${((perSecond * GATE_COST) / 1e6).toFixed(2)} M HMAC-SHA-256/s (${((perSecond * GATE_COST * 2) / 1e6).toFixed(2)} M SHA-256 compressions/s)`,
);
for (const difficulty of ['base', 'raised'] as const) {
  const max = gateMaxNumber(config, difficulty);
  console.log(
    `${difficulty}: the answer is drawn from ${Math.ceil(max / 2)}–${max} attempts: expected ${s((0.75 * max) / perSecond)}, at most ${s(max / perSecond)} of one thread`,
  );
}

interface Figures {
  altchaMean: number;
  altchaMedian: number;
  loopMean: number;
  loopMedian: number;
}
const results: Record<GateDifficulty, Figures[]> = { base: [], raised: [] };
for (let run = 1; run <= runs; run++) {
  for (const difficulty of ['base', 'raised'] as const) {
    const altcha: number[] = [];
    const loop: number[] = [];
    for (let i = 0; i < solves[difficulty]; i++) {
      const forAltcha = await challengeOf(difficulty);
      altcha.push((await timed(() => solveGate(forAltcha))).cpu);
      const forLoop = await challengeOf(difficulty);
      loop.push((await timed(async () => solveInLoop(forLoop))).cpu);
    }
    const figures = {
      altchaMean: mean(altcha),
      altchaMedian: median(altcha),
      loopMean: mean(loop),
      loopMedian: median(loop),
    };
    results[difficulty].push(figures);
    console.log(
      `run ${run}/${runs} ${difficulty} (${solves[difficulty]} challenges): ALTCHA's solver mean ${s(figures.altchaMean)}, median ${s(figures.altchaMedian)}; plain loop mean ${s(figures.loopMean)}, median ${s(figures.loopMedian)} (CPU seconds per challenge)`,
    );
  }
}
console.log(`\nmedian of ${runs} runs, CPU seconds per challenge in Node:`);
for (const difficulty of ['base', 'raised'] as const) {
  const m = (key: keyof Figures) => s(median(results[difficulty].map((r) => r[key])));
  console.log(
    `  ${difficulty.padEnd(6)} ALTCHA's solver: mean ${m('altchaMean')}, median ${m('altchaMedian')}   plain loop: mean ${m('loopMean')}, median ${m('loopMedian')}`,
  );
}

// In Chromium: the built gate worker, as the sign-up page runs it.
const assets = path.join(repoRoot, 'web/dist/assets');
const workerAsset = existsSync(assets)
  ? readdirSync(assets).find((f) => /^gate\.worker-.*\.js$/.test(f))
  : undefined;
if (!hasChromium()) {
  if (smoke) smokeLacksChromium('SKIPPED: the browser solve was not measured');
  else console.log('\nno Chromium: the browser solve was not measured');
} else if (!workerAsset) {
  console.log('\nno built gate worker (npm run build -w web): the browser solve was not measured');
} else {
  const server = createServer((request, response) => {
    const file = request.url === '/worker.js' ? path.join(assets, workerAsset) : null;
    if (!file) {
      response.setHeader('content-type', 'text/html');
      return response.end('<!doctype html><title>gate</title>');
    }
    response.setHeader('content-type', 'text/javascript');
    response.end(readFileSync(file));
  }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    // tsx keeps function names with a helper that the page does not have.
    await page.addInitScript('window.__name = (fn) => fn');
    await page.goto(`http://127.0.0.1:${port}/`);
    const cdp = await page.context().newCDPSession(page);
    /** The built gate worker, as the sign-up page runs it (one worker). */
    const inWorker = (challenge: GateChallenge) =>
      page.evaluate(
        (challenge) =>
          new Promise<number>((resolve, reject) => {
            const worker = new Worker('/worker.js', { type: 'module' });
            const start = performance.now();
            worker.onmessage = (event) => {
              worker.terminate();
              if (!event.data || event.data.error) reject(new Error('not solved'));
              else resolve((performance.now() - start) / 1000);
            };
            worker.onerror = (event) => reject(new Error(event.message));
            worker.postMessage({ type: 'work', challenge, counterStart: 0, counterStep: 1 });
          }),
        challenge,
      );
    /** The same solve (WebCrypto's PBKDF2, attempt after attempt) on the page's own thread, which
     * CDP's CPU throttling slows; it does not reach a dedicated worker. */
    const onPage = (challenge: GateChallenge) =>
      page.evaluate(async ({ parameters }) => {
        const hex = (text: string) =>
          new Uint8Array(text.match(/../g)!.map((h) => parseInt(h, 16)));
        const nonce = hex(parameters.nonce);
        const salt = hex(parameters.salt);
        const prefix = hex(parameters.keyPrefix);
        const password = new Uint8Array(nonce.length + 4);
        password.set(nonce);
        const view = new DataView(password.buffer);
        const start = performance.now();
        for (let counter = 0; ; counter++) {
          view.setUint32(nonce.length, counter);
          const key = await crypto.subtle.importKey('raw', password, 'PBKDF2', false, [
            'deriveBits',
          ]);
          const bits = new Uint8Array(
            await crypto.subtle.deriveBits(
              { name: 'PBKDF2', salt, iterations: parameters.cost, hash: 'SHA-256' },
              key,
              256,
            ),
          );
          if (prefix.every((byte, i) => bits[i] === byte))
            return (performance.now() - start) / 1000;
        }
      }, challenge);
    const rows: Array<{ label: string; seconds: number[] }> = [];
    const cases: Array<[string, GateDifficulty, number, typeof inWorker, number]> = [
      ['gate worker', 'base', 1, inWorker, sized(20, 2)],
      ['page thread', 'base', 1, onPage, sized(20, 1)],
      ['page thread', 'base', 4, onPage, sized(20, 1)],
      ...(smoke
        ? []
        : ([['gate worker', 'raised', 1, inWorker, 1]] as Array<
            [string, GateDifficulty, number, typeof inWorker, number]
          >)),
    ];
    for (const [where, difficulty, slowdown, solve, count] of cases) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
      const seconds: number[] = [];
      for (let run = 0; run < runs; run++)
        for (let i = 0; i < count; i++) seconds.push(await solve(await challengeOf(difficulty)));
      rows.push({ label: `${difficulty}, ${where}, CPU ${slowdown}× slower`, seconds });
    }
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    console.log(`\nChromium (${workerAsset}), wall seconds per challenge:`);
    for (const { label, seconds } of rows)
      console.log(
        `  ${label.padEnd(38)} mean ${s(mean(seconds))}, median ${s(median(seconds))}, longest ${s(Math.max(...seconds))} (${seconds.length} challenges)`,
      );
  } finally {
    await browser.close();
    server.close();
  }
}
