/**
 * The PJe classic *consulta pública* pages the simulator serves, with the markup of the real ones
 * (reference/upstream/real/pje-tjma-*.html: the same ids by suffix, classes, labels, nesting and
 * entity-encoded labels), filled with a sandbox case. parity.test.ts holds them to the captures.
 */
import { UFS } from '../../platform/identifiers/uf.ts';
import { brasiliaDateTime, formatDateBr } from '../../platform/format.ts';
import { formatCnj, formatCnpj, formatCpf } from '../../platform/identifiers/index.ts';
import type { Lawyer, Movement, Party, SandboxCase } from '../data/model.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** PJe prints an instant as `dd/mm/yyyy hh:mm:ss` in Brasília. */
export function pjeDateTime(at: number): string {
  const t = brasiliaDateTime(new Date(at).toISOString());
  return `${formatDateBr(t.slice(0, 10))} ${t.slice(11, 19)}`;
}

/** What the simulated court is: its sigla and the context path its links carry (`/pje/TJMA`). */
export interface PjeSite {
  sigla: string;
  ctx: string;
  session: string;
}

const head = (
  site: PjeSite,
  title: string,
) => `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd" >
<html xmlns="http://www.w3.org/1999/xhtml">
	<head>
	<title>${title} &middot; Tribunal simulado (${site.sigla}) - sandbox Tramita</title>
	<script src="${site.ctx}/a4j/g/3_3_3.Final/org/ajax4jsf/framework.pack.js" type="text/javascript"></script>
	<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
	</head>
	<body>`;
const foot = '\n\t</body>\n</html>\n';

/**
 * The OAB's UF select, in the real form's order (pje-tjma-listView.html): each option's value is its
 * index. The CNJ's table of UFs (platform/identifiers/uf.ts), but for São Paulo listed before Sergipe,
 * as the form sorts by name.
 */
export const PJE_UFS: readonly string[] = UFS.flatMap((uf) => (uf === 'SE' ? [] : uf === 'SP' ? ['SP', 'SE'] : [uf]));

/** `GET ConsultaPublica/listView.seam`: form fPP with the fields, the search script and the compiled-out captcha of the real page. */
export function listViewPage(site: PjeSite, month: string): string {
  const action = `${site.ctx}/ConsultaPublica/listView.seam;jsessionid=${site.session}`;
  const jsAction = action.replace(/-/g, '\\x2D');
  const text = (id: string, extra = '') => `<input id="${id}" type="text" name="${id}"${extra} />`;
  return `${head(site, 'Consulta p&uacute;blica')}
		<script src="https://www.google.com/recaptcha/api.js" async="async" defer="defer"></script><form id="fPP" name="fPP" method="post" action="${action}">
		<div class="col-sm-3 consulta-filtro">
  <script type="text/javascript">
		function executarReCaptcha() {

			if (false) {
				grecaptcha.execute();
				return false;
			}
			executarPesquisa();
		}
    </script><div class="rich-panel rich-panel" id="fPP:consultaSearchFields"><div class="rich-panel-body " id="fPP:consultaSearchFields_body"><div id="fPP:CSF"><div id="fPP:consultaSearchForm" class="edit">
    <div class="propertyView col-sm-12 "><div id="fPP:numProcesso-inputNumeroProcessoDecoration" class="value col-sm-12 ">${text('fPP:numProcesso-inputNumeroProcessoDecoration:numProcesso-inputNumeroProcesso', ' class="" alt="#(alt)" maxlength="255"')}
    </div></div>
    <input type="radio" name="mascaraProcessoReferenciaRadio" checked="checked" onclick="mascaraDocumento('processoReferenciaInput', 'NUN')" />
    ${text('fPP:j_id168:processoReferenciaInput')}
    ${text('fPP:dnp:nomeParte', ' alt="Nome da parte" maxlength="100"')}
    ${text('fPP:j_id186:nomeAdv', ' alt="Nome do advogado" maxlength="100"')}
    ${text('fPP:j_id195:classeJudicial', ' class="form-control" alt="Classe judicial" maxlength="100"')}
    <input type="hidden" autocomplete="off" id="fPP:j_id195:sgbClasseJudicial_selection" name="fPP:j_id195:sgbClasseJudicial_selection" />
    <input type="radio" name="tipoMascaraDocumento" checked="checked" onclick="mascaraDocumento('documentoParte', 'CPF')" />
    ${text('fPP:dpDec:documentoParte')}
    ${text('fPP:Decoration:numeroOAB', ' class="col-sm-4" maxlength="10"')}
    <input type="text" name="fPP:Decoration:j_id231" class="col-sm-2 text-upper" maxlength="1" />
    <select id="fPP:Decoration:estadoComboOAB" name="fPP:Decoration:estadoComboOAB" class="col-sm-3" size="1">	<option value="org.jboss.seam.ui.NoSelectionConverter.noSelectionValue" selected="selected">UF</option>
${PJE_UFS.map((uf, i) => `\t<option value="${i}">${uf}</option>`).join('\n')}
	</select>
    <input class="rich-calendar-input col-sm-7 text-center maskDate" id="fPP:dataAutuacaoDecoration:dataAutuacaoInicioInputDate" name="fPP:dataAutuacaoDecoration:dataAutuacaoInicioInputDate" type="text" />
    <input autocomplete="off" id="fPP:dataAutuacaoDecoration:dataAutuacaoInicioInputCurrentDate" name="fPP:dataAutuacaoDecoration:dataAutuacaoInicioInputCurrentDate" style="display:none" type="hidden" value="${month}" />
    <input class="rich-calendar-input col-sm-7 text-center maskDate" id="fPP:dataAutuacaoDecoration:dataAutuacaoFimInputDate" name="fPP:dataAutuacaoDecoration:dataAutuacaoFimInputDate" type="text" />
    <input autocomplete="off" id="fPP:dataAutuacaoDecoration:dataAutuacaoFimInputCurrentDate" name="fPP:dataAutuacaoDecoration:dataAutuacaoFimInputCurrentDate" style="display:none" type="hidden" value="${month}" />
				<div class="propertyView">
					<div class="value"><script id="fPP:j_id252" type="text/javascript">//<![CDATA[
		executarPesquisa=function(){A4J.AJAX.Submit('fPP',null,{'similarityGroupingId':'fPP:j_id252','actionUrl':'${jsAction}','oncomplete':function(request,event,data){hideLoading(); grecaptcha.reset();},'parameters':{'fPP:j_id252':'fPP:j_id252'} } )};
		//]]></script><input class="btn btn-primary" id="fPP:searchProcessos" name="fPP:searchProcessos" onclick="return executarReCaptcha();;A4J.AJAX.Submit('fPP',event,{'similarityGroupingId':'fPP:searchProcessos','actionUrl':'${jsAction}','parameters':{'fPP:searchProcessos':'fPP:searchProcessos'} } );return false;" value="Pesquisar" type="button" />
					</div>
				</div></div></div></div></div>
		</div><div class="rich-panel col-sm-9" id="fPP:processosGridPanel"><div class="rich-panel-body panel" id="fPP:processosGridPanel_body"></div></div><input type="hidden" autocomplete="off" name="fPP" value="fPP" /><input type="hidden" autocomplete="off" name="autoScroll" value="" /><input type="hidden" autocomplete="off" name="fPP:j_idcl" value="" /><input type="hidden" autocomplete="off" name="fPP:_link_hidden_" value="" /><input type="hidden" name="javax.faces.ViewState" id="javax.faces.ViewState" value="j_id1" autocomplete="off" />
</form>${foot}`;
}

export interface PjeHitView {
  numero: string;
  idProcesso: number;
  ca: string;
  classe: string;
  classeSigla: string;
  assunto: string;
  resumo: string;
  ultimo: string;
}

const AJAX_TAIL = (viewState: string) =>
  `<meta name="Ajax-Update-Ids" content="fPP:processosGridPanel" /><span id="ajax-view-state"><input type="hidden" name="javax.faces.ViewState" id="javax.faces.ViewState" value="${viewState}" autocomplete="off" /></span><meta id="Ajax-Response" name="Ajax-Response" content="true" />`;

/** The A4J answer to the search POST: the grid panel with its rows (none is PJe's "no hit"), or a message (captcha refusal). */
export function searchAnswer(site: PjeSite, hits: readonly PjeHitView[], message: string | null = null): string {
  const rows = hits
    .map(
      (hit, i) =>
        `<tr class="rich-table-row${i === 0 ? ' rich-table-firstrow' : ''}"><td class="rich-table-cell" id="fPP:processosTable:${hit.idProcesso}:j_id263"><a href="javascript:void();" title="Ver Detalhes" class="btn btn-default btn-sm" onclick="openPopUp('Consulta pública','${site.ctx}/ConsultaPublica/DetalheProcessoConsultaPublica/listView.seam?ca=${hit.ca}')"><i class="fa fa-external-link"></i> <span class="sr-only">Ver detalhes do processo</span></a></td><td class="rich-table-cell" id="fPP:processosTable:${hit.idProcesso}:j_id265">${esc(hit.classe)} <a href="javascript:void();" onclick="openPopUp('Consulta pública','${site.ctx}/ConsultaPublica/DetalheProcessoConsultaPublica/listView.seam?ca=${hit.ca}')"><b class="btn-block">${esc(hit.classeSigla)} ${formatCnj(hit.numero)} - ${esc(hit.assunto)}</b></a> ${esc(hit.resumo)}</td><td class="rich-table-cell" id="fPP:processosTable:${hit.idProcesso}:j_id271">${esc(hit.ultimo)}</td></tr>`,
    )
    .join('');
  const messages = message
    ? `<dl id="fPP:j_id256" class="rich-messages"><dt class="alert alert-danger"><span class="rich-messages-label">${esc(message)}</span></dt></dl>`
    : '<dl id="fPP:j_id256" class="rich-messages" style="display: none;"><dt></dt></dl>';
  const count = hits.length > 0 ? `${hits.length} resultados encontrados` : message ? '0 resultados encontrados' : 'resultados encontrados';
  const panel = `<div class="rich-panel col-sm-9" id="fPP:processosGridPanel"><div class="rich-panel-body panel" id="fPP:processosGridPanel_body">${messages}<table class="rich-table" id="fPP:processosTable" border="0" cellpadding="0" cellspacing="0"><colgroup span="3"></colgroup><thead class="rich-table-thead"><tr class="rich-table-subheader"><th class="rich-table-subheadercell" scope="col" id="fPP:processosTable:j_id263header"><div id="fPP:processosTable:j_id263header:sortDiv"></div></th><th class="rich-table-subheadercell" scope="col" id="fPP:processosTable:j_id265header"><div id="fPP:processosTable:j_id265header:sortDiv">Processo</div></th><th class="rich-table-subheadercell" scope="col" id="fPP:processosTable:j_id271header"><div id="fPP:processosTable:j_id271header:sortDiv">Última movimentação</div></th></tr></thead><tfoot><tr class="rich-table-footer"><td class="rich-table-footercell" colspan="3" scope="colgroup"><div id="fPP:processosTable:j_id257" class="col-sm-12"><div class="pull-left" title="Paginação"></div><div class="pull-right"><span class="text-muted">${count}</span></div></div></td></tr></tfoot><tbody id="fPP:processosTable:tb">${rows}</tbody></table><img alt="" class="rich-spacer" height="5" id="fPP:j_id274" src="${site.ctx}/a4j/g/3_3_3.Finalimages/spacer.gif" width="1" /> <div class="alert alert-info">A presente consulta não retornará qualquer resultado em caso de informações prestadas incorretamente ou de processos sob segredo de justiça, conforme art. 1º, parágrafo único, da <b><a href="http://www.cnj.jus.br/atos-normativos?documento=92" target="_blank">Resolução nº 121 do Conselho Nacional de Justiça</a></b>.</div></div></div>`;
  // The real fragment repeats its ViewState/Ajax-Response block twice.
  return `<?xml version="1.0"?>
<html lang="pt_BR" xmlns="http://www.w3.org/1999/xhtml"><head><title></title></head><body>${panel}${AJAX_TAIL('j_id2')}${AJAX_TAIL('j_id2')}</body></html>`;
}

// ---- detail page --------------------------------------------------------------------------------

const P = 'j_id149';

function property(id: number, label: string, value: string, wrap = true): string {
  const inner = wrap ? `\n\t\t<div class="col-sm-12 ">\n\t\t\t${value}\n\t\t</div>` : value;
  return `<span id="${P}:processoTrfViewView:j_id${id}">
	
    <div class="propertyView ">
        <div class="name"><label>
${label}</label>
        </div>
        
        <div class="value col-sm-12 ">${inner}
        </div>
    </div></span>`;
}

function documentOf(party: Party): string {
  const d = party.person.documento;
  if (!d) return '';
  return party.person.tipoPessoa === 'FISICA' ? ` - CPF: ${formatCpf(d)}` : ` - CNPJ: ${formatCnpj(d)}`;
}

const lawyerLine = (l: Lawyer) => `${l.nome}${l.oab ? ` - OAB ${l.oab.uf}${l.oab.numero}` : ''} (ADVOGADO)`;

function participantRow(list: string, n: number, cols: [number, number], inner: string, firstRow: boolean): string {
  return `<tr class="rich-table-row ${firstRow ? 'rich-table-firstrow ' : ''}"><td class="rich-table-cell " id="${P}:${list}:${n}:j_id${cols[0]}"><span id="${P}:${list}:${n}:j_id${cols[0] + 10}">
		<div class="col-sm-12 ">${inner}
					<div class="col-sm-12 ">
					</div>
		<ul class="none">
			<li>
				<small class="text-muted">
					<span title="Defensoria">
					</span>
				</small>
			</li>
		</ul>
		</div></span></td><td class="rich-table-cell " id="${P}:${list}:${n}:j_id${cols[1]}"><span id="${P}:${list}:${n}:j_id${cols[1] + 10}">
		<div class="col-sm-12">Ativo
		</div></span></td></tr>`;
}

/**
 * Courts whose PJe prints roles with a gendered suffix in parentheses (`AUTOR(A)`, `REQUERIDO(A)`,
 * `PERITO(A)`: TJMG, TJPE, per reference/upstream/real/README.md "Set 2"). The parser reads them as the
 * bare role, so the simulator's TJMG and TJPE cases read back as the data set has them.
 */
export const GENDERED_ROLE_COURTS: readonly string[] = ['TJMG', 'TJPE'];

/** `AUTOR` → `AUTOR(A)`, `REQUERIDO` → `REQUERIDO(A)` at those courts; a role with no masculine ending stays as it is. */
export function printedRole(sigla: string, tipo: string): string {
  return GENDERED_ROLE_COURTS.includes(sigla) && /(OR|O)$/.test(tipo) ? `${tipo}(A)` : tipo;
}

function polo(site: PjeSite, div: string, list: string, header: string, panelId: number, parties: readonly Party[]): string {
  if (parties.length === 0) return `<div id="${P}:${div}"></div>`;
  const cols: [number, number] = [panelId + 5, panelId + 41];
  const rows: string[] = [];
  for (const party of parties) {
    rows.push(
      participantRow(
        list,
        rows.length,
        cols,
        `<span class="text-bold">${esc(`${party.person.nome}${documentOf(party)} (${printedRole(site.sigla, party.tipo)})`)}</span>`,
        rows.length === 0,
      ),
    );
    for (const l of party.advogados)
      rows.push(participantRow(list, rows.length, cols, `&#160;&#160;&#160;&#160;<span class="">${esc(lawyerLine(l))}</span>`, false));
  }
  return `<div id="${P}:${div}"><div class="rich-panel col-sm-12" id="${P}:j_id${panelId}"><div class="rich-panel-header " id="${P}:j_id${panelId}_header">${header}</div><div class="rich-panel-body panel" id="${P}:j_id${panelId}_body"><span id="${P}:${list.replace(/List$/, '')}">
					<div class="grid ">
							<table class="rich-table clearfix" id="${P}:${list}" border="0" cellpadding="0" cellspacing="0"><colgroup span="2"></colgroup><thead class="rich-table-thead"><tr class="rich-table-subheader "><th class="rich-table-subheadercell  " scope="col" id="${P}:${list}:j_id${cols[0]}header"><div id="${P}:${list}:j_id${cols[0]}header:sortDiv">Participante</div></th><th class="rich-table-subheadercell  " scope="col" id="${P}:${list}:j_id${cols[1]}header"><div id="${P}:${list}:j_id${cols[1]}header:sortDiv">Situa&ccedil;&atilde;o</div></th></tr></thead><tbody id="${P}:${list}:tb">${rows.join('')}</tbody></table><span class="pull-right text-muted">${rows.length} resultados encontrados</span>
					</div></span></div></div></div>`;
}

function movementRow(n: number, at: number, text: string): string {
  return `<tr class="rich-table-row ${n === 0 ? 'rich-table-firstrow ' : ''}"><td class="rich-table-cell text-break text-left " id="${P}:processoEvento:${n}:j_id498" colspan="1" rowspan="1">
		<div class="col-sm-12" title="">	
					<div class="col-sm-12 "><span id="${P}:processoEvento:${n}:j_id514">${pjeDateTime(at)} - ${esc(text)}</span>
					</div><span class=" text-left"></span>
		</div></td><td class="rich-table-cell " id="${P}:processoEvento:${n}:j_id526" colspan="1" rowspan="1"></td></tr>`;
}

export interface PjeDetailView {
  c: SandboxCase;
  /** Newest first, at most one page (15) of them. */
  movements: readonly Movement[];
  /** Every movement the case has by now (the footer's count). */
  total: number;
  movementText(m: Movement): string;
  /** The documents grid (documents.ts), after the movements; absent: none. */
  documents?: string;
}

/** The detail page: header properties, the three polo panels, the movements' first page. */
export function detailPage(site: PjeSite, v: PjeDetailView): string {
  const inst = v.c.instances[0];
  // PJe prints the principal subject's TPU path with its last `)` missing (every captured page).
  const principal = inst.assuntos[0];
  const assunto = principal ? `${esc(principal.nome)} (${principal.codigo}` : '';
  const byPolo = (polo: Party['polo']) => v.c.partes.filter((p) => p.polo === polo);
  const orgao = `\n\t\t<div class="col-sm-12 ">\n\t\t\t<b>&Oacute;rg&atilde;o Julgador</b>\n\t\t\t<br />\n\t\t\t${esc(inst.orgao.nome)}<div id="${P}:processoTrfViewView:j_id228:j_id229:j_id235">\n\t\t\t\t<br />\n\t\t\t\t<b>Endere&ccedil;o</b>\n\t\t\t\t<br />\n\t\t\t\tEndereço fictício do sandbox - ${inst.orgao.uf}</div> \n\t\t</div>`;
  return `${head(site, 'Detalhe do Processo')}
<div id="${P}:j_id150" class="col-sm-12">
<form id="${P}:processoTrfViewView" name="${P}:processoTrfViewView" method="post" action="${site.ctx}/ConsultaPublica/DetalheProcessoConsultaPublica/listView.seam" enctype="application/x-www-form-urlencoded">
			<div class="rich-stglpanel " id="${P}:processoTrfViewView:j_id152"><div class="rich-stglpanel-header " id="${P}:processoTrfViewView:j_id152_header"><div id="${P}:processoTrfViewView:divDadosProcesso">Dados do Processo</div></div><div class="rich-stglpanel-body " id="${P}:processoTrfViewView:j_id152_body"><table width="100%">
<tbody>
<tr>
<td class="viewColumn">${property(157, 'N&uacute;mero Processo', formatCnj(v.c.numero))}</td>
<td>${property(169, 'Data da Distribui&ccedil;&atilde;o', formatDateBr(brasiliaDateTime(new Date(inst.ajuizadoAt).toISOString()).slice(0, 10)), false)}</td>
<td>${property(180, 'Classe Judicial', `\n\t\t\t${esc(inst.classe.nome.toUpperCase())} (${inst.classe.codigo})`, false)}</td>
<td>${property(191, 'Assunto', `${assunto}\n`)}</td>
</tr>
<tr>
<td class="viewColumn">${property(204, 'Jurisdi&ccedil;&atilde;o', `\n\t\t\tComarca fict&iacute;cia (${inst.orgao.uf})`, false)}</td>
<td>${property(215, '', ' ')}</td>
<td>${property(228, '', orgao, false)}</td>
</tr>
</tbody>
</table>
</div></div><input type="hidden" name="javax.faces.ViewState" id="javax.faces.ViewState" value="j_id2" autocomplete="off" />
</form><div id="${P}:j_id283" class="mt-5"></div>
			</div>${polo(site, 'processoPartesPoloAtivoResumidoDiv', 'processoPartesPoloAtivoResumidoList', 'Polo ativo', 285, byPolo('ATIVO'))}${polo(site, 'processoPartesPoloPassivoResumidoDiv', 'processoPartesPoloPassivoResumidoList', 'Polo Passivo', 349, byPolo('PASSIVO'))}${polo(site, 'processoParteOutrosInteressadosResumidoDiv', 'processoParteOutrosInteressadosResumidoList', 'Outros interessados', 413, byPolo('OUTROS'))}<div id="${P}:processoEventoSearchForm" class="col-sm-3"></div><div class="rich-panel col-sm-12" id="${P}:processoEventoPanel"><div class="rich-panel-header " id="${P}:processoEventoPanel_header">Movimenta&ccedil;&otilde;es do Processo</div><div class="rich-panel-body panel" id="${P}:processoEventoPanel_body"><table class="rich-table " id="${P}:processoEvento" border="0" cellpadding="0" cellspacing="0"><colgroup span="2"></colgroup><thead class="rich-table-thead"><tr class="rich-table-subheader "><th class="rich-table-subheadercell  " scope="col" colspan="1" id="${P}:processoEvento:j_id498header"><div id="${P}:processoEvento:j_id498header:sortDiv"><span class="ml-5 mr-5 text-left">Movimento</span></div></th><th class="rich-table-subheadercell  " scope="col" colspan="1" id="${P}:processoEvento:j_id526header"><div id="${P}:processoEvento:j_id526header:sortDiv"><span class="ml-5 mr-5 text-left">Documento</span></div></th></tr></thead><tbody id="${P}:processoEvento:tb">${v.movements.map((m, n) => movementRow(n, m.at, v.movementText(m))).join('')}</tbody></table><span class="pull-right text-muted">${v.total} resultados encontrados</span></div></div>${v.documents ?? ''}${foot}`;
}

/** A Cloudflare managed challenge, shaped like TJPB's (block-tjpb-pje-cloudflare-challenge.html). */
export function cloudflarePage(ray: string): string {
  return `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title><meta http-equiv="Content-Type" content="text/html; charset=UTF-8"><meta name="robots" content="noindex,nofollow"></head><body><div class="main-wrapper" role="main"><div class="main-content"><noscript><div class="h2"><span id="challenge-error-text">Enable JavaScript and cookies to continue</span></div></noscript></div></div><script>(function(){window._cf_chl_opt = {cvId: '3',cZone: 'sandbox.invalid',cType: 'managed',cRay: '${ray}'};var a = document.createElement('script');a.src = '/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1?ray=${ray}';document.getElementsByTagName('head')[0].appendChild(a);}());</script></body></html>`;
}
