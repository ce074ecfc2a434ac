import type { FastifyInstance } from 'fastify';
import type { Services } from '../../platform/services.ts';

export function courtRoutes(_app: FastifyInstance, _s: Services): void {}
