/**
 * The simulated TJRJ precatório API under `<sandbox>/tjrj` (wave2.md §G): `GET /entDev` (a tree of
 * debtor entities) and `GET /ordemPagamento?idEntidadeDevedora=&ordemPagamento=2&pagina=&regimeEntidade=&tamanhoPagina=`
 * → `{Resultado: {Total, Precatorios: [...]}}`, pages of each entity's chronological order under its
 * own regime (the other regime's list is empty). The items have TJRJ's own keys in the order of its
 * application code (issue 30; no raw answer captured): `OrdemPagamento` `2º`, `EntidadeDevedora`,
 * `NumeroPrecatorio` `2009.01792-1 (2009.01475-2)`, `SituacaoTratada`, `Natureza`, `DataProtocolo`,
 * `Orcamento`, `ValorHistoricoFormatado` and `SaldoFormatado` (`R$ …`, null once paid); held so by
 * tjrj/parity.test.ts. Entities are real public bodies; every precatório is fictitious (numbers,
 * amounts), deterministic from the seed. Faults: upstream `tjrj`.
 */
import { formatReais } from '../../platform/format.ts';
import { jsonResponse, type SimRequest, type SimResponse } from '../http.ts';
import { Random } from '../data/prng.ts';

interface Entity {
  IdEntidade: number;
  IdEntidadePai: number | null;
  EntidadeDevedora: string;
  regime: 'O' | 'E';
  quantidade: number;
}

const ENTITIES: readonly Entity[] = [
  { IdEntidade: 1, IdEntidadePai: null, EntidadeDevedora: 'ESTADO DO RIO DE JANEIRO', regime: 'E', quantidade: 130 },
  { IdEntidade: 2, IdEntidadePai: 1, EntidadeDevedora: 'RIOPREVIDÊNCIA', regime: 'E', quantidade: 15 },
  { IdEntidade: 3, IdEntidadePai: null, EntidadeDevedora: 'MUNICÍPIO DE NITERÓI', regime: 'O', quantidade: 25 },
  { IdEntidade: 4, IdEntidadePai: null, EntidadeDevedora: 'MUNICÍPIO DE PETRÓPOLIS', regime: 'O', quantidade: 0 },
];
const NATUREZAS = ['Alimentícia', 'Comum'];
const SITUACOES = ['Aguardando pagamento', 'Pago parcialmente', 'Em processamento'];
/** `dd/mm/aaaa`: DataProtocolo's spelling is not on record; TJRJ formats every other value for display. */
const brDate = (y: number, m: number, d: number) => `${String(d).padStart(2, '0')}/${String(m).padStart(2, '0')}/${y}`;

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
        const numero = (y: number, n: number) => `${y}.${String(n).padStart(5, '0')}-${rng.int(0, 9)}`;
        const historico = rng.int(5_000_00, 900_000_00);
        const pago = rng.chance(0.1);
        return {
          OrdemPagamento: `${i + 1}º`,
          EntidadeDevedora: entity.EntidadeDevedora,
          NumeroPrecatorio: `${numero(ano - 1, id * 1000 + i + 1)} (${numero(ano - 2, id * 1000 + i + 1)})`,
          SituacaoTratada: pago ? 'Pago' : rng.pick(SITUACOES),
          Natureza: rng.pick(NATUREZAS),
          DataProtocolo: brDate(ano - 2, rng.int(1, 12), rng.int(1, 28)),
          Orcamento: ano,
          ValorHistoricoFormatado: formatReais(historico),
          SaldoFormatado: pago ? null : formatReais(Math.round(historico * (1 + rng.int(5, 60) / 100))),
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
    if (req.path === '/entDev')
      return jsonResponse(
        200,
        data.entities().map(({ IdEntidade, IdEntidadePai, EntidadeDevedora }) => ({ IdEntidade, IdEntidadePai, EntidadeDevedora })),
      );
    if (req.path === '/ordemPagamento') {
      const q = (k: string) => Number(req.query.get(k));
      const [id, ordem, pagina, tamanho] = [q('idEntidadeDevedora'), q('ordemPagamento'), q('pagina'), q('tamanhoPagina')];
      if (![id, ordem, pagina, tamanho].every((n) => Number.isInteger(n) && n > 0) || ordem > 5) return jsonResponse(400, { Message: 'parâmetros inválidos' });
      const entity = data.entities().find((e) => e.IdEntidade === id);
      const all = entity && entity.regime === req.query.get('regimeEntidade') && ordem === 2 ? data.list(id) : [];
      const size = Math.min(tamanho, 100);
      return jsonResponse(200, { Resultado: { Total: all.length, Precatorios: all.slice((pagina - 1) * size, pagina * size) } });
    }
    return jsonResponse(404, { Message: 'não encontrado' });
  };
}
