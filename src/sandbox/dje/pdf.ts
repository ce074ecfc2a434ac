/**
 * An electoral edition as a real PDF (pdfkit): the masthead, then each matéria under its heading
 * `PROCESSO Nº <CNJ>` with `CLASSE:`, one `<PAPEL>: NOME` line per party and one `ADVOGADO: NOME -
 * OAB/UF N` line per lawyer, and the decision's text: the layout the connector's splitter reads
 * (sources/dje/split.ts). Deterministic (CreationDate fixed to the edition's day), plainly fictitious.
 */
import PDFDocument from 'pdfkit';
import { brDay } from '../djen/dates.ts';
import type { DjeEdition } from './editions.ts';

const NOTICE = 'EDIÇÃO FICTÍCIA gerada pelo simulador do Tramita (sandbox). Nomes, números e fatos são inventados.';

export function renderEdition(e: DjeEdition): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const pdf = new PDFDocument({
      size: 'A4', margin: 48, compress: true,
      info: { Title: `DJE ${e.tribunal} nº ${e.numero}`, Author: 'Tramita sandbox', Creator: 'Tramita sandbox', Producer: 'Tramita sandbox', CreationDate: new Date(e.day * 86_400_000) },
    });
    const chunks: Buffer[] = [];
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
    pdf.font('Helvetica-Bold').fontSize(14).text(`DIÁRIO DA JUSTIÇA ELETRÔNICO DO ${e.tribunal}`);
    pdf.font('Helvetica').fontSize(10).text(`${e.extra ? 'Edição extra' : 'Edição'} nº ${e.numero} - ${brDay(e.day)}`);
    pdf.font('Helvetica-Oblique').fontSize(8).text(NOTICE);
    for (const m of e.materias) {
      pdf.moveDown().font('Helvetica-Bold').fontSize(10).text(`PROCESSO Nº ${m.numeroCnj}`);
      pdf.font('Helvetica').fontSize(9).text(`CLASSE: ${m.classe}`);
      for (const p of m.partes) {
        pdf.text(`${p.papel}: ${p.nome}`);
        for (const l of p.advogados) pdf.text(`ADVOGADO: ${l.nome}${l.oab ? ` - ${l.oab}` : ''}`);
      }
      pdf.text(m.texto, { align: 'justify' });
    }
    pdf.end();
  });
}
