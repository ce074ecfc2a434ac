/**
 * The public documents' bytes: small real PDFs made with pdfkit from the case and the document
 * (title, case number, court, parties, a fictitious notice). Generation is deterministic (fixed
 * CreationDate, so pdfkit's file ID is fixed too), so a document's size can be computed once and
 * the bytes regenerated whenever they fall out of the small cache: `tamanho` always equals the bytes served.
 */
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import type { PublicDocument, SandboxCase } from '../data/model.ts';
import { fictitiousHeading, sandboxPdf } from '../pdf.ts';

export const BODY: Record<string, string> = {
  Petição:
    'Excelentíssimo(a) Senhor(a) Juiz(a), a parte autora, por seu advogado, vem propor a presente ação em face da parte ré, pelos fatos e fundamentos a ' +
    'seguir expostos, requerendo a citação da parte contrária e a procedência dos pedidos.',
  Despacho: 'Vistos. Intime-se a parte contrária para manifestação no prazo de 15 (quinze) dias. Após, voltem conclusos.',
  Decisão: 'Vistos. Trata-se de pedido formulado nos autos. Presentes os requisitos legais, defiro o pedido, nos termos da fundamentação. Intimem-se.',
  Sentença:
    'Vistos etc. Relatado o feito, decido. Ante o exposto, julgo o pedido nos termos da fundamentação, extinguindo o processo com resolução do mérito (art. ' +
    '487, I, do CPC). Publique-se. Registre-se. Intimem-se.',
  Acórdão:
    'Vistos, relatados e discutidos estes autos, acordam os integrantes do órgão julgador, por unanimidade, em conhecer do recurso ' +
    'e decidir nos termos do voto do relator.',
  Certidão: 'Certifico que, nesta data, foram praticados os atos de intimação determinados nos autos. Dou fé.',
};

export const NOTICE =
  'DOCUMENTO FICTÍCIO gerado pelo simulador do Tramita (sandbox). Nomes, números e fatos são inventados e não correspondem a ' +
  'nenhum processo, pessoa ou empresa real.';

function day(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
}

export function renderCasePdf(c: SandboxCase, doc: PublicDocument): Promise<Buffer> {
  return sandboxPdf({ title: `${doc.titulo} - ${formatCnj(c.numero)}`, createdAt: new Date(doc.juntadaAt) }, (pdf) => {
    const first = c.instances[0];
    fictitiousHeading(pdf, doc.titulo, NOTICE);
    pdf.text(`Processo nº ${formatCnj(c.numero)}`);
    pdf.text(`Tribunal: ${c.court.nome}`);
    pdf.text(`Órgão julgador: ${first.orgao.nome}`);
    pdf.text(`Classe: ${first.classe.nome}`);
    pdf.text(`Juntado em: ${day(doc.juntadaAt)}`);
    pdf.moveDown();
    for (const p of c.partes) pdf.text(`${p.tipo}: ${p.person.nome}`);
    pdf.moveDown().text(BODY[doc.tipo] ?? BODY.Decisão, { align: 'justify' });
    pdf.moveDown(2).font('Helvetica-Oblique').fontSize(9).text(NOTICE);
  });
}

/** Sizes of every document served so far, and the bytes of the most recent ones. */
export class PdfStore {
  readonly #sizes = new Map<string, number>();
  readonly #bytes = new Map<string, Promise<Buffer>>();
  readonly #maxCached: number;

  constructor(maxCached = 256) {
    this.#maxCached = maxCached;
  }

  bytes(c: SandboxCase, doc: PublicDocument): Promise<Buffer> {
    const key = `${c.numero}/${doc.id}`;
    let pending = this.#bytes.get(key);
    if (pending) {
      this.#bytes.delete(key); // move to the most-recent end
    } else {
      pending = renderCasePdf(c, doc);
      void pending.then(
        (b) => this.#sizes.set(key, b.length),
        () => this.#bytes.delete(key),
      );
    }
    this.#bytes.set(key, pending);
    while (this.#bytes.size > this.#maxCached) this.#bytes.delete(this.#bytes.keys().next().value!);
    return pending;
  }

  async size(c: SandboxCase, doc: PublicDocument): Promise<number> {
    return this.#sizes.get(`${c.numero}/${doc.id}`) ?? (await this.bytes(c, doc)).length;
  }
}
