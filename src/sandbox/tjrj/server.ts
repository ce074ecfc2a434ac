/**
 * The simulated TJRJ precatório API under `<sandbox>/tjrj` (wave2.md §G): `GET /entDev` (a tree of
 * debtor entities) and `GET /ordemPagamento?idEntidadeDevedora=&ordemPagamento=2&pagina=&regimeEntidade=&tamanhoPagina=`
 * → `{Resultado: {Precatorios: [...]}}`, pages of each entity's chronological order under its own
 * regime (the other regime's list is empty). Entities are real public bodies; every precatório is
 * fictitious (numbers, processes, amounts), deterministic from the seed. The item keys are the
 * columns TJRJ's page shows (the API's own were never captured). Faults: upstream `tjrj`.
 */
import { cnjCheckDigits } from '../../platform/identifiers/cnj.ts';
import { jsonResponse, type SimRequest, type SimResponse } from '../http.ts';
import { Random } from '../data/prng.ts';

interface Entity { IdEntidade: number; IdEntidadePai: number | null; EntidadeDevedora: string; regime: 'O' | 'E'; quantidade: number }

const ENTITIES: readonly Entity[] = [
  { IdEntidade: 1, IdEntidadePai: null, EntidadeDevedora: 'ESTADO DO RIO DE JANEIRO', regime: 'E', quantidade: 130 },
  { IdEntidade: 2, IdEntidadePai: 1, EntidadeDevedora: 'RIOPREVIDÊNCIA', regime: 'E', quantidade: 15 },
  { IdEntidade: 3, IdEntidadePai: null, EntidadeDevedora: 'MUNICÍPIO DE NITERÓI', regime: 'O', quantidade: 25 },
  { IdEntidade: 4, IdEntidadePai: null, EntidadeDevedora: 'MUNICÍPIO DE PETRÓPOLIS', regime: 'O', quantidade: 0 },
];
const NATUREZAS = ['Alimentar', 'Comum'];
const SITUACOES = ['Aguardando pagamento', 'Pago parcialmente', 'Em processamento'];

export class TjrjPrecatorios {
  readonly #seed: number;
  readonly #lists = new Map<number, Record<string, unknown>[]>();

  constructor(seed: number) {
    this.#seed = seed;
  }

  entities(): Entity[] {
    return ENTITIES.map((e) => ({ ...e }));
  }

  /** The entity's whole list, in chronological order. */
  list(id: number): Record<string, unknown>[] {
    const entity = ENTITIES.find((e) => e.IdEntidade === id);
    if (!entity) return [];
    let list = this.#lists.get(id);
    if (!list) {
      const rng = new Random('tjrj', this.#seed, id);
      list = Array.from({ length: entity.quantidade }, (_, i) => {
        const ano = 2019 + Math.floor(i / 10);
        const seq = String(rng.int(1_000_000, 9_999_999));
        const numeroProcesso = `${seq}${cnjCheckDigits(seq, String(ano - 3), '8', '19', '0001')}${ano - 3}8190001`;
        const historico = rng.int(5_000_00, 900_000_00) / 100;
        return {
          Ordem: i + 1, NumeroPrecatorio: `${ano}.${String(id * 1000 + i + 1).padStart(5, '0')}-${rng.int(0, 9)}`, NumeroProcesso: numeroProcesso,
          Situacao: rng.pick(SITUACOES), Natureza: rng.pick(NATUREZAS), AnoOrcamento: ano, ValorHistorico: historico,
          SaldoAtualizado: Math.round(historico * (1 + rng.int(5, 60) / 100) * 100) / 100, EntidadeDevedora: entity.EntidadeDevedora,
        };
      });
      this.#lists.set(id, list);
    }
    return list;
  }
}

export function tjrjHandler(data: TjrjPrecatorios) {
  return (req: SimRequest): SimResponse => {
    if (req.method !== 'GET') return jsonResponse(405, { Message: 'método não permitido' });
    if (req.path === '/entDev') return jsonResponse(200, data.entities().map(({ IdEntidade, IdEntidadePai, EntidadeDevedora }) => ({ IdEntidade, IdEntidadePai, EntidadeDevedora })));
    if (req.path === '/ordemPagamento') {
      const q = (k: string) => Number(req.query.get(k));
      const [id, ordem, pagina, tamanho] = [q('idEntidadeDevedora'), q('ordemPagamento'), q('pagina'), q('tamanhoPagina')];
      if (![id, ordem, pagina, tamanho].every((n) => Number.isInteger(n) && n > 0) || ordem > 5) return jsonResponse(400, { Message: 'parâmetros inválidos' });
      const entity = data.entities().find((e) => e.IdEntidade === id);
      const all = entity && entity.regime === req.query.get('regimeEntidade') && ordem === 2 ? data.list(id) : [];
      const size = Math.min(tamanho, 100);
      return jsonResponse(200, { Resultado: { Precatorios: all.slice((pagina - 1) * size, pagina * size), TotalRegistros: all.length } });
    }
    return jsonResponse(404, { Message: 'não encontrado' });
  };
}
