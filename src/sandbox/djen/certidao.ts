/**
 * The certidão de publicação (`GET /comunicacao/{hash}/certidao`): a small real PDF made with pdfkit,
 * like the portal's documents (portal/pdf.ts): deterministic (CreationDate fixed to the communication's
 * sending time), plainly fictitious.
 */
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import { fictitiousHeading, sandboxPdf } from '../pdf.ts';
import { brDay } from './dates.ts';
import { lawyersOf, type Communication } from './model.ts';
import { MEIO_COMPLETO } from './render.ts';

const NOTICE =
  'CERTIDÃO FICTÍCIA gerada pelo simulador do Tramita (sandbox). Nomes, números e fatos são inventados e não correspondem a ' +
  'nenhum processo, pessoa ou publicação real.';

export function renderCertidao(c: Communication): Promise<Buffer> {
  return sandboxPdf({ title: `Certidão de publicação - ${c.hash}`, createdAt: new Date(c.createdAt) }, (pdf) => {
    fictitiousHeading(pdf, 'Certidão de Publicação', NOTICE);
    pdf.text(
      `Certifico que a comunicação abaixo foi disponibilizada no ${MEIO_COMPLETO[c.meio]} em ${brDay(c.day)}, considerando-se publicada no primeiro dia útil ` +
        `seguinte (Lei nº 11.419/2006, art. 4º, § 3º).`,
      { align: 'justify' },
    );
    pdf.moveDown();
    pdf.text(`Processo nº ${formatCnj(c.numero)}`);
    pdf.text(`Tribunal: ${c.tribunal}`);
    pdf.text(`Órgão: ${c.orgao.nome}`);
    pdf.text(`Tipo de comunicação: ${c.tipoComunicacao} (${c.tipoDocumento})`);
    pdf.text(`Comunicação nº ${c.numeroComunicacao} (id ${c.id})`);
    pdf.text(`Código de verificação (hash): ${c.hash}`);
    if (c.cancelamento) pdf.text(`Cancelada: ${c.cancelamento.motivo}`);
    pdf.moveDown();
    for (const d of c.destinatarios) pdf.text(`Destinatário (polo ${d.polo}): ${d.nome}`);
    for (const l of lawyersOf(c)) pdf.text(`Advogado(a): ${l.nome}${l.numero ? ` (OAB ${l.uf} ${l.numero})` : ''}`);
    pdf.moveDown(2).font('Helvetica-Oblique').fontSize(9).text(NOTICE);
  });
}
