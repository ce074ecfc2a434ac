/**
 * Every PDF Tramita draws (covers, court documents without their own PDF, the sandbox's documents and
 * gazettes) is made the same way: pdfkit, loaded on first use (it costs ~70 ms and ~10 MB at start-up,
 * issue 19), its chunks gathered into one buffer. `draw` lays out the pages; the document is ended here.
 */
export type Pdf = PDFKit.PDFDocument;

export async function renderPdf(options: PDFKit.PDFDocumentOptions, draw: (pdf: Pdf) => void): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const pdf = new PDFDocument(options);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  draw(pdf);
  pdf.end();
  return done;
}
