/**
 * The court codes of the settings, checked where sources are wired (issue 55 item 1): config.ts parses
 * TRAMITA_PORTAL_TRIBUNAIS, TRAMITA_CONSULTAS and TRAMITA_CONSULTA_<SIGLA>_URL as lists of siglas; which
 * of them are courts, and which courts have a known-open consultation, is the sources' knowledge.
 */
import { ConfigError, type Config } from '../config.ts';
import { courtBySigla } from '../platform/courts/table.ts';
import { CONSULTA_COURTS } from './consultas/courts.ts';

const CONSULTA_SIGLAS = CONSULTA_COURTS.map((c) => c.sigla);

export function checkCourtSettings(config: Pick<Config, 'portalCourts' | 'consultas' | 'consultaUrls'>): void {
  if (config.portalCourts !== 'all') {
    const unknown = config.portalCourts.filter((s) => !courtBySigla(s));
    if (unknown.length > 0) throw new ConfigError(`TRAMITA_PORTAL_TRIBUNAIS must be all or court siglas (TJBA, TRT2…), got "${unknown.join(', ')}"`);
  }
  if (Array.isArray(config.consultas)) {
    const unknown = config.consultas.filter((s) => !CONSULTA_SIGLAS.includes(s));
    if (unknown.length > 0)
      throw new ConfigError(`TRAMITA_CONSULTAS must be all, none or siglas among ${CONSULTA_SIGLAS.join(', ')}, got "${config.consultas.join(',')}"`);
  }
  for (const sigla of Object.keys(config.consultaUrls)) {
    if (!CONSULTA_SIGLAS.includes(sigla))
      throw new ConfigError(`TRAMITA_CONSULTA_${sigla}_URL: ${sigla} is not a court with a known-open consultation (${CONSULTA_SIGLAS.join(', ')})`);
  }
}
