/**
 * Upstream body limits (TRAMITA_UPSTREAM_MAX_BYTES, TRAMITA_UPSTREAM_IDLE_TIMEOUT_MS): the upstream HTTP
 * layer's vocabulary, parsed by the settings table (config.ts) and applied by body.ts. A leaf: config.ts imports it.
 */
import { ConfigError } from '../../config-error.ts';

/** The upstreams whose bodies have a size limit of their own: the sources' names, and DJEN's caderno ZIPs apart. */
export const UPSTREAM_BODY_SOURCES = [
  'datajud',
  'djen',
  'djen-caderno',
  'portal',
  'modelo',
  'stf',
  'dje-eleitoral',
  'mural',
  'mandados',
  'protocolo',
  'tjrj',
  'consultas',
] as const;
export type UpstreamBodySource = (typeof UPSTREAM_BODY_SOURCES)[number];

const MB = 1024 * 1024;

/**
 * Largest body read from each upstream, decompressed. JSON APIs get a few times their largest page
 * as estimated, not measured (DataJud documents are ~8 KB in reference/upstream's sample and several
 * times that with hundreds of movements, so a 1,000-document scan page may reach tens of MB; a DJEN
 * page of long judgments, a caderno's JSON page and an STF day page a few MB); documents and gazette
 * PDFs more; a caderno ZIP streams to disk (TJSP's is ~120 MB), so its limit bounds the disk.
 */
export const DEFAULT_UPSTREAM_MAX_BYTES: Record<UpstreamBodySource, number> = {
  datajud: 64 * MB,
  djen: 32 * MB,
  'djen-caderno': 1024 * MB,
  portal: 32 * MB,
  modelo: 4 * MB,
  stf: 32 * MB,
  'dje-eleitoral': 128 * MB,
  mural: 32 * MB,
  mandados: 4 * MB,
  protocolo: 4 * MB,
  tjrj: 16 * MB,
  // A TJSP case page with 118 movements is 180 KB; a decision-heavy one a few MB at most.
  consultas: 16 * MB,
};
export const DEFAULT_UPSTREAM_IDLE_TIMEOUT_MS = 15_000;

/** 64MB, 1GB…: how the configuration page writes a default. */
export function formatSize(bytes: number): string {
  return bytes % (1024 * MB) === 0
    ? `${bytes / (1024 * MB)}GB`
    : bytes % MB === 0
      ? `${bytes / MB}MB`
      : bytes % 1024 === 0
        ? `${bytes / 1024}KB`
        : String(bytes);
}

/** `datajud=32MB,djen-caderno=2GB`: overrides some sources, the rest keep their defaults. */
export function parseUpstreamMaxBytes(raw: string): Record<UpstreamBodySource, number> {
  const limits = { ...DEFAULT_UPSTREAM_MAX_BYTES };
  for (const part of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([a-z-]+)=(\d+)(KB|MB|GB)?$/i.exec(part);
    if (!m || !UPSTREAM_BODY_SOURCES.includes(m[1] as UpstreamBodySource)) {
      throw new ConfigError(
        `TRAMITA_UPSTREAM_MAX_BYTES: "${part}" is not SOURCE=SIZE (sources: ${UPSTREAM_BODY_SOURCES.join(', ')}; size in bytes or with KB, MB, GB)`,
      );
    }
    const bytes = Number(m[2]) * { '': 1, KB: 1024, MB, GB: 1024 * MB }[(m[3] ?? '').toUpperCase() as '' | 'KB' | 'MB' | 'GB'];
    if (bytes < 1024 || !Number.isSafeInteger(bytes)) throw new ConfigError(`TRAMITA_UPSTREAM_MAX_BYTES: "${part}" must be at least 1KB`);
    limits[m[1] as UpstreamBodySource] = bytes;
  }
  return limits;
}
