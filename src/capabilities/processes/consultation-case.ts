/**
 * The case record of a case only a court's consultation page knows (DataJud has not indexed it yet,
 * issue 31): one instance of the page's degree with the page's names (no TPU codes: empty `codigo`),
 * its distribution as the filing date, its secrecy as the level; what the page does not say (format, last update) is null. The page's movements and parties are
 * saved as details (store.saveDetails), so they merge with DataJud's once it lists the case.
 */
import { brasiliaDayStart, isoDayOf } from '../../platform/format.ts';
import type { CaseRecord } from '../../platform/ports/case-metadata.ts';
import type { CaseDetailsRecord } from '../../platform/ports/case-details.ts';

const SYSTEMS: Record<string, string> = { esaj: 'e-SAJ', pje: 'PJe', tjdft: 'PJe' };

export function caseOfConsultation(tribunal: string, details: CaseDetailsRecord): CaseRecord {
  const c = details.consulta!;
  const grau = c.grau === 2 ? 'G2' : 'G1';
  const filed = c.distribuidoEm ? (isoDayOf(c.distribuidoEm) ? brasiliaDayStart(c.distribuidoEm) : new Date(c.distribuidoEm).toISOString()) : null;
  return {
    numeroCnj: details.numeroCnj,
    tribunal,
    atualizadoEm: null,
    raw: [],
    instancias: [
      {
        grau,
        upstreamId: `${c.fonte}:${details.numeroCnj}:${grau}`,
        classe: c.classe ? { codigo: '', nome: c.classe } : null,
        assuntos: c.assuntos.map((nome) => ({ codigo: '', nome })),
        orgaoJulgador: c.orgao ? { codigo: '', nome: c.orgao, codigoMunicipioIBGE: null } : null,
        sistema: { codigo: '', nome: SYSTEMS[c.sistema] ?? c.sistema },
        formato: null,
        nivelSigilo: c.segredo ? 1 : 0,
        dataAjuizamento: filed,
        dataHoraUltimaAtualizacao: null,
        movimentos: [],
      },
    ],
  };
}
