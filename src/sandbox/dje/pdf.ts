/**
 * An electoral edition as a real PDF (pdfkit), laid out as the real DJE (DJE/TRE-PA 2026 nº 223,
 * reference/upstream/real/tse-1.md): the masthead and the sumário (with the indexes' pages), then under
 * the unit's heading each matéria as
 *
 *     REGISTRO DE CANDIDATURA(11532) Nº <CNJ>
 *     PUBLICAÇÃO EM : <the next business day>
 *     PROCESSO : <CNJ> REGISTRO DE CANDIDATURA (Belém - PA)
 *     RELATOR : …   FISCAL DA LEI : …
 *     <PAPEL> : NOME                  one per party, then its lawyers as
 *     ADVOGADO : NOME (123456/PA)     the number without its letter, as the real header prints it
 *
 * then the body, which repeats the parties with the lawyers as `ADVOGADO(A): NOME - OAB/PA26585-A`
 * (the letter kept), `DECISÃO` and the text; at the end the four indexes (advogados, partes, processos,
 * datas de publicação), whose lines repeat the numbers and headings. The connector's splitter
 * (sources/dje/split.ts) reads it; dje/layout.test.ts holds it to the real one. Deterministic
 * (CreationDate fixed to the edition's day), plainly fictitious.
 */
import { brDay } from '../djen/dates.ts';
import { nextBusinessDay } from '../stf/publications.ts';
import { sandboxPdf } from '../pdf.ts';
import type { DjeEdition, DjeLawyer, DjeMateria } from './editions.ts';

const NOTICE = 'EDIÇÃO FICTÍCIA gerada pelo simulador do Tramita (sandbox). Nomes, números e fatos são inventados.';
const UNIT = 'SECRETARIA JUDICIÁRIA';
const INDEXES = ['Índice de Advogados', 'Índice de Partes', 'Índice de Processos', 'Índice de Datas de Publicação'] as const;

/** `REGISTRO DE CANDIDATURA (11532)` → name and code. */
function classOf(m: DjeMateria): { nome: string; codigo: string } {
  const match = /^(.*?)\s*\((\d+)\)$/.exec(m.classe);
  return match ? { nome: match[1], codigo: match[2] } : { nome: m.classe, codigo: '0' };
}

/** `SP123456A` → the header's `123456/SP` (no letter) and the body's `OAB/SP123456-A`. */
function notations(oab: string): { header: string; body: string } {
  const [, uf, numero, letra] = /^([A-Z]{2})(\d+)([A-Z]?)$/.exec(oab) ?? [];
  return { header: `${numero}/${uf}`, body: `OAB/${uf}${numero}${letra ? `-${letra}` : ''}` };
}

const headerLawyer = (l: DjeLawyer) => `ADVOGADO : ${l.nome}${l.oab ? ` (${notations(l.oab).header})` : ''}`;
const bodyLawyer = (l: DjeLawyer) => `ADVOGADO(A): ${l.nome}${l.oab ? ` - ${notations(l.oab).body}` : ''}`;

/** The page each index starts on, and each matéria's page, as one rendering found them. */
interface Pages {
  indexes: number[];
  materias: number[];
}

export async function renderEdition(e: DjeEdition): Promise<Buffer> {
  // The sumário names the indexes' pages, known once the matérias are laid out: a first pass counts them.
  const first = await render(e, null);
  return (await render(e, first.pages)).bytes;
}

async function render(e: DjeEdition, known: Pages | null): Promise<{ bytes: Buffer; pages: Pages }> {
  const pages: Pages = { indexes: [], materias: [] };
  const bytes = await sandboxPdf({ title: `DJE ${e.tribunal} nº ${e.numero}`, createdAt: new Date(e.day * 86_400_000), margin: 48 }, (pdf) => {
    let page = 1;
    pdf.on('pageAdded', () => page++);
    const year = new Date(e.day * 86_400_000).getUTCFullYear();
    const publicacao = brDay(nextBusinessDay(e.day));

    pdf.font('Helvetica-Bold').fontSize(14).text(`DIÁRIO DA JUSTIÇA ELETRÔNICO DO ${e.tribunal}`);
    pdf
      .font('Helvetica')
      .fontSize(10)
      .text(`Ano: ${year}, nº ${e.numero}${e.extra ? ' (edição extra)' : ''} · Disponibilização: ${brDay(e.day)}`);
    pdf.font('Helvetica-Oblique').fontSize(8).text(NOTICE);
    pdf.moveDown().font('Helvetica-Bold').fontSize(11).text('SUMÁRIO');
    pdf.font('Helvetica').fontSize(9).text('Secretaria Judiciária — 1');
    for (const [i, name] of INDEXES.entries()) pdf.text(`${name} — ${known?.indexes[i] ?? 1}`);
    pdf.moveDown().font('Helvetica-Bold').fontSize(11).text(UNIT);
    pdf.text('INTIMAÇÕES');

    for (const m of e.materias) {
      const c = classOf(m);
      pages.materias.push(page);
      pdf.moveDown().font('Helvetica-Bold').fontSize(10).text(`${c.nome}(${c.codigo}) Nº ${m.numeroCnj}`);
      pdf.font('Helvetica').fontSize(9).text(`PUBLICAÇÃO EM : ${publicacao}`);
      pdf.text(`PROCESSO : ${m.numeroCnj} ${c.nome} (${m.origem})`);
      pdf.text(`RELATOR : ${e.tribunal === 'TSE' ? 'Ministra Relatora Fictícia do Sandbox' : 'Juíza Relatora Fictícia do Sandbox'}`);
      pdf.text(`FISCAL DA LEI : ${e.tribunal === 'TSE' ? 'PROCURADORIA-GERAL ELEITORAL' : 'PROCURADORIA REGIONAL ELEITORAL'}`);
      for (const p of m.partes) {
        pdf.text(`${p.papel} : ${p.nome}`);
        for (const l of p.advogados) pdf.text(headerLawyer(l));
      }
      pdf.moveDown(0.5).font('Helvetica-Bold').text('PODER JUDICIÁRIO');
      pdf.font('Helvetica').text(`${c.nome} (${c.codigo}) nº: ${m.numeroCnj}.`);
      for (const p of m.partes) {
        pdf.text(`${p.papel}: ${p.nome}`);
        for (const l of p.advogados) pdf.text(bodyLawyer(l));
      }
      pdf.font('Helvetica-Bold').text('DECISÃO');
      pdf.font('Helvetica').text(m.texto, { align: 'justify' });
    }

    const where = (m: DjeMateria) => pages.materias[e.materias.indexOf(m)];
    const lawyers = new Map<string, { l: DjeLawyer; pages: Set<number> }>();
    const parties = new Map<string, Set<number>>();
    for (const m of e.materias) {
      for (const p of m.partes) {
        parties.set(p.nome, (parties.get(p.nome) ?? new Set()).add(where(m)));
        for (const l of p.advogados) {
          const key = `${l.nome}|${l.oab}`;
          lawyers.set(key, { l, pages: (lawyers.get(key)?.pages ?? new Set()).add(where(m)) });
        }
      }
    }
    const index = (name: string, lines: string[]) => {
      pdf.addPage();
      pages.indexes.push(page);
      pdf.font('Helvetica-Bold').fontSize(11).text(name.toUpperCase());
      pdf.font('Helvetica').fontSize(9);
      for (const l of lines) pdf.text(l);
    };
    const sorted = (a: string, b: string) => a.localeCompare(b, 'pt-BR');
    index(
      INDEXES[0],
      [...lawyers.values()]
        .sort((a, b) => sorted(a.l.nome, b.l.nome))
        .map(({ l, pages: p }) => `${l.nome}${l.oab ? ` (${notations(l.oab).header})` : ''} ${[...p].join(' ')}`),
    );
    index(
      INDEXES[1],
      [...parties].sort(([a], [b]) => sorted(a, b)).map(([nome, p]) => `${nome} ${[...p].join(' ')}`),
    );
    index(
      INDEXES[2],
      e.materias.map((m) => `${m.sigla} ${m.numeroCnj} ${where(m)}`),
    );
    index(INDEXES[3], [
      `Matérias com publicação em ${publicacao}`,
      ...e.materias.map((m) => `${classOf(m).nome}(${classOf(m).codigo}) Nº ${m.numeroCnj} ${where(m)}`),
    ]);
  });
  return { bytes, pages };
}
