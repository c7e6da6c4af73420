// The app shell's service worker (registered by main.tsx in production builds): the installed app
// opens without the network, and each built file downloads once. Pages come from the network and
// fall back to the kept index.html when offline; built assets come from the cache. Nothing else is
// touched or kept (lib/app-shell.ts). The build writes the shell's file list in (vite-plugin-app-shell.ts).
// It also shows the server's pushes as notifications (lib/push-message.ts), and a click opens the
// app on the push's page.
import { shellRequest, type AppShell } from './lib/app-shell';
import { appPath, readPushMessage } from './lib/push-message';

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

// Every push shows a notification (the browser requires it of a subscription: userVisibleOnly).
self.addEventListener('push', (event) => {
  let json: string | null = null;
  try {
    json = event.data?.text() ?? null;
  } catch {
    json = null;
  }
  const message = readPushMessage(json);
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: message.url },
    }),
  );
});

// A click opens the push's page in the app: in a window already open if there is one.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data as { url?: unknown } | null;
  const url = new URL(appPath(data?.url), self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      for (const open of windows) {
        if (new URL(open.url).origin !== self.location.origin) continue;
        // Only a window this worker controls can be navigated; another is left alone.
        const shown = await open.navigate(url).catch(() => null);
        if (shown) {
          await shown.focus().catch(() => undefined);
          return;
        }
      }
      await self.clients.openWindow(url);
    })(),
  );
});
