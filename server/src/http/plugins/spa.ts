// Serves the built SPA: hashed assets cached for a year, index.html for every other page route.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { errorBody } from '@crw/core';
import type { FastifyInstance } from 'fastify';

const API_PREFIXES = ['/api/', '/auth/', '/rpc', '/dev/'];

export async function registerSpa(app: FastifyInstance, distDir: string): Promise<void> {
  const hasSpa = existsSync(path.join(distDir, 'index.html'));
  if (hasSpa) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      cacheControl: false,
      preCompressed: true,
      setHeaders: (res, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader(
          'cache-control',
          immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  } else {
    app.log.warn(
      { distDir },
      'no built web app found; run `npm run build -w web` (the API still works)',
    );
  }

  app.setNotFoundHandler((request, reply) => {
    const accept = request.headers.accept ?? '*/*';
    const wantsHtml = accept.includes('text/html') || accept.includes('*/*');
    const isPage = request.method === 'GET' && !API_PREFIXES.some((p) => request.url.startsWith(p));
    if (isPage && hasSpa && wantsHtml) {
      return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
    }
    return reply.status(404).send(errorBody('not_found'));
  });
}
