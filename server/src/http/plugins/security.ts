// Security headers for every response, and no caching of API, /auth and /dev answers.
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

const HSTS = 'max-age=31536000; includeSubDomains';

/** Browser features the app never uses are denied to it and to anything it embeds; it copies to the
 * clipboard, shares a referral link and signs in with passkeys (made and used only by the app itself). */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'serial=()',
  'usb=()',
  'clipboard-write=(self)',
  'web-share=(self)',
  'publickey-credentials-get=(self)',
].join(', ');

/** Answers that may carry a session, a two-factor secret, backup codes, a token or a mailed link:
 * no cache (the browser's, a proxy's) keeps a copy. */
const NEVER_STORED = ['/api/', '/auth/', '/dev/'];

export async function registerSecurity(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // No inline <style> or style attribute: the web build keeps libraries from writing <style>
        // elements (web/vite-plugin-no-runtime-styles.ts); React's style props go through the
        // CSSOM, which style-src does not govern.
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    // HSTS only means something over HTTPS: set below per request.
    strictTransportSecurity: false,
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    // By the matched route (a percent-encoded /%61pi/me is /api/me), else by the raw path.
    const path = request.routeOptions.url ?? request.url;
    if (NEVER_STORED.some((prefix) => path.startsWith(prefix)))
      reply.header('cache-control', 'no-store');
  });
}
