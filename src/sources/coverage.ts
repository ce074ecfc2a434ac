/**
 * Where each field of a case comes from, court by court, and which searches reach it (issue 32): one
 * function over the configuration's tables (the consultations' courts.ts and closed-courts.ts, the
 * systems' offers in systems.ts, DataJud's aliases in the courts table, DJEN, the provider's courts),
 * read by `npm run docs` for docs/coverage.md (the default configuration) and by `GET /v1/integrador`
 * (this deployment's), so neither can drift from the configuration.
 */
import { COURTS, type Court } from '../platform/courts/table.ts';
import { DJEN_FONTE } from '../platform/ports/case-details.ts';
import { closedCourt } from './consultas/closed-courts.ts';
import { CONSULTA_COURTS, consultaCourt } from './consultas/courts.ts';
import { consultaLabel, SYSTEM_LABELS, SYSTEM_OFFERS, type ConsultaSearch } from './consultas/systems.ts';

export type ConsultaState = 'aberta' | 'captcha' | 'anti_bot' | 'login' | 'desconhecida';

/** What a deployment reads: the enabled consultations, and the case-details provider with its courts. */
export interface CoverageConfig {
  consultas: readonly string[];
  provider: { nome: string; courts: 'all' | readonly string[] } | null;
}

/** What `npm run docs` documents: every open consultation enabled, no provider. */
export const DEFAULT_COVERAGE_CONFIG: CoverageConfig = { consultas: CONSULTA_COURTS.map((c) => c.sigla), provider: null };

/** `armazenado`: what Tramita already stored (cases looked up before, their parties and lawyers). */
export const STORED = 'armazenado';
const SEARCHES: readonly ConsultaSearch[] = ['cpf_cnpj', 'nome', 'oab'];

export interface CourtCoverage {
  tribunal: string;
  /** The consultation's system (`e-SAJ`, `PJe consulta pública`, `eproc`…); null when not surveyed. */
  sistema: string | null;
  consulta: ConsultaState;
  /** The consultation is read by this deployment (TRAMITA_CONSULTAS). */
  consultaHabilitada: boolean;
  nota: string | null;
  /** Per field, the sources that give it, in the order they are asked. */
  campos: { capa: string[]; movimentos: string[]; textosMovimentos: string[]; partes: string[]; advogados: string[]; valor: string[]; documentos: string[] };
  /** Per search, what it reaches for this court's cases. */
  buscas: { tipo: ConsultaSearch; fontes: string[] }[];
}

export function courtCoverage(court: Court, cfg: CoverageConfig): CourtCoverage {
  const open = consultaCourt(court.sigla);
  const closed = closedCourt(court.sigla);
  const enabled = open !== undefined && cfg.consultas.includes(court.sigla);
  const consulta = enabled ? consultaLabel(open) : null;
  const provider = cfg.provider && (cfg.provider.courts === 'all' || cfg.provider.courts.includes(court.sigla)) ? cfg.provider.nome : null;
  // A case is looked up through DataJud, or through an enabled consultation when DataJud has no index or not the case yet.
  const reachable = court.datajudAlias !== null || enabled;
  const list = (...names: (string | null | false)[]) => (reachable ? names.filter((n): n is string => typeof n === 'string') : []);
  const datajud = court.datajudAlias !== null && 'DataJud';
  const offers = open ? SYSTEM_OFFERS[open.sistema] : null;
  return {
    tribunal: court.sigla,
    sistema: open ? SYSTEM_LABELS[open.sistema] : (closed?.sistema ?? null),
    consulta: open ? 'aberta' : (closed?.motivo ?? 'desconhecida'),
    consultaHabilitada: enabled,
    nota: open?.nota ?? closed?.nota ?? null,
    campos: {
      capa: list(datajud, consulta),
      movimentos: list(datajud, consulta),
      textosMovimentos: list(consulta),
      partes: list(provider, consulta, DJEN_FONTE),
      advogados: list(provider, consulta, DJEN_FONTE),
      valor: list(provider, offers?.valor === true && consulta),
      documentos: list(provider),
    },
    buscas: SEARCHES.map((tipo) => ({
      tipo,
      fontes: !reachable
        ? []
        : [
            STORED,
            ...(tipo !== 'oab' && provider ? [provider] : []),
            ...(consulta && offers!.buscas.includes(tipo) ? [consulta] : []),
            ...(tipo === 'oab' ? [DJEN_FONTE] : []),
          ],
    })),
  };
}

/**
 * The summary of a court's coverage (`cobertura` of `GET /v1/integrador`): the sources that give any
 * field of its cases, in the order first asked, and the fields some source gives. Read from
 * `courtCoverage`, so it says what `origens` says, for the same configuration.
 */
export function coverageSummary(c: CourtCoverage): { fontes: string[]; recursos: string[] } {
  const fields = Object.entries(c.campos).filter(([, names]) => names.length > 0);
  return { fontes: [...new Set(fields.flatMap(([, names]) => names))], recursos: fields.map(([field]) => field) };
}

export function coverageTable(cfg: CoverageConfig): CourtCoverage[] {
  return COURTS.map((c) => courtCoverage(c, cfg));
}

const cell = (names: string[]) => (names.length === 0 ? '—' : names.join(' → '));

/** docs/coverage.md: the default configuration's table, court by court. */
export function coverageMarkdown(): string {
  const rows = coverageTable(DEFAULT_COVERAGE_CONFIG);
  const searchCell = (c: CourtCoverage, tipo: ConsultaSearch) => cell(c.buscas.find((b) => b.tipo === tipo)!.fontes);
  return [
    '# Coverage: where each field comes from, court by court',
    '',
    "<!-- Generated by `npm run docs` from src/sources/coverage.ts (courts.ts, closed-courts.ts, systems.ts, the courts table's DataJud aliases); do not " +
      'edit. -->',
    '',
    'For the default configuration: every court consultation that reads without a challenge enabled (`TRAMITA_CONSULTAS=all`), no case-details provider.',
    "`GET /v1/integrador` answers the same, per court (`origens`), for the running deployment's configuration (which consultations are enabled, the provider " +
      'and its',
    '`TRAMITA_PORTAL_TRIBUNAIS`). Sources are listed in the order they are asked: `a → b` means b only where a does not answer (or, for parties, where a ' +
      "court's consultation fails).",
    '',
    "- **Cover, class, subjects, court unit, movements**: DataJud (TPU codes); the court's consultation answers alone for a case DataJud does not know yet.",
    "- **Parties, lawyers**: the case-details provider for its courts, then the court's consultation, then the addressees of the case's DJEN communications",
    '  (`fonte: DJEN`: no CPF/CNPJ, a lawyer placed beside the addressees of a communication sent to one pole). Each party says its `fonte`.',
    '- **Value**: the provider, or the consultation where its system prints it (e-SAJ); DJEN gives none. **Movement texts**: the consultation.',
    '- **Consultation** `aberta`: read by Tramita; `captcha`, `anti_bot`, `login`: never passed (DESIGN.md §8); `desconhecida`: not surveyed.',
    `- **Searches**: \`${STORED}\` is what Tramita already stored (cases looked up before, their parties and lawyers); the OAB search also asks DJEN;`,
    '  a provider answers CPF/CNPJ and name searches; a consultation answers the searches its system offers (`SYSTEM_OFFERS` in ' +
      'src/sources/consultas/systems.ts).',
    '',
    '| court | system | consultation | cover, movements | parties, lawyers | value | movement texts | CPF/CNPJ search | name search | OAB search | note |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (c) =>
        `| ${c.tribunal} | ${c.sistema ?? '—'} | ${c.consulta} | ${cell(c.campos.capa)} | ${cell(c.campos.partes)} | ${cell(c.campos.valor)} ` +
        `| ${cell(c.campos.textosMovimentos)} | ${searchCell(c, 'cpf_cnpj')} | ${searchCell(c, 'nome')} | ${searchCell(c, 'oab')} ` +
        `| ${c.nota ?? ''} |`,
    ),
    '',
  ].join('\n');
}
