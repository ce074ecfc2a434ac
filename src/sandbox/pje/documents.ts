/**
 * The public documents of the simulated PJe (issue 53), with the real pages' markup
 * (reference/upstream/real/pje-tjma-detalhe_ok.html's documents grid, the viewer pages of
 * reference/upstream/real/documents/): the detail page's grid (viewer rows, newest first, with the
 * `documentoSemLoginHTML.seam?ca=…&idProcessoDoc=…` popup link) and the viewer page itself (the sheet
 * `div.folha` with the fictitious text, the signature block, the barcode's validation code and the
 * "Gerar PDF" form). parity.test.ts holds both to the captures.
 */
import { formatCnj } from '../../platform/identifiers/index.ts';
import type { PublicDocument, SandboxCase } from '../data/model.ts';
import { BODY, NOTICE } from '../portal/pdf.ts';
import { pjeDateTime, type PjeSite } from './pages.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);
const P = 'j_id149';
const BARCODE = '/a4j/s/3_3_3.Finalorg.ajax4jsf.resource.UserResource/n/n/-879258763/DATA/sandbox?cid=1';
const VIEWER = '/ConsultaPublica/DetalheProcessoConsultaPublica/documentoSemLoginHTML.seam';
const VIEW_STATE = '<input type="hidden" name="javax.faces.ViewState" id="javax.faces.ViewState" value="j_id4" autocomplete="off" />';

/** The signer every simulated document names: fictitious, like every name of the sandbox. */
export const SANDBOX_SIGNER = 'MAGISTRADO FICTICIO DO SANDBOX';

/** `yyMMddHHmmssSSS` of the signature + the binary id in 14 digits (README §2: the validation code). */
function validationCode(at: number, binId: string): string {
  const t = pjeDateTime(at);
  return `${t.slice(8, 10)}${t.slice(3, 5)}${t.slice(0, 2)}${t.slice(11, 13)}${t.slice(14, 16)}${t.slice(17, 19)}000${binId.padStart(14, '0')}`;
}

/** The Gerar-PDF link's script, as the real page prints it: the timer, then `jsfcljs` posting the form with the token and the binary id. */
const pdfOnclick = (ca: string, bin: string) =>
  "var a=function(){iniciarTemporizadorDownload();};var b=function(){if(typeof jsfcljs == 'function'){jsfcljs(document.getElementById('j_id40')," +
  `{'j_id40:downloadPDF':'j_id40:downloadPDF','ca':'${ca}','idProcDocBin':'${bin}'},'');}return false};return (a()==false) ? false : b();`;

/** The binary id the viewer's Gerar-PDF form carries (never on the detail page). */
export const binIdOf = (doc: PublicDocument) => String(Number(doc.id) - 1_000_000);

function row(site: PjeSite, n: number, doc: PublicDocument, ca: string): string {
  const id = `${P}:processoDocumentoGridTab:${n}:j_id607`;
  const url = `${site.ctx}${VIEWER}?ca=${ca}&amp;idProcessoDoc=${doc.id}`;
  return `<tr class="rich-table-row ${n === 0 ? 'rich-table-firstrow ' : ''}"><td class="rich-table-cell " id="${P}:processoDocumentoGridTab:${n}:j_id593" colspan="1" rowspan="1"><span id="${id}"><a class="btn btn-default btn-sm" href="#" id="${id}:idView" name="${id}:idView" onclick="openPopUp('${doc.id}popUpDocumento', '${url}');;A4J.AJAX.Submit('${P}',event,{'similarityGroupingId':'${id}:idView','containerId':'${P}:j_id572','parameters':{'${id}:idView':'${id}:idView'} } );return false;" title="Visualizar">
		
		<i class="fa fa-external-link"></i>
		<span class="sr-only">Visualizar documentos</span>${pjeDateTime(doc.juntadaAt)} - ${esc(doc.titulo)} (${esc(doc.tipo)})</a></span></td><td class="rich-table-cell " id="${P}:processoDocumentoGridTab:${n}:j_id629" colspan="1" rowspan="1"></td></tr>`;
}

/** The "Documentos juntados ao processo" panel: one viewer row per document, newest first, and its count. */
export function documentsGrid(site: PjeSite, docs: readonly PublicDocument[], caOf: (doc: PublicDocument) => string): string {
  const rows = docs.map((d, n) => row(site, n, d, caOf(d))).join('');
  return `<div id="${P}:idEditarModeloDocumento"><div id="${P}:processoDocumentoGridTabSearchForm" class="col-sm-3"></div><div class="rich-panel col-sm-12" id="${P}:processoDocumentoGridTabPanel"><div class="rich-panel-header " id="${P}:processoDocumentoGridTabPanel_header">Documentos juntados ao processo</div><div class="rich-panel-body panel" id="${P}:processoDocumentoGridTabPanel_body"><table class="rich-table " id="${P}:processoDocumentoGridTab" border="0" cellpadding="0" cellspacing="0"><colgroup span="2"></colgroup><thead class="rich-table-thead"><tr class="rich-table-subheader "><th class="rich-table-subheadercell  " scope="col" colspan="1" id="${P}:processoDocumentoGridTab:j_id593header"><div id="${P}:processoDocumentoGridTab:j_id593header:sortDiv"><span class="ml-5 mr-5 text-left">Documento</span></div></th><th class="rich-table-subheadercell  " scope="col" colspan="1" id="${P}:processoDocumentoGridTab:j_id629header"><div id="${P}:processoDocumentoGridTab:j_id629header:sortDiv"><span class="ml-5 mr-5 text-left">Certid&atilde;o</span></div></th></tr></thead><tbody id="${P}:processoDocumentoGridTab:tb">${rows}</tbody></table><span class="pull-right text-muted">${docs.length} resultados encontrados</span></div></div></div>`;
}

/** `GET …/documentoSemLoginHTML.seam?ca=…&idProcessoDoc=…`: the document's sheet, its signature and the Gerar-PDF form. */
export function viewerPage(site: PjeSite, c: SandboxCase, doc: PublicDocument, ca: string): string {
  const inst = c.instances[0];
  const partes = c.partes.map((p) => `<p>${esc(p.tipo)}: ${esc(p.person.nome)}</p>`).join('\n');
  const body = `<p align="center"><strong>PODER JUDICI&Aacute;RIO</strong></p>
<p align="center"><strong>${esc(c.court.nome.toUpperCase())}</strong></p>
<p align="center">${esc(inst.orgao.nome)}</p>
<p>PROCESSO N&ordm; ${formatCnj(c.numero)}</p>
<p>CLASSE: ${esc(inst.classe.nome.toUpperCase())}</p>
${partes}
<p align="center"><strong>${esc(doc.titulo.toUpperCase())}</strong></p>
<p style="text-indent: 8%; text-align: justify;">${esc(BODY[doc.tipo] ?? BODY.Decisão!)}</p>
<p style="text-indent: 8%; text-align: justify;"><em>${esc(NOTICE)}</em></p>
<p align="center">${SANDBOX_SIGNER}</p>`;
  const bin = binIdOf(doc);
  return `<html xmlns="http://www.w3.org/1999/xhtml"><head>
	<title> &middot; Tribunal simulado (${site.sigla}) - sandbox Tramita</title>
	<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
	</head>
	<body class="scroll-y"><div id="j_id22" class="container-fluid content impresso"><div id="j_id23" class="folha">
			<script type="text/javascript">
			</script><style>p{text-align: left;}</style>${body}
	  		<script type="text/javascript">
			</script>
	        <table width="100%">
		      	<tbody><tr>
		      		<td align="left" width="22px" valign="top"><img src="${site.ctx}/img/imgSign.png" width="22px" />
		      		</td>
		      		<td align="left" width="80%" valign="top">
		      			<small>
							Assinado eletronicamente por:
							<b>
		      						${SANDBOX_SIGNER}<br />${pjeDateTime(doc.juntadaAt)}
                                  	<br />
		      				</b>
		      				https://sandbox.invalid${site.ctx}/Processo/ConsultaDocumento/listView.seam
		      				<br />
		      				ID do documento:
		      				<b>${doc.id}</b>
						</small>
		      		</td>
		      		<td>
		      		</td>
		      		<td align="right" valign="top"><img id="imgCodBarras" src="${site.ctx}${BARCODE}" />
			        	<span class="text-center">${validationCode(doc.juntadaAt, bin)}
						</span>
		      		</td>
		      	</tr>
	        </tbody></table>

			<center><span id="panelGroupPai">
<form id="j_id40" name="j_id40" method="post" action="${site.ctx}${VIEWER}" enctype="application/x-www-form-urlencoded">
<input type="hidden" name="j_id40" value="j_id40" />
						<button class="btn btn-default btn-sm" type="button" onclick="window.print();">Imprimir</button>
<a id="j_id40:downloadPDF" href="#" title="Imprimir" onclick="${pdfOnclick(ca, bin)}">
							<i class="btn btn-default btn-sm">Gerar PDF</i></a>${VIEW_STATE}
</form></span>
			</center></div></div>
</body></html>
`;
}
