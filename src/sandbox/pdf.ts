/**
 * The sandbox's PDFs (documents, certidões, gazettes, the mural's acts): A4, compressed, saying who made
 * them, and dated by what they show (never the clock) so their bytes, and so their sizes, are deterministic.
 */
import { type Pdf, renderPdf } from '../platform/pdf.ts';

export function sandboxPdf(meta: { title: string; createdAt: Date; margin?: number }, draw: (pdf: Pdf) => void): Promise<Buffer> {
  const info = { Title: meta.title, Author: 'Tramita sandbox', Creator: 'Tramita sandbox', Producer: 'Tramita sandbox', CreationDate: meta.createdAt };
  return renderPdf({ size: 'A4', margin: meta.margin ?? 56, compress: true, info }, draw);
}

/** A fictitious document's heading: its title, then the red notice that nothing in it is real. */
export function fictitiousHeading(pdf: Pdf, title: string, notice: string): void {
  pdf.font('Helvetica-Bold').fontSize(16).text(title);
  pdf.moveDown(0.5).font('Helvetica-Oblique').fontSize(9).fillColor('#a00000').text(notice).fillColor('black');
  pdf.moveDown().font('Helvetica').fontSize(11);
}
