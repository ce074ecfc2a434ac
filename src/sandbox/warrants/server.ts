/**
 * The simulated warrants providers under `<sandbox>/mandados`, over the same registry:
 *   GET  /tramita/mandados?cpf=<11>|numero_peca=<28>           our protocol (docs/providers.md):
 *        200 {"mandados": [...], "consultadoEm"}; 400 {"erro"} for a query it cannot read
 *   POST /predictus/predictus-api/mandados/prisao/buscarPorCPF  Predictus's shape (wave2.md §E.4):
 *        {"cpf"} → 200 array, 204 when none, 400 for an invalid CPF
 * Knob (`/_sandbox/mandados`): `empty`. The fault layer (upstream `mandados`) gives timeouts, 503, 403…
 */
import { formatDateBr } from '../../platform/format.ts';
import { jsonResponse, type HandlerContext, type SimRequest, type SimResponse } from '../http.ts';
import type { SandboxWarrant, WarrantsRegistry } from './registry.ts';

function tramitaShape(w: SandboxWarrant) {
  return {
    numeroPeca: w.numeroPeca,
    tipoPeca: w.tipoPeca,
    status: w.status,
    numeroProcesso: w.numeroProcesso,
    orgao: w.orgao,
    dataExpedicao: w.dataExpedicao,
    nome: w.nome,
    alcunha: w.alcunha,
  };
}

function predictusShape(w: SandboxWarrant) {
  return {
    nome: w.nome,
    nomePai: null,
    nomeMae: null,
    alcunha: w.alcunha,
    cpf: w.cpf,
    dataNascimento: null,
    sexo: null,
    profissao: null,
    descricaoPeca: w.tipoPeca,
    numeroPeca: w.numeroPeca,
    numeroProcesso: w.numeroProcesso,
    orgaoJudiciario: w.orgao,
    dataExpedicao: formatDateBr(w.dataExpedicao),
    statusMandado: w.status,
  };
}

export function warrantsHandler(registry: WarrantsRegistry) {
  return (req: SimRequest, ctx: HandlerContext): SimResponse => {
    if (req.path === '/tramita/mandados' && req.method === 'GET') {
      const cpf = req.query.get('cpf');
      const peca = req.query.get('numero_peca');
      if ((cpf === null) === (peca === null)) return jsonResponse(400, { erro: 'informe cpf ou numero_peca' });
      if (cpf !== null && !/^\d{11}$/.test(cpf)) return jsonResponse(400, { erro: 'cpf inválido' });
      if (peca !== null && !/^\d{28}$/.test(peca)) return jsonResponse(400, { erro: 'numero_peca inválido' });
      const found = cpf !== null ? registry.byCpf(cpf) : registry.byPeca(peca!);
      return jsonResponse(200, { mandados: found.map(tramitaShape), consultadoEm: new Date(ctx.now).toISOString() });
    }
    if (req.path === '/predictus/predictus-api/mandados/prisao/buscarPorCPF' && req.method === 'POST') {
      let cpf: unknown;
      try {
        cpf = (JSON.parse(req.body.toString('utf8') || '{}') as { cpf?: unknown }).cpf;
      } catch {
        cpf = undefined;
      }
      if (typeof cpf !== 'string' || !/^\d{11}$/.test(cpf)) return jsonResponse(400, { message: 'CPF inválido' });
      const found = registry.byCpf(cpf);
      return found.length === 0 ? { status: 204, headers: {}, body: Buffer.alloc(0) } : jsonResponse(200, found.map(predictusShape));
    }
    return jsonResponse(404, { erro: 'não encontrado' });
  };
}
