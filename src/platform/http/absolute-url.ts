/**
 * Absolute URLs on this server (`Location`, `statusUrl`, `links.next`, invitation links): from
 * TRAMITA_PUBLIC_URL, else from the server's own configuration (`http://TRAMITA_HOST:PORT`). Never from
 * the request's `Host` or `X-Forwarded-Host`/`-Proto`: a client writes those, and a link built from them
 * sends the next page, or the status to poll, to whatever host it named (issue 45).
 */
import { isIP } from 'node:net';
import { ConfigError, type Config } from '../../config.ts';

type UrlConfig = Pick<Config, 'publicUrl' | 'host' | 'port'>;

const UNSPECIFIED = new Set(['0.0.0.0', '::', '']);

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

/** TRAMITA_PUBLIC_URL, else this server's own address (all interfaces: seen from this machine). */
export function ownBaseUrl(config: UrlConfig): string {
  if (config.publicUrl) return config.publicUrl;
  const host = UNSPECIFIED.has(config.host) ? (config.host === '::' ? '::1' : '127.0.0.1') : config.host;
  return `http://${isIP(host) === 6 ? `[${host}]` : host}:${config.port}`;
}

export function absoluteUrl(config: UrlConfig, path: string): string {
  return `${ownBaseUrl(config)}${path}`;
}

/**
 * `tramita serve` without TRAMITA_PUBLIC_URL starts only where its own address is the one clients use:
 * bound to loopback and not behind a proxy. Elsewhere the configuration cannot say the public address.
 */
export function assertPublicUrlKnown(config: UrlConfig & Pick<Config, 'trustProxy'>): void {
  if (config.publicUrl) return;
  if (config.trustProxy !== false) {
    throw new ConfigError(
      'TRAMITA_TRUST_PROXY is set but TRAMITA_PUBLIC_URL is not: behind a proxy, set the address clients use ' +
        '(e.g. TRAMITA_PUBLIC_URL=https://api.example.com), which every absolute URL (statusUrl, links.next) is built from.',
    );
  }
  if (!isLoopback(config.host)) {
    throw new ConfigError(
      `TRAMITA_HOST=${config.host} accepts other machines, but TRAMITA_PUBLIC_URL is not set: set the address clients use ` +
        '(e.g. TRAMITA_PUBLIC_URL=https://api.example.com), which every absolute URL (statusUrl, links.next) is built from.',
    );
  }
}
