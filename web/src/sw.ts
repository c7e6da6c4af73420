// The app shell's service worker (registered by main.tsx in production builds): the installed app
// opens without the network, and each built file downloads once. Pages come from the network and
// fall back to the kept index.html when offline; built assets come from the cache. Nothing else is
// touched or kept (lib/app-shell.ts). The build writes the shell's file list in (vite-plugin-app-shell.ts).
import { shellRequest, type AppShell } from './lib/app-shell';

declare const self: ServiceWorkerGlobalScope;
declare const __APP_SHELL__: AppShell;

const shell = __APP_SHELL__;
const PREFIX = 'app-shell-';
const CACHE = `${PREFIX}${shell.version}`;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(shell.files)));
});

// An older build's files go once this one takes over.
self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys())
        if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const kind = shellRequest(event.request, self.location.origin);
  if (kind === 'page') event.respondWith(page(event.request));
  else if (kind === 'asset') event.respondWith(asset(event.request));
});

async function page(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch (offline) {
    const kept = await caches.match('/index.html', { cacheName: CACHE });
    if (kept) return kept;
    throw offline;
  }
}

async function asset(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') await cache.put(request, response.clone());
  return response;
}
