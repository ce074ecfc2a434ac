/**
 * The simulated Protocolo Integrado's processes: for each of a few real protocol units (the NUP's
 * first five digits, so the NUPs pass Tramita's coverage check), a dozen fictitious processes per
 * year with valid check digits, interested parties drawn from the data set's fictitious people, and
 * three to eight tramitações between fictitious units, none after the data set's `now`.
 * Deterministic from the seed. Knob `captcha`: every page is a captcha page. `addMovement` is how
 * a test (or a person, POST /_sandbox/protocolo/tramitacao) makes news for a monitor.
 */
import { nupCheckDigits } from '../../platform/identifiers/nup.ts';
import type { SandboxDataset } from '../data/dataset.ts';
import { Random } from '../data/prng.ts';

export interface SandboxMovement {
  at: number;
  operacao: string;
  origem: string;
  destino: string;
}

export interface SandboxAdministrativeProcess {
  nup: string;
  tipo: string;
  assunto: string;
  interessados: string[];
  orgao: string;
  autuadoAt: number;
  movements: SandboxMovement[];
}

/** Real protocol-unit codes of config/orgaos-administrativos.json, with the body's name as the page prints it. */
const UNITS: readonly { up: string; orgao: string }[] = [
  { up: '00190', orgao: 'CONTROLADORIA-GERAL DA UNIÃO' },
  { up: '25000', orgao: 'MINISTÉRIO DA SAÚDE' },
  { up: '23000', orgao: 'MINISTÉRIO DA EDUCAÇÃO' },
  { up: '53500', orgao: 'AGÊNCIA NACIONAL DE TELECOMUNICAÇÕES' },
  { up: '48500', orgao: 'AGÊNCIA NACIONAL DE ENERGIA ELÉTRICA' },
];
const PER_YEAR = 12;
const YEARS_BACK = 3;

const TIPOS = ['Processo', 'Processo Administrativo', 'Documento Avulso'];
const ASSUNTOS = [
  'Pedido de acesso à informação (Lei 12.527/2011)',
  'Representação por irregularidade em contrato (fictício)',
  'Requerimento de revisão de benefício (fictício)',
  'Auto de infração e defesa administrativa (fictício)',
  'Licitação: recurso administrativo (fictício)',
  'Termo de ajustamento de conduta (fictício)',
];
const UNIDADES = [
  'Protocolo Central (fictício)',
  'Coordenação-Geral de Análise (fictícia)',
  'Divisão de Instrução (fictícia)',
  'Gabinete (fictício)',
  'Consultoria Jurídica (fictícia)',
  'Arquivo Setorial (fictício)',
];
const OPERACOES = ['Envio', 'Recebimento', 'Juntada de documento', 'Despacho', 'Encaminhamento para manifestação'];

export function sandboxNup(up: string, seq: number, year: number): string {
  const first15 = `${up}${String(seq).padStart(6, '0')}${year}`;
  return `${first15}${nupCheckDigits(first15)}`;
}

export class ProtocoloRegistry {
  readonly #dataset: SandboxDataset;
  #processes: Map<string, SandboxAdministrativeProcess> | null = null;
  captcha = false;

  constructor(dataset: SandboxDataset) {
    this.#dataset = dataset;
  }

  set(knobs: { captcha?: unknown }): void {
    for (const k of Object.keys(knobs)) if (k !== 'captcha') throw new RangeError(`protocolo: unknown setting "${k}" (known: captcha)`);
    if (knobs.captcha !== undefined && typeof knobs.captcha !== 'boolean') throw new RangeError('protocolo: captcha must be a boolean');
    this.captcha = knobs.captcha === true;
  }

  get(): { captcha: boolean; processos: number } {
    return { captcha: this.captcha, processos: this.#index().size };
  }

  reset(): void {
    this.captcha = false;
  }

  /** The process as the page shows it at `now` (movements dated later are not there yet). */
  find(nup: string, now: number): SandboxAdministrativeProcess | null {
    const p = this.#index().get(nup);
    if (!p || p.autuadoAt > now) return null;
    return { ...p, movements: p.movements.filter((m) => m.at <= now) };
  }

  /** A new tramitação of `nup` at `at`; throws RangeError for a NUP the registry does not have. */
  addMovement(nup: string, at: number, operacao = 'Recebimento'): SandboxMovement {
    const p = this.#index().get(nup);
    if (!p) throw new RangeError(`protocolo: no sandbox process ${nup}`);
    const last = p.movements.at(-1);
    const movement = {
      at: Math.max(at, (last?.at ?? p.autuadoAt) + 60_000),
      operacao,
      origem: last?.destino ?? UNIDADES[0],
      destino: UNIDADES[(p.movements.length + 1) % UNIDADES.length],
    };
    p.movements.push(movement);
    return movement;
  }

  /** A NUP it has, and a valid one of a covered body that it has not, for the banner and the tests. */
  examples(): { encontrado: string; naoEncontrado: string } {
    const year = new Date(this.#dataset.anchor.getTime()).getUTCFullYear() - 1;
    return { encontrado: sandboxNup(UNITS[0].up, 1, year), naoEncontrado: sandboxNup(UNITS[0].up, 999_999, year) };
  }

  #index(): Map<string, SandboxAdministrativeProcess> {
    if (this.#processes) return this.#processes;
    const out = new Map<string, SandboxAdministrativeProcess>();
    const anchor = this.#dataset.anchor.getTime();
    const thisYear = new Date(anchor).getUTCFullYear();
    const people = this.#dataset.people;
    for (const unit of UNITS) {
      for (let year = thisYear - YEARS_BACK; year < thisYear; year++) {
        for (let seq = 1; seq <= PER_YEAR; seq++) {
          const nup = sandboxNup(unit.up, seq, year);
          const rng = new Random('protocolo', this.#dataset.seed, nup);
          const autuadoAt = Date.UTC(year, rng.int(0, 11), rng.int(1, 28), rng.int(11, 20), rng.int(0, 59));
          const movements: SandboxMovement[] = [];
          let at = autuadoAt;
          let where = UNIDADES[0];
          for (let i = rng.int(3, 8); i > 0 && at < anchor; i--) {
            const destino = rng.pick(UNIDADES.filter((u) => u !== where));
            movements.push({ at, operacao: movements.length === 0 ? 'Autuação' : rng.pick(OPERACOES), origem: where, destino });
            where = destino;
            at += rng.int(1, 60) * 86_400_000 + rng.int(0, 8) * 3_600_000;
          }
          const interessados =
            people.length > 0 ? [...new Set([rng.pick(people).nome, ...(rng.chance(0.4) ? [rng.pick(people).nome] : [])])] : ['Interessado Fictício'];
          out.set(nup, { nup, tipo: rng.pick(TIPOS), assunto: rng.pick(ASSUNTOS), interessados, orgao: unit.orgao, autuadoAt, movements });
        }
      }
    }
    this.#processes = out;
    return out;
  }
}
