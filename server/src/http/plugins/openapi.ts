import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { version } from '../../version';

/** The OpenAPI document, generated from the routes' zod schemas, at /api/docs/json. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Community rewards wallet API', version },
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'The operator API key (OPERATOR_API_KEY)',
          },
          sessionCookie: { type: 'apiKey', in: 'cookie', name: 'crw.session_token' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  app.get('/api/docs/json', { schema: { hide: true } }, async () => app.swagger());
}
