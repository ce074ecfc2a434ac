/**
 * The simulated Protocolo Integrado under `<sandbox>/protocolo` (reference/upstream/nup.md §3):
 *   GET /documento/detalhes_documento.jsf?protocolo=<17 digits>   a JSF-style page: a form with its
 *       ViewState, the fields as label/value rows, the tramitações table; a "not found" page for a
 *       NUP it does not have; the captcha page when the `captcha` knob is on.
 * Control: PUT /_sandbox/protocolo {captcha}; POST /_sandbox/protocolo/tramitacao {nup, operacao?}
 * adds a movement now. The fault layer (upstream `protocolo`) gives 5xx, 429, hangs, cut bodies.
 */
import { brasiliaDateTime, formatDateBr } from '../../platform/format.ts';
import type { HandlerContext, SimRequest, SimResponse } from '../http.ts';
import type { ProtocoloRegistry, SandboxAdministrativeProcess } from './registry.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ESCAPES[c]);
const when = (at: number) => {
  const t = brasiliaDateTime(new Date(at).toISOString());
  return `${formatDateBr(t.slice(0, 10))} ${t.slice(11, 16)}`;
};
const masked = (n: string) => `${n.slice(0, 5)}.${n.slice(5, 11)}/${n.slice(11, 15)}-${n.slice(15)}`;

function page(body: string): SimResponse {
  const html = `<!DOCTYPE html><html lang="pt-BR"><head><meta charset="UTF-8"><title>Protocolo Integrado - Detalhes do Documento</title></head><body>
<div id="cabecalho"><img src="/Protocolo/imagens/logo.png" alt="Protocolo Integrado"></div>
<form id="formDetalhe" name="formDetalhe" method="post" action="/protocolo/documento/detalhes_documento.jsf">
${body}
<input type="hidden" name="javax.faces.ViewState" id="javax.faces.ViewState" value="-1234567890123456789:987654321" autocomplete="off">
</form></body></html>`;
  return { status: 200, headers: { 'content-type': 'text/html; charset=UTF-8' }, body: Buffer.from(html, 'utf8') };
}

function detail(p: SandboxAdministrativeProcess): string {
  const row = (label: string, value: string) => `<tr><td class="rotulo">${label}:</td><td class="valor">${value}</td></tr>`;
  const autuacao = formatDateBr(new Date(p.autuadoAt - 3 * 3_600_000).toISOString().slice(0, 10));
  const fields = [
    row('Número do Protocolo', masked(p.nup)),
    row('Espécie', esc(p.tipo)),
    row('Assunto', esc(p.assunto)),
    row('Interessado(s)', p.interessados.map(esc).join('<br/>')),
    row('Órgão de Origem', esc(p.orgao)),
    row('Data de Autuação', autuacao),
  ];
  const movements = p.movements.map((m) => `<tr><td>${when(m.at)}</td><td>${esc(m.operacao)}</td><td>${esc(m.origem)}</td><td>${esc(m.destino)}</td></tr>`);
  return (
    `<h2>Dados do Documento</h2><table id="formDetalhe:dadosDocumento" class="dados">${fields.join('\n')}</table>
<h2>Histórico de Tramitação</h2><table id="formDetalhe:tabelaTramitacao" ` +
    `class="tabela"><thead><tr><th>Data</th><th>Operação</th><th>Unidade de Origem</th><th>Unidade de Destino</th></tr></thead>
<tbody>${movements.join('\n')}</tbody></table>`
  );
}

export function protocoloHandler(registry: ProtocoloRegistry) {
  return (req: SimRequest, ctx: HandlerContext): SimResponse => {
    if (req.path !== '/documento/detalhes_documento.jsf' || req.method !== 'GET') return { ...page('<p>Página inexistente.</p>'), status: 404 };
    if (registry.captcha) return page('<p>Confirme que você não é um robô.</p><div class="g-recaptcha" data-sitekey="6Lc-sandbox-fictitious"></div>');
    const nup = (req.query.get('protocolo') ?? '').replace(/\D/g, '');
    const found = /^\d{17}$/.test(nup) ? registry.find(nup, ctx.now) : null;
    if (!found) return page('<div class="mensagem erro">Nenhum documento foi encontrado para o protocolo informado.</div>');
    return page(detail(found));
  };
}
