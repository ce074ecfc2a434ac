/**
 * The simulated electoral bulletin board (Mural Eletrônico, reference/upstream/wave2.md §D): every day
 * of the electoral period each court posts a few fictitious intimations of candidacies, accounts and
 * representations, generated from the court and the day alone and naming the data set's parties and
 * lawyers. Served twice: by the board's own back end (whose search demands a reCAPTCHA token, so
 * Tramita never gets an answer from it) and by the provider protocol an operator's provider speaks
 * (docs/providers.md). Knob `outOfPeriod`: the board is empty, as outside an election.
 */
import { sandboxPdf } from '../pdf.ts';
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import { foldText } from '../data/text.ts';
import type { SandboxDataset } from '../data/dataset.ts';
import { Random } from '../data/prng.ts';
import { brDay, isoDay } from '../djen/dates.ts';
import { DJE_COURTS, electoralCnj } from '../dje/editions.ts';

export interface MuralItem {
  id: string;
  numero: string;
  tribunal: string;
  /** ISO instant with the Brasília offset. */
  publicadoEm: string;
  tipoDocumento: string;
  numeroProcesso: string;
  texto: string;
  partes: { nome: string; advogados: { nome: string; oab: string | null }[] }[];
}

export interface MuralFilter {
  parte?: string;
  advogado?: string;
  /** Canonical `SP123456`. */
  oab?: string;
  tribunal?: string;
  /** Epoch days, inclusive. */
  de: number;
  ate: number;
}

const TIPOS = ['Intimação', 'Notificação', 'Citação', 'Decisão'];
const ASSUNTOS = [
  'do indeferimento do registro de candidatura',
  'para apresentar contas retificadoras em 3 (três) dias',
  'da decisão que julgou procedente a representação',
  'para se manifestar sobre o pedido de direito de resposta em 24 (vinte e quatro) horas',
];

export class MuralBoard {
  readonly #dataset: SandboxDataset;
  outOfPeriod = false;

  constructor(dataset: SandboxDataset) {
    this.#dataset = dataset;
  }

  /** `/_sandbox/mural`: `{outOfPeriod}`. */
  set(knobs: { outOfPeriod?: unknown }): void {
    for (const k of Object.keys(knobs)) if (k !== 'outOfPeriod') throw new RangeError(`mural: unknown setting "${k}" (known: outOfPeriod)`);
    if (knobs.outOfPeriod !== undefined && typeof knobs.outOfPeriod !== 'boolean') throw new RangeError('mural: outOfPeriod must be a boolean');
    this.outOfPeriod = knobs.outOfPeriod === true;
  }

  get(): { outOfPeriod: boolean } {
    return { outOfPeriod: this.outOfPeriod };
  }

  reset(): void {
    this.outOfPeriod = false;
  }

  /** The items `tribunal` posted on `day`, in order. */
  day(tribunal: string, day: number): MuralItem[] {
    const people = this.#dataset.people;
    if (this.outOfPeriod || people.length === 0 || day > Math.floor(this.#dataset.now() / 86_400_000)) return [];
    const rng = new Random('mural', this.#dataset.seed, tribunal, day);
    return Array.from({ length: rng.int(0, 3) }, (_, i) => {
      const p = people[rng.skewedIndex(people.length, 2)];
      const numeroProcesso = formatCnj(electoralCnj(rng, tribunal));
      const tipo = rng.pick(TIPOS);
      const advogados = p.lawyers.slice(0, 2).map((l) => ({ nome: l.nome.toUpperCase(), oab: l.oab ? `${l.oab.uf}${l.oab.numero}` : null }));
      const minute = rng.int(8 * 60, 19 * 60 - 1);
      return {
        id: `${tribunal}-${isoDay(day).replace(/-/g, '')}-${String(i + 1).padStart(3, '0')}`,
        numero: `${rng.int(1, 9999)}/${isoDay(day).slice(0, 4)}`,
        tribunal,
        publicadoEm: `${isoDay(day)}T${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00-03:00`,
        tipoDocumento: tipo,
        numeroProcesso,
        texto:
          `${tipo.toUpperCase()} - Processo ${numeroProcesso}. Fica ${p.nome.toUpperCase()} ` +
          `intimado(a) ${rng.pick(ASSUNTOS)}. ${tribunal}, ${brDay(day)}. Documento fictício do sandbox do Tramita.`,
        partes: [{ nome: p.nome.toUpperCase(), advogados }],
      };
    });
  }

  /** Every item matching `f`, newest day first. */
  search(f: MuralFilter): MuralItem[] {
    const courts = f.tribunal ? [f.tribunal] : DJE_COURTS;
    const parte = f.parte ? foldText(f.parte) : null;
    const advogado = f.advogado ? foldText(f.advogado) : null;
    const out: MuralItem[] = [];
    for (let day = f.ate; day >= f.de; day--) {
      for (const t of courts) {
        for (const item of this.day(t, day)) {
          if (parte && !item.partes.some((p) => foldText(p.nome).includes(parte))) continue;
          if (advogado && !item.partes.some((p) => p.advogados.some((a) => foldText(a.nome).includes(advogado)))) continue;
          if (f.oab && !item.partes.some((p) => p.advogados.some((a) => a.oab === f.oab))) continue;
          out.push(item);
        }
      }
    }
    return out;
  }

  /** The item of `id` (`<tribunal>-<yyyymmdd>-<n>`), or null. */
  find(id: string): MuralItem | null {
    const m = /^(TSE|TRE-[A-Z]{2})-(\d{4})(\d{2})(\d{2})-\d{3}$/.exec(id);
    if (!m || !DJE_COURTS.includes(m[1])) return null;
    const day = Math.floor(Date.parse(`${m[2]}-${m[3]}-${m[4]}T00:00:00Z`) / 86_400_000);
    return Number.isNaN(day) ? null : (this.day(m[1], day).find((i) => i.id === id) ?? null);
  }
}

/** The item as a PDF: the act itself (`documento`) or the certificate of its posting (`certidao`). */
export function renderMuralDocument(item: MuralItem, kind: 'documento' | 'certidao'): Promise<Buffer> {
  return sandboxPdf({ title: `${kind} ${item.id}`, createdAt: new Date(item.publicadoEm) }, (pdf) => {
    pdf
      .font('Helvetica-Bold')
      .fontSize(14)
      .text(kind === 'certidao' ? 'CERTIDÃO DE PUBLICAÇÃO NO MURAL ELETRÔNICO' : `MURAL ELETRÔNICO - ${item.tribunal}`);
    pdf.moveDown().font('Helvetica').fontSize(10);
    if (kind === 'certidao')
      pdf.text(`Certifico que a publicação nº ${item.numero} (${item.id}) foi afixada no Mural Eletrônico do ${item.tribunal} em ${item.publicadoEm}.`);
    else pdf.text(item.texto, { align: 'justify' });
    pdf.moveDown().font('Helvetica-Oblique').fontSize(8).text('Documento fictício gerado pelo simulador do Tramita (sandbox).');
  });
}
