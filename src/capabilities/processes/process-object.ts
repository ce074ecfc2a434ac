/**
 * The cover in the shape integrators of the commercial service read (reference/integrator-conventions.md
 * §4.2, the Escavador process object): case-level fields at the top in snake_case, court data inside
 * `fontes[]` (one per instance, first instance first) with `tribunal {sigla, …}`, a `capa` of strings
 * and `envolvidos[]`. Tramita's own fields stay beside them (present.ts). `valor_causa` is the object
 * `{valor: "50000.00", moeda: "R$", valor_formatado: "R$ 50.000,00"}` at the top and in every `capa`
 * (spec §2.3: the same value at `data.valor_causa` and `data.fontes[0].capa.valor_causa`).
 */
import { brasiliaDateTime, formatReais } from '../../platform/format.ts';
import { courtBySigla, type Court } from '../../platform/courts/table.ts';
import type { MovementRecord } from '../../platform/ports/case-metadata.ts';
import type { PartyRecord } from '../../platform/ports/case-details.ts';
import { describeMovement } from './movement-text.ts';
import { EnvolvidoShape, FonteShape } from './schemas.ts';
import type { StoredCase, StoredInstance } from './store.ts';
import { grauOf } from './main-instance.ts';

/** TPU codes that close a case (tpu.md §4): 246 arquivamento definitivo, 22 baixa definitiva; 245 is provisional. */
const CLOSING_CODES = new Set(['246', '22']);
const PROVISIONAL_ARCHIVE = '245';

const SEGMENTOS: Record<string, string> = {
  Estadual: 'JUSTICA_ESTADUAL',
  Federal: 'JUSTICA_FEDERAL',
  Trabalho: 'JUSTICA_DO_TRABALHO',
  Eleitoral: 'JUSTICA_ELEITORAL',
  Militar: 'JUSTICA_MILITAR',
  'Militar Estadual': 'JUSTICA_MILITAR_ESTADUAL',
  Superior: 'TRIBUNAL_SUPERIOR',
};

export interface ValorCausa {
  valor: string;
  moeda: string;
  valor_formatado: string;
}

export function valorCausaObject(centavos: number | null): ValorCausa | null {
  if (centavos === null) return null;
  return { valor: (centavos / 100).toFixed(2), moeda: 'R$', valor_formatado: formatReais(centavos) };
}

export function isClosingMovement(codigo: string): boolean {
  return CLOSING_CODES.has(codigo);
}

/** What the movements say of the case's state: `Arquivado` after a closing movement, else `Ativo`. */
export function situacaoOf(latest: Pick<MovementRecord, 'codigo'> | null): string {
  if (!latest) return 'Ativo';
  if (CLOSING_CODES.has(latest.codigo)) return 'Arquivado';
  if (latest.codigo === PROVISIONAL_ARCHIVE) return 'Arquivado provisoriamente';
  return 'Ativo';
}

function tribunalObject(sigla: string, court: Court | undefined) {
  return {
    sigla,
    nome: court?.nome ?? sigla,
    segmento: court ? (SEGMENTOS[court.segmento] ?? court.segmento) : null,
    jtr: court ? `${court.j}${court.tr}` : null,
    estados: court?.ufs ?? [],
  };
}

function envolvido(p: PartyRecord, fonte: string | null) {
  const documento = p.documento;
  const cpf = documento && documento.length === 11 ? documento : null;
  const cnpj = documento && documento.length === 14 ? documento : null;
  return EnvolvidoShape.present({
    nome: p.nome,
    tipo: p.tipo || null,
    polo: p.polo.toUpperCase(),
    tipo_pessoa: p.tipoPessoa,
    cpf,
    cnpj,
    documento,
    documentos: documento ? [{ numero: documento, tipo: cpf ? 'CPF' : 'CNPJ' }] : [],
    advogados: p.advogados.map((a) => ({ nome: a.nome, tipo_pessoa: 'FISICA', oab: a.oab ? [{ numero: a.oab.numero, uf: a.oab.uf }] : [], fonte })),
    // Tramita's own: the source that gave this party (`DJEN`, `e-SAJ TJSP`, the provider's name).
    fonte,
  });
}

/**
 * The parties an instance lists: where each degree's page gave its own (issue 52 item 3: the appeal's
 * beside the first degree's), those of the instance's degree; else every party of the case.
 */
function partiesOfInstance(partes: readonly PartyRecord[], grau: string): readonly PartyRecord[] {
  if (!partes.some((p) => p.grau)) return partes;
  const degree = grauOf(grau).numero;
  return partes.filter((p) => !p.grau || grauOf(p.grau).numero === degree);
}

function ultimoMovimento(m: MovementRecord) {
  const local = brasiliaDateTime(m.dataHora);
  return { data: local.slice(0, 10), data_hora: local.replace(' ', 'T'), descricao: describeMovement(m), codigo: Number(m.codigo) || -1 };
}

function fonte(c: StoredCase, i: StoredInstance, court: Court | undefined, situacao: string) {
  const grau = grauOf(i.grau);
  const latest = c.ultimaMovimentacao && c.ultimaMovimentacao.grau === i.grau ? c.ultimaMovimentacao : null;
  return FonteShape.present({
    id: i.upstreamId,
    descricao: `${c.row.tribunal} - ${grau.nome}`,
    nome: court?.nome ?? c.row.tribunal,
    sigla: c.row.tribunal,
    tipo: 'TRIBUNAL',
    grau: grau.numero,
    grau_formatado: grau.nome,
    sistema: i.sistema?.nome ?? null,
    tribunal: tribunalObject(c.row.tribunal, court),
    capa: {
      classe: i.classe?.nome ?? null,
      assunto: i.assuntos[0]?.nome ?? null,
      orgao_julgador: i.orgaoJulgador?.nome ?? null,
      valor_causa: valorCausaObject(c.row.valor_causa_centavos),
      data_distribuicao: i.dataAjuizamento?.slice(0, 10) ?? null,
      data_ajuizamento: i.dataAjuizamento,
      situacao,
      ultimo_movimento: latest ? ultimoMovimento(latest) : null,
    },
    envolvidos: partiesOfInstance(c.partes ?? [], i.grau).map((p) => envolvido(p, c.row.partes_fonte)),
    quantidade_movimentacoes: i.quantidadeMovimentacoes,
    segredo_justica: i.nivelSigilo > 0,
    arquivado: situacao.startsWith('Arquivado'),
    // Tramita's own: where the data came from, and whether it is the sandbox's.
    fonteDados: c.row.fonte,
    sandbox: c.row.sandbox === 1,
    consultadoEm: c.row.consultado_em,
  });
}

/** The top-level fields and `fontes[]` of the process object, but its twins (CaseShape). */
export function processObject(c: StoredCase) {
  const court = courtBySigla(c.row.tribunal);
  const situacao = situacaoOf(c.ultimaMovimentacao);
  const ordered = [...c.instancias].sort((a, b) => grauOf(a.grau).numero - grauOf(b.grau).numero);
  const first = (polo: string) => c.partes?.find((p) => p.polo === polo)?.nome ?? null;
  const inicio = c.row.data_ajuizamento?.slice(0, 10) ?? null;
  return {
    titulo_polo_ativo: first('ATIVO'),
    titulo_polo_passivo: first('PASSIVO'),
    ano_inicio: inicio ? Number(inicio.slice(0, 4)) : null,
    data_inicio: inicio,
    data_ultima_movimentacao: c.ultimaMovimentacao ? brasiliaDateTime(c.ultimaMovimentacao.dataHora).slice(0, 10) : null,
    quantidade_movimentacoes: c.row.movimentos_total,
    fontes_tribunais_estao_arquivadas: situacao === 'Arquivado',
    nivel_sigilo: Math.max(0, ...c.instancias.map((i) => i.nivelSigilo)),
    ativo: situacao === 'Ativo',
    data_ultima_verificacao: c.row.consultado_em,
    valor_causa: valorCausaObject(c.row.valor_causa_centavos),
    fontes: ordered.map((i) => fonte(c, i, court, situacao)),
  };
}
