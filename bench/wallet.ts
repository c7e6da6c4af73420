// Wallet work in Chromium, as members' browsers do it: creation + encryption (scrypt N=131072,
// r=8, p=1) and decryption in the built wallet worker, and the longest main-thread task during
// each (the page must never freeze). RUNS rounds (default 5; --smoke: 1); medians printed.
import { readdirSync } from 'node:fs';
import path from 'node:path';

import { walletChallenge } from '@crw/server/testing/members';
import {
  launchChromium,
  median,
  repoRoot,
  sized,
  smokeNeedsChromium,
  startServer,
} from './lib/harness';

smokeNeedsChromium();
const runs = sized(Number(process.env.RUNS ?? 5), 1);
const workerAsset = readdirSync(path.join(repoRoot, 'web/dist/assets')).find((f) =>
  /^wallet\.worker-.*\.js$/.test(f),
);
if (!workerAsset) throw new Error('no built wallet worker: run `npm run build -w web` first');

const server = await startServer();
const base = server.url;
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  // tsx keeps function names with a helper that the page does not have.
  await page.addInitScript('window.__name = (fn) => fn');
  await page.goto(base);
  const rows: Array<{
    create: number;
    createLongest: number;
    decrypt: number;
    decryptLongest: number;
  }> = [];
  for (let run = 1; run <= runs; run++) {
    // Creation signs the server's wallet challenge too, as at sign-up.
    const challenge = await walletChallenge(base, 'register');
    const figures = await page.evaluate(
      async ({ workerUrl, challenge }) => {
        const longTasks: Array<[number, number]> = [];
        const observer = new PerformanceObserver((list) =>
          list.getEntries().forEach((e) => longTasks.push([e.startTime, e.duration])),
        );
        observer.observe({ type: 'longtask' });
        const task = (message: unknown) =>
          new Promise<{
            result: { wallet?: { keystore: string }; opens?: boolean };
            ms: number;
            longest: number;
          }>((resolve, reject) => {
            const worker = new Worker(workerUrl, { type: 'module' });
            const started = performance.now();
            worker.onmessage = (event) => {
              if (event.data.type === 'progress') return;
              const ended = performance.now();
              worker.terminate();
              if (event.data.type !== 'done') return reject(new Error(event.data.message));
              // Long tasks are reported a little after they end; wait one frame before reading.
              setTimeout(() => {
                const during = longTasks
                  .filter(([start]) => start >= started && start <= ended)
                  .map(([, d]) => d);
                resolve({
                  result: event.data.result,
                  ms: ended - started,
                  longest: Math.max(0, ...during),
                });
              }, 50);
            };
            worker.postMessage(message);
          });
        const created = await task({ kind: 'create', password: 'bench-password-1', challenge });
        const opened = await task({
          kind: 'check',
          keystore: created.result.wallet!.keystore,
          password: 'bench-password-1',
        });
        observer.disconnect();
        if (!opened.result.opens) throw new Error('the keystore did not open');
        return {
          create: created.ms,
          createLongest: created.longest,
          decrypt: opened.ms,
          decryptLongest: opened.longest,
        };
      },
      { workerUrl: `/assets/${workerAsset}`, challenge },
    );
    rows.push(figures);
    console.log(
      `run ${run}/${runs}: create+encrypt ${figures.create.toFixed(0)} ms (longest main-thread task ${figures.createLongest.toFixed(0)} ms), ` +
        `decrypt ${figures.decrypt.toFixed(0)} ms (longest main-thread task ${figures.decryptLongest.toFixed(0)} ms)`,
    );
  }
  // The instrument works: a 200 ms busy loop on the main thread shows up as a long task.
  const calibration = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let longest = 0;
        const observer = new PerformanceObserver((list) =>
          list.getEntries().forEach((e) => (longest = Math.max(longest, e.duration))),
        );
        observer.observe({ type: 'longtask' });
        // A real event-loop task (scripts run by the test driver itself are not reported).
        setTimeout(() => {
          const until = performance.now() + 200;
          while (performance.now() < until);
        }, 0);
        setTimeout(() => {
          observer.disconnect();
          resolve(longest);
        }, 400);
      }),
  );
  const m = (key: keyof (typeof rows)[number]) => median(rows.map((r) => r[key])).toFixed(0);
  console.log(`\nmedian of ${runs} runs in Chromium (wallet worker, scrypt N=131072 r=8 p=1):`);
  console.log(
    `wallet creation + encryption ${m('create')} ms, longest main-thread task ${m('createLongest')} ms`,
  );
  console.log(
    `wallet decryption            ${m('decrypt')} ms, longest main-thread task ${m('decryptLongest')} ms`,
  );
  console.log(
    `(check of the long-task observer: a 200 ms busy loop on the main thread registers as ${calibration.toFixed(0)} ms)`,
  );
} finally {
  await browser.close();
  server.stop();
}
