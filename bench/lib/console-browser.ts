// The operator console's rounds screen in Chromium (its goal: the dry run of a
// round for a million members rendered without freezing the page — no main-thread task over
// 200 ms, virtualized rows). The page is opened with an operator's session cookies, long tasks
// are observed from before the app's first script, and the dry-run table is scrolled through
// positions far apart and a few consecutive steps, waiting for the rows each time.
import type { Page } from '@playwright/test';
import { launchChromium } from './harness';

/** The table's fixed row height (rounds-screen.tsx), to tell which rows a scroll position shows. */
const ROW_HEIGHT = 44;
const TABLE = '[role="table"][aria-label="Who gains in the next round"]';

interface LongTask {
  start: number;
  ms: number;
}

export interface ScrollStop {
  label: string;
  /** scrollTop asked for, and where the browser put it (it clamps to what it laid out). */
  asked: number;
  scrollTop: number;
  /** From setting scrollTop to the frame where every row element shows its data. */
  loadedMs: number;
  /** The first and last data row (0-based) in the DOM then, and how many row elements. */
  firstRow: number;
  lastRow: number;
  rowElements: number;
}

export interface RoundsScreenFigures {
  /** Page clock (ms since navigation): "Working out the round…" shown, first data rows shown. */
  workingAt: number | null;
  firstRowsAt: number;
  /** aria-rowcount − 1: the rows the table says it has. */
  rows: number;
  /** The spacer's height as set (rows × 44 px) and as laid out; the scroller's scrollHeight. */
  spacerSet: number;
  spacerLaidOut: number;
  scrollHeight: number;
  clientHeight: number;
  stops: ScrollStop[];
  maxRowElements: number;
  /** Elements in the whole document at the end. */
  domElements: number;
  heapMb: number | null;
  loadTasks: LongTask[];
  scrollTasks: LongTask[];
}

interface Rows {
  /** Every row element shows its data (a wallet link), not "Loading…". */
  loaded: boolean;
  /** The first and last data row (0-based) among the row elements, and how many there are. */
  first: number;
  last: number;
  count: number;
}
type Globals = { __longTasks: LongTask[]; __rows: (table: string) => Rows };

/** The time of the first animation frame at which `fn(arg)` holds (page clock), as web.ts does. */
const frameWhen = <A>(page: Page, fn: (arg: A) => number | false, arg: A, timeout: number) =>
  page
    .waitForFunction(fn as (arg: unknown) => number | false, arg, { polling: 'raf', timeout })
    .then((handle) => handle.jsonValue() as Promise<number>);

export async function measureRoundsScreen(opts: {
  base: string;
  cookies: Array<{ name: string; value: string }>;
  /** How long the first rows may take (the server works out the whole round first). */
  firstRowsTimeoutMs: number;
}): Promise<RoundsScreenFigures> {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies(opts.cookies.map((c) => ({ ...c, url: opts.base })));
    await context.addInitScript('window.__name = (fn) => fn'); // tsx names functions with a helper the page lacks
    // What signing in leaves in the browser besides the cookie: member pages (the console among
    // them) need it (member-gate.tsx).
    await context.addInitScript(() => localStorage.setItem('allowed', 'true'));
    // Registered before any of the app's scripts run; buffered in case the page's first tasks
    // came before the observer.
    await context.addInitScript(() => {
      const w = window as unknown as Globals;
      w.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries())
          w.__longTasks.push({ start: e.startTime, ms: e.duration });
      }).observe({ type: 'longtask', buffered: true });
      // The rows of the table's scrolling body (its second rowgroup).
      w.__rows = (table) => {
        const scroller = document.querySelectorAll(`${table} [role="rowgroup"]`)[1];
        const rows = Array.from(scroller?.querySelectorAll('[role="row"]') ?? []);
        const indexes = rows.map((r) => Number(r.getAttribute('aria-rowindex')) - 2);
        return {
          loaded: rows.length > 0 && rows.every((r) => r.querySelector('a') !== null),
          first: Math.min(...indexes),
          last: Math.max(...indexes),
          count: rows.length,
        };
      };
    });
    const page = await context.newPage();
    // What went wrong, for the error when the rows never show.
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${opts.base}/operator/rounds`, { waitUntil: 'commit' });
    const working = frameWhen(
      page,
      () =>
        (document.body?.textContent ?? '').includes('Working out the round…') && performance.now(),
      undefined,
      opts.firstRowsTimeoutMs,
    ).catch(() => null);
    const firstRowsAt = await frameWhen(
      page,
      (table) => (window as unknown as Globals).__rows(table).loaded && performance.now(),
      TABLE,
      opts.firstRowsTimeoutMs,
    ).catch(async (error: unknown) => {
      const text = await page
        .evaluate(() => document.body?.innerText ?? '')
        .catch(() => '(page unreadable)');
      throw new Error(
        `no rows in the dry-run table (${(error as Error).message.split('\n')[0]}); ${page.url()} shows:\n${text.slice(0, 800)}\n${problems.join('\n')}`,
      );
    });
    const workingAt = await working;

    const sizes = await page.evaluate((table) => {
      const scroller = document.querySelectorAll(`${table} [role="rowgroup"]`)[1] as HTMLElement;
      const spacer = scroller.firstElementChild as HTMLElement;
      return {
        rows: Number(document.querySelector(table)!.getAttribute('aria-rowcount')) - 1,
        spacerSet: parseFloat(spacer.style.height),
        spacerLaidOut: spacer.getBoundingClientRect().height,
        scrollHeight: scroller.scrollHeight,
        clientHeight: scroller.clientHeight,
      };
    }, TABLE);
    const range = sizes.scrollHeight - sizes.clientHeight;

    /** Scrolls the table's body to `top` (instantly, as dragging the scroll bar does) and waits
     * for the frame where the rows there show their data. */
    const stopAt = async (label: string, top: number): Promise<ScrollStop> => {
      const { scrollTop, at } = await page.evaluate(
        ([table, to]) => {
          const scroller = document.querySelectorAll(
            `${table} [role="rowgroup"]`,
          )[1] as HTMLElement;
          scroller.scrollTop = to;
          return { scrollTop: scroller.scrollTop, at: performance.now() };
        },
        [TABLE, top] as const,
      );
      // The row at the top of the view must be among the rows drawn: then they are this
      // position's, not the previous one's.
      const expected = Math.floor(scrollTop / ROW_HEIGHT);
      const loadedAt = await frameWhen(
        page,
        ([table, row]) => {
          const now = (window as unknown as Globals).__rows(table);
          return now.loaded && now.first <= row && now.last >= row && performance.now();
        },
        [TABLE, Math.min(expected, sizes.rows - 1)] as const,
        // Long enough for a page that waits for the round to be worked out again.
        opts.firstRowsTimeoutMs,
      );
      const now = await page.evaluate(
        (table) => (window as unknown as Globals).__rows(table),
        TABLE,
      );
      return {
        label,
        asked: top,
        scrollTop,
        loadedMs: loadedAt - at,
        firstRow: now.first,
        lastRow: now.last,
        rowElements: now.count,
      };
    };

    const stops: ScrollStop[] = [];
    for (const f of [0.1, 0.5, 0.9, 1])
      stops.push(await stopAt(`${Math.round(f * 100)}%`, Math.round(f * range)));
    // Reading on from 30%, 100 rows at a time: every other step needs a page not yet loaded (the
    // server answers 200 rows a page).
    const from = Math.round(0.3 * range);
    for (let step = 0; step < 6; step++)
      stops.push(await stopAt(`30% + ${step * 100} rows`, from + step * 100 * ROW_HEIGHT));
    // Back near the top, where the first page is already loaded.
    stops.push(await stopAt('row 1,000', 1000 * ROW_HEIGHT));
    // An operator still reading once the server's dry run is older than its 30 s (counted from
    // when its computation began, before the first rows): a page not yet loaded.
    const clock = await page.evaluate(() => performance.now());
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, firstRowsAt + 31_000 - clock)));
    stops.push(await stopAt('70%, 30 s on', Math.round(0.7 * range)));

    const end = await page.evaluate(() => ({
      tasks: (window as unknown as Globals).__longTasks,
      domElements: document.getElementsByTagName('*').length,
      heap:
        (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory
          ?.usedJSHeapSize ?? null,
    }));
    return {
      workingAt,
      firstRowsAt,
      ...sizes,
      stops,
      maxRowElements: Math.max(...stops.map((s) => s.rowElements)),
      domElements: end.domElements,
      heapMb: end.heap === null ? null : end.heap / 1024 / 1024,
      loadTasks: end.tasks.filter((t) => t.start < firstRowsAt),
      scrollTasks: end.tasks.filter((t) => t.start >= firstRowsAt),
    };
  } finally {
    await browser.close();
  }
}
