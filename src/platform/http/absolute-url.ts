import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';

/** An absolute URL on this server (TRAMITA_PUBLIC_URL, or the request's own host). */
export function absoluteUrl(req: FastifyRequest, config: Pick<Config, 'publicUrl'>, path: string): string {
  return `${config.publicUrl ?? `${req.protocol}://${req.host}`}${path}`;
}
