// Builds the Fastify app from its services; main.ts listens, tests use inject().
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import { attemptLimits, reauthenticationLimits } from './http/guards/attempt-limits';
import { signupGate } from './http/guards/signup-gate';
import { authRoutes } from './http/routes/auth-proxy';
import { trustedOrigins } from './infra/identity/auth';
import { recordTrustedAddress } from './http/guards/client-address';
import { decorateMember } from './http/guards/member-scope';
import { accountRoutes } from './http/routes/member/account';
import { passkeyRoutes, passkeySignInRoutes } from './http/routes/member/passkeys';
import { settingsRoutes } from './http/routes/member/settings';
import { signupGateRoutes } from './http/routes/member/signup-gate';
import { devRoutes } from './http/routes/dev';
import { operatorRoutes } from './http/routes/operator-api/routes';
import { referralRoutes } from './http/routes/member/referrals';
import { notificationRoutes, unsubscribeRoutes } from './http/routes/member/notifications';
import { pushRoutes } from './http/routes/member/push';
import { activityRoutes } from './http/routes/member/activity';
import { conversionRoutes } from './http/routes/member/conversions';
import { eventRoutes } from './http/routes/member/events';
import { claimRoutes } from './http/routes/member/claims';
import { consoleRoutes } from './http/routes/console/routes';
import { rpcRoutes } from './http/routes/rpc/routes';
import { handoffRoutes } from './http/routes/member/handoff';
import { healthRoutes } from './http/routes/health';
import { logOptions } from './logging';
import { registerErrorHandling } from './http/plugins/errors';
import { registerOpenApi } from './http/plugins/openapi';
import { trackInFlight } from './http/plugins/in-flight';
import { registerRequestMetrics } from './http/plugins/request-metrics';
import { registerMetrics } from './http/routes/operator-api/metrics';
import { registerOriginCheck } from './http/plugins/origin-check';
import { registerSecurity } from './http/plugins/security';
import { registerSpa } from './http/plugins/spa';
import type { Config } from './config';
import type { AppServices } from './services';

/** Fastify turns a bare hop count into "trust no one" (it cannot vouch for the nearest peer); we
 * keep the hop count's meaning, which holds when clients reach the server only through those
 * proxies (see the README and docs/decisions/0010). An address list goes to Fastify as it is. */
export function trustProxy(setting: Config['TRUST_PROXY']): FastifyServerOptions['trustProxy'] {
  return typeof setting === 'number' ? (_address: string, hop: number) => hop < setting : setting;
}

/** Every method but GET and HEAD, and every /auth route (following a confirmation link credits). */
function mayWrite(method: string, url: string): boolean {
  return (
    (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') || url.startsWith('/auth/')
  );
}

export async function buildApp(
  services: AppServices,
  opts: { logStream?: DestinationStream } = {},
): Promise<FastifyInstance> {
  const { config } = services;
  const app = Fastify({
    logger: {
      ...logOptions(config.LOG_LEVEL),
      ...(opts.logStream ? { stream: opts.logStream } : {}),
    },
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: trustProxy(config.TRUST_PROXY),
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    // A request that reaches a kept-alive connection while closing is still served (its answer
    // says connection: close): members see an answer or a refused connection, never a 503.
    return503OnClosing: false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // While shutting down, responses close their connection so no idle keep-alive holds up the exit.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (request, reply) => {
    if (closing) reply.header('connection', 'close');
    // A request that may have written answers once this process heard what it changed, so the
    // member's next read here is not an old copy (domain/members/member-cache.ts).
    if (
      services.memberCache.enabled &&
      reply.statusCode < 400 &&
      mayWrite(request.method, request.url)
    )
      await services.events.fence();
  });

  trackInFlight(app);
  decorateMember(app);
  recordTrustedAddress(app);
  registerErrorHandling(app);
  await registerSecurity(app);
  registerOriginCheck(app, trustedOrigins(config));
  registerMetrics(app, registerRequestMetrics(app), services);
  await registerOpenApi(app);

  const limits = attemptLimits(config, services.database.db);
  const gate = await signupGate(config, services.database.db);
  await app.register(healthRoutes(services), { prefix: '/api' });
  await app.register(accountRoutes(services, limits.check, gate), { prefix: '/api' });
  await app.register(signupGateRoutes(gate, limits.check), { prefix: '/api' });
  await app.register(settingsRoutes(services), { prefix: '/api/account' });
  await app.register(passkeyRoutes(services), { prefix: '/api/account/passkeys' });
  await app.register(passkeySignInRoutes(services, limits.check), { prefix: '/api/passkeys' });
  await app.register(referralRoutes(services, limits.check), { prefix: '/api/referrals' });
  await app.register(conversionRoutes(services), { prefix: '/api/conversions' });
  await app.register(activityRoutes(services), { prefix: '/api/activity' });
  await app.register(notificationRoutes(services), { prefix: '/api/notifications' });
  await app.register(unsubscribeRoutes(services), { prefix: '/api/unsubscribe' });
  await app.register(pushRoutes(services), { prefix: '/api/push' });
  await app.register(operatorRoutes(services), { prefix: '/api/operator' });
  await app.register(consoleRoutes(services), { prefix: '/api/console' });
  await app.register(claimRoutes(services), { prefix: '/api' });
  await app.register(handoffRoutes(services, limits.check), { prefix: '/api/handoff' });
  await app.register(rpcRoutes(services));
  await app.register(
    authRoutes(
      services.auth,
      config,
      limits,
      reauthenticationLimits(config, services.database.db),
      gate,
    ),
  );
  await app.register(eventRoutes(services), { prefix: '/api' });
  // With SMTP, /dev/mail would send as the product to anyone; the mailbox belongs to the dev transport.
  if (!config.isProduction && services.transport.kind === 'dev-mailbox')
    await app.register(devRoutes(services), { prefix: '/dev' });
  await registerSpa(app, config.WEB_DIST_DIR);
  return app;
}
