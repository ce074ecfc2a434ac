/**
 * e-SAJ's process page for a fictitious case, in the markup of the real TJSP page
 * (reference/upstream/real/esaj-1.html; the parity test compares the two): the header ids, the party
 * tables with `tipoDeParticipacao` and `Advogado:` spans (no document, no OAB: e-SAJ masks them), the
 * value padded as e-SAJ pads it, the movement tables with title and italic complement, CRLF line
 * endings mixed with LF and entity-encoded accents as the real page has them. The lawyers' OABs appear
 * where the real page prints them: in a DJE movement's text (`Advogados(s): NAME (OAB n/UF)`).
 */
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import type { Instance, Party, SandboxCase } from '../data/model.ts';
import { visibleMovementCount } from '../data/model.ts';

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  ã: '&atilde;',
  ç: '&ccedil;',
  é: '&eacute;',
  á: '&aacute;',
  ó: '&oacute;',
  í: '&iacute;',
  ê: '&ecirc;',
  õ: '&otilde;',
  ú: '&uacute;',
  â: '&acirc;',
};

/** Escapes markup; `accents` also entity-encodes accents, as e-SAJ does in some blocks and not others. */
function esc(text: string, accents = false): string {
  return text.replace(accents ? /[&<>"ãçéáóíêõúâ]/g : /[&<>"]/g, (ch) => ENTITIES[ch]!);
}

const ROLES: Record<string, string> = {
  AUTOR: 'Reqte',
  RÉU: 'Reqdo',
  EXEQUENTE: 'Exeqte',
  EXECUTADO: 'Exectdo',
  REQUERENTE: 'Reqte',
  REQUERIDO: 'Reqdo',
  IMPETRANTE: 'Imptte',
  IMPETRADO: 'Impttdo',
  APELANTE: 'Apelante',
  APELADO: 'Apelado',
};
const roleOf = (tipo: string) => ROLES[tipo.toUpperCase()] ?? tipo.charAt(0) + tipo.slice(1).toLowerCase();

function brDay(at: number): string {
  const d = new Date(at - 3 * 3_600_000);
  return `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
}

function brTime(at: number): string {
  const d = new Date(at - 3 * 3_600_000);
  return `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
}

/** `R$         81.439,78`: e-SAJ pads the amount after the symbol. */
function paddedReais(centavos: number): string {
  const reais = Math.floor(centavos / 100)
    .toLocaleString('pt-BR')
    .replace(/\u00a0/g, '.');
  return `R$         ${reais},${String(centavos % 100).padStart(2, '0')}`;
}

/** Both degrees' pages show the first two parties, then every party in a hidden table; only the rows differ. */
function partiesSection(partes: readonly Party[], rows: (partes: readonly Party[]) => string): string {
  return `<h2 class="subtitle tituloDoBloco">Partes do processo</h2>
<table id="tablePartesPrincipais" style="margin-left:15px; margin-top:1px;" align="center" border="0" cellPadding="0" cellSpacing="0" width="98%">
${rows(partes.slice(0, 2))}
</table>
\t<table id="tableTodasPartes" style="margin-left:15px; margin-top:1px; display: none; " align="center" width="98%" border="0" cellspacing="0" cellpadding="0"  >
${rows(partes)}
</table>`;
}

/** Both degrees' pages show the last five movements, then every movement in a hidden body; only the rows differ. */
function movementsTable<M>(moves: readonly M[], rows: (moves: readonly M[]) => string): string {
  return `<table style="margin-left:15px; margin-top:1px;" align="center" width="98%" border="0" cellspacing="0" cellpadding="1">
\t\t\t<tbody id="tabelaUltimasMovimentacoes">
${rows(moves.slice(0, 5))}
\t\t\t</tbody>
\t\t\t<tbody style="display: none;" id="tabelaTodasMovimentacoes">
${rows(moves)}
\t\t\t</tbody>
</table>`;
}

function partyRows(partes: readonly Party[]): string {
  return partes
    .map((p) => {
      const lawyers = p.advogados
        .map((a) => `\t\t\t\t<br />\n\t\t\t\t<span class="mensagemExibindo">Advogado:&nbsp;</span>\n\n\n\n\t\t\t\t\t\t${esc(a.nome)}\n\n\t\t\t\t&nbsp;\n`)
        .join('\n');
      return `<tr class="fundoClaro">\r\n\t<td valign="top" width="141" style="padding-bottom: 5px" class="label">\r\n\t\t<span class="mensagemExibindo tipoDeParticipacao">${esc(roleOf(p.tipo))}&nbsp;</span>\r\n\t</td>\n\t<td class="nomeParteEAdvogado" width="*" align="left" style="padding-bottom: 5px">\n\n\n\n\n\t\t\t\t\t${esc(p.person.nome)}\n\n\n\n${lawyers}\n\n\t</td>\n</tr>\n`;
    })
    .join('\n\n');
}

export interface PageMovement {
  at: number;
  titulo: string;
  texto: string;
}

/** The visible movements of an instance, newest first, each with a fictitious text; one DJE text lists the lawyers with their OABs. */
export function pageMovements(c: SandboxCase, inst: Instance, now: number): PageMovement[] {
  const visible = inst.movements.slice(0, visibleMovementCount(inst, now));
  const lawyers = [
    ...new Map(
      c.partes
        .flatMap((p) => p.advogados)
        .filter((a) => a.oab)
        .map((a) => [a.nome, a]),
    ).values(),
  ];
  const out = visible.map((m, i): PageMovement => {
    const texto =
      i === 1 && lawyers.length > 0
        ? `Relação: ${String(1 + (c.index % 900)).padStart(4, '0')}/${new Date(m.at).getUTCFullYear()}\nTeor do ato: Intimação fictícia do processo ${formatCnj(c.numero)} (sandbox).\nAdvogados(s): ${lawyers.map((a) => `${a.nome} (OAB ${a.oab!.numero}/${a.oab!.uf})`).join(', ')}`
        : i % 3 === 2
          ? ''
          : `Texto fictício do andamento "${m.type.nome}" (sandbox, nenhum dado real).`;
    return { at: m.at, titulo: m.type.nome, texto };
  });
  return out.reverse();
}

function movementRows(movements: readonly PageMovement[]): string {
  return movements
    .map(
      (m) =>
        `\t<tr class="fundoClaro containerMovimentacao" style="">\r\n\t\t<td class="dataMovimentacao" width="120" style="vertical-align: top">\r\n\t\t\t${brDay(m.at)}\r\n\t\t</td>\n\t\t<td width="20" valign="top" aria-hidden="true">\n\n\t\t</td>\n\t\t<td class="descricaoMovimentacao" style="vertical-align: top; padding-bottom: 5px">\n\n\n\n\n\t\t\t\t\t${esc(m.titulo)}\n\n\n\n\t\t\t<br />\n\t\t\t<span style="font-style: italic;">\n${m.texto
          .split('\n')
          .map((l) => `\t\t\t\t${esc(l, true)}`)
          .join('\r\n')}\n\t\t\t</span>\n\n\t\t</td>\n\t</tr>\n`,
    )
    .join('\n\n');
}

/** The first degree's page of a case (`cpopg`; the second degree's is esajSecondDegreePage). */
export function esajCasePage(c: SandboxCase, inst: Instance, now: number): string {
  const movements = pageMovements(c, inst, now);
  const header = `                    <div class="lh-1-1 line-clamp__2"> <span id="foroProcesso" title="Foro de ${esc(inst.orgao.uf)}">Foro de ${esc(inst.orgao.uf)}</span></div>\n                    <div class="lh-1-1 line-clamp__2"><span id="varaProcesso" title="${esc(inst.orgao.nome)}">${esc(inst.orgao.nome)}</span></div>\n                        <div id="dataHoraDistribuicaoProcesso">${brDay(inst.ajuizadoAt)} às ${brTime(inst.ajuizadoAt)} - Livre</div>\n                        <div id="numeroControleProcesso">${new Date(inst.ajuizadoAt).getUTCFullYear()}/${String(c.index).padStart(6, '0')}</div>\n                        <div id="areaProcesso" class="lh-1-1 line-clamp__2"> <span title="Cível">Cível</span></div>\n${c.valorCausaCentavos === null ? '' : `                        <div id="valorAcaoProcesso">${paddedReais(c.valorCausaCentavos)}</div>\n`}`;
  return `<!DOCTYPE html>\r\n<html lang="pt-BR">\r\n<head>\r\n<meta charset="UTF-8">\r\n<title>e-SAJ - Consulta de Processos de 1º Grau (sandbox)</title>\r\n</head>\n<body>
<input type="hidden" name="_csrf" value="00000000-0000-0000-0000-000000000000"/>
<div class="unj-entity-header__summary__barra">
    <div id="containerDadosPrincipaisProcesso" class="container">
        <div class="row">
            <div class="col-lg-12 col-xl-13">
                    <span id="numeroProcesso" class="unj-larger-1">
                        ${formatCnj(c.numero)}
                    </span>
                        <span id="labelSituacaoProcesso" class="unj-tag">Em andamento</span>
                    <div class="lh-1-1 line-clamp__2"><span id="classeProcesso" title="${esc(inst.classe.nome)}">${esc(inst.classe.nome)}</span></div>
                    <div class="lh-1-1 line-clamp__2"> <span id="assuntoProcesso" title="${esc(inst.assuntos[0]?.nome ?? '')}">${esc(inst.assuntos[0]?.nome ?? '')}</span></div>
${header}            </div>
        </div>
    </div>
</div>
${partiesSection(c.partes, partyRows)}
<h2 class="subtitle tituloDoBloco">Movimenta&ccedil;&otilde;es</h2>
${movementsTable(movements, movementRows)}
</body>\r\n</html>\r\n`;
}

/** The 2nd degree prints the appeal's roles with a colon, from each side (`Apelante:`, `Apelado:`); the case's others keep theirs. */
const APPEAL_ROLES: Record<string, string> = { ATIVO: 'Apelante', PASSIVO: 'Apelado' };

/**
 * The second degree's page of a case's appeal (`cposg`, `cposg5`), in the markup of the real TJAL capture
 * (sources/consultas/fixtures/set3/tjal_esaj_cposg_detalhe_0710802-55.2018.8.02.0001.html; the parity test
 * compares the two): `#situacaoProcesso`, the header's Seção, Órgão Julgador and (under "Mais") Relator,
 * the value unpadded, no distribution; party rows classed by pole with the role and a colon, each lawyer's
 * OAB in a hidden input; movement rows of their own classes (`movimentacaoProcesso`).
 */
export function esajSecondDegreePage(c: SandboxCase, inst: Instance, now: number): string {
  const parties = (partes: readonly Party[]) =>
    partes
      .map((p) => {
        const pole = p.polo === 'ATIVO' ? 'poloAtivo' : p.polo === 'PASSIVO' ? 'poloPassivo' : 'poloOutros';
        const lawyers = p.advogados
          .map(
            (a) =>
              `   \t \t <br/><span class="mensagemExibindo">Advogado:&nbsp</span>\n\t\t  \n\t\t\t\t  ${esc(a.nome)}\n\t\t  \n\t\t  <input type="hidden" value="${a.oab ? `${a.oab.numero}${a.oab.uf}` : ''}">&nbsp;\n`,
          )
          .join('      \n');
        return `<tr class="fundoClaro ${pole}">\n    <td valign="top" width="141" style="padding-bottom: 5px" class="label">\n      <span class="mensagemExibindo tipoDeParticipacao">${esc(APPEAL_ROLES[p.polo] ?? roleOf(p.tipo))}:&nbsp;</span>\n    </td>\n    <td width="*" align="left" style="padding-bottom: 5px" class="nomeParteEAdvogado">\n\t  \n\t\t\t\t  ${esc(p.person.nome)}\n\t  \n${lawyers}      \n  \t </td>\n</tr>\n`;
      })
      .join('\n\t\t\n');
  const movements = (rows: readonly PageMovement[]) =>
    rows
      .map(
        (m) =>
          `<tr class="fundoClaro movimentacaoProcesso" style="">\n    <td width="120" style="vertical-align: top" class="dataMovimentacaoProcesso">\n        ${brDay(m.at)}\n    </td>\n    <td width="20" valign="top" aria-hidden="true">\n        \n    </td>\n    <td style="vertical-align: top; padding-bottom: 5px" class="descricaoMovimentacaoProcesso">\n        \n            \n                ${esc(m.titulo)}\n            \n        <br/>\n        <span style="font-style: italic;">${m.texto
            .split('\n')
            .map((l) => esc(l, true))
            .join('\r\n')}</span>\n\n        \n    </td>\n</tr>\n`,
      )
      .join('\n\n\n');
  const moves = pageMovements(c, inst, now);
  const value =
    c.valorCausaCentavos === null
      ? ''
      : `                    <div class="col-lg-3 mb-2">\n                        <span class="unj-label">Valor da ação</span>\n                        <div class="line-clamp__2" id="valorAcaoProcesso"><span title="${paddedReais(c.valorCausaCentavos).replace(/^R\$\s+/, '')}">${paddedReais(c.valorCausaCentavos).replace(/^R\$\s+/, '')}</span></div>\n                    </div>\n`;
  const origin = mainOrgaoOf(c);
  return `<!DOCTYPE html>\r\n<html lang="pt-BR">\r\n<head>\r\n<meta charset="UTF-8">\r\n\t<title>Portal de Serviços e-SAJ (sandbox)</title>\r\n</head>\n<body>
<div class="unj-entity-header">
    <div class="container">
        <div class="row">
            <div class="col-md-13">
                    <span class="unj-larger-1 " id="numeroProcesso">
                        ${formatCnj(c.numero)}
                    </span>
                        <span class="unj-tag" id="situacaoProcesso">Em andamento</span>
            </div>
        </div>
        <div class="row">
                <div class="col-md-3">
                    <span class="unj-label">Classe</span>
                    <div class="lh-1-1 line-clamp__2" id="classeProcesso"> <span title="${esc(inst.classe.nome)}">${esc(inst.classe.nome)}</span></div>
                </div>
                <div class="col-md-4">
                    <span class="unj-label">
                        Assunto
                    </span>
                    <div class="lh-1-1 line-clamp__2" id="assuntoProcesso"><span title="${esc(inst.assuntos[0]?.nome ?? '')}">${esc(inst.assuntos[0]?.nome ?? '')}</span></div>
                </div>
                <div class="col-md-3">
                    <span class="unj-label">Seção</span>
                    <div class="lh-1-1 line-clamp__2" id="secaoProcesso"> <span title="Direito Privado">Direito Privado</span></div>
                </div>
                <div class="col-md-3">
                    <span class="unj-label">Órgão Julgador</span>
                    <div class="lh-1-1 line-clamp__2" id="orgaoJulgadorProcesso"> <span title="${esc(inst.orgao.nome)}">${esc(inst.orgao.nome)}</span></div>
                </div>
                <div class="col-md-2">
                    <span class="unj-label">Área</span>
                    <div class="lh-1-1 line-clamp__2" id="areaProcesso"><span title="Cível">Cível</span></div>
                </div>
        </div>
    </div>
</div>
<div class="unj-entity-header__details">
    <div class="container">
        <div id="maisDetalhes" class="collapse" aria-expanded="false">
            <div class="row unj-row--border-top">
                    <div class="col-lg-3 mb-2">
                        <span class="unj-label">Relator</span>
                        <div class="line-clamp__2" id="relatorProcesso"><span title="DES. RELATOR FICTÍCIO DA SILVA">DES. RELATOR FICTÍCIO DA SILVA</span></div>
                    </div>
${value}                    <div class="col-lg-3 mb-2">
                        <span class="unj-label">Origem</span>
                        <div class="line-clamp__2"><span title="${esc(origin)}">${esc(origin)}</span></div>
                    </div>
            </div>
        </div>
    </div>
</div>
${partiesSection(c.partes, parties)}
\t\t\t<h2 class="subtitle">Movimentações</h2>
${movementsTable(moves, movements)}
</body>\r\n</html>\r\n`;
}

/** The first degree's unit an appeal comes from, as the 2nd degree's "Origem" prints it. */
function mainOrgaoOf(c: SandboxCase): string {
  const first = c.instances.find((i) => i.grau !== 'G2' && i.grau !== 'TR' && i.grau !== 'SUP') ?? c.instances[0]!;
  return `Comarca de ${first.orgao.uf} / Foro de ${first.orgao.uf} / ${first.orgao.nome}`;
}

/** The search form again with e-SAJ's not-found notice (what `search.do` answers for an unknown number). */
export function esajNotFoundPage(app: string, message: string = ESAJ_MESSAGES.not_found): string {
  return `<!DOCTYPE html>\r\n<html lang="pt-BR">\r\n<head><meta charset="UTF-8"><title>e-SAJ (sandbox)</title></head>\n<body>
<form id="formConsulta" method="GET" action="/${app}/search.do"></form>
<div id="spwTabelaMensagem"><table><tr><td id="mensagemRetorno"><li>${message}</li></td></tr></table></div>
</body>\r\n</html>\r\n`;
}

/**
 * What e-SAJ's message box says, every answer an HTTP 200 (reference/upstream/real/README.md "Set 2"): the
 * not-found notice of the real captures, and the refusals the same box prints (wording of the sandbox:
 * no capture of them exists), which a client must take for the court's failure, never "nothing found".
 */
export const ESAJ_MESSAGES = {
  not_found: 'N&atilde;o existem informa&ccedil;&otilde;es dispon&iacute;veis para os par&acirc;metros informados.',
  refine: 'A pesquisa retornou muitos processos. Por favor, refine sua pesquisa.',
  busy: 'Excesso de consultas simult&acirc;neas. Tente novamente em alguns instantes.',
} as const;

/** e-SAJ lists 25 hits per page of a search. */
export const ESAJ_HITS_PER_PAGE = 25;

/**
 * The hit list `search.do` answers when a search by document, name or OAB finds several cases. No
 * capture of it exists: this is e-SAJ's list as the README's flow describes it (the process links
 * `#listagemDeProcessos a.linkProcesso` to `show.do`, the counter `#contadorDeProcessos`), one row per
 * case with its class, subject and filing, the first page only.
 */
export function esajListPage(app: string, hits: readonly SandboxCase[], total: number): string {
  const rows = hits
    .slice(0, ESAJ_HITS_PER_PAGE)
    .map((c) => {
      const inst = c.instances[0]!;
      return `\t\t<li>\r\n\t\t\t<div class="row unj-ai-c home__lista-de-processos">\n\t\t\t\t<div class="col-md-3">\n\t\t\t\t\t<a href="/${app}/show.do?processo.codigo=SBX${c.numero}&amp;processo.foro=${c.numero.slice(16, 20)}&amp;processo.numero=${formatCnj(c.numero)}" class="linkProcesso">\n\t\t\t\t\t\t${formatCnj(c.numero)}\n\t\t\t\t\t</a>\n\t\t\t\t</div>\n\t\t\t\t<div class="col-md-3"><div class="classeProcesso">${esc(inst.classe.nome, true)}</div><div class="assuntoPrincipalProcesso">${esc(inst.assuntos[0]?.nome ?? '', true)}</div></div>\n\t\t\t\t<div class="col-md-3"><div class="dataLocalDistribuicaoProcesso">${brDay(inst.ajuizadoAt)} - ${esc(inst.orgao.nome, true)}</div></div>\n\t\t\t</div>\r\n\t\t</li>`;
    })
    .join('\n');
  return `<!DOCTYPE html>\r\n<html lang="pt-BR">\r\n<head><meta charset="UTF-8"><title>e-SAJ (sandbox)</title></head>\n<body>
<form id="formConsulta" method="GET" action="/${app}/search.do"></form>
<div class="unj-entity-header__summary"><span id="contadorDeProcessos">\r\n\t\t${total} Processos encontrados\r\n\t</span></div>
<div id="listagemDeProcessos">\n\t<ul class="unj-list-row">\n${rows}\n\t</ul>\n</div>
</body>\r\n</html>\r\n`;
}
