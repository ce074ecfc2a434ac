/** The cover as a PDF (GET …/pdf): the same fields as the JSON cover, laid out for people. */
import { formatReais } from '../../platform/format.ts';
import { renderPdf } from '../../platform/pdf.ts';
import type { CaseCover } from './present.ts';

export function coverPdf(cover: CaseCover, generatedAt: string): Promise<Buffer> {
  // The metadata date is the render time the footer prints, not the PDF library's own clock.
  const info = { Title: `Processo ${cover.numeroCnj}`, Creator: 'Tramita', CreationDate: new Date(generatedAt) };
  return renderPdf({ size: 'A4', margin: 50, info }, (doc) => {
    doc.fontSize(16).text(`Processo ${cover.numeroCnj}`);
    doc
      .fontSize(10)
      .fillColor('#555')
      .text(
        `${cover.tribunal} · ${cover.grau ?? ''} · fonte ${cover.fontes[0]?.fonteDados ?? '—'}${cover.fontes[0]?.sandbox ? ' (SANDBOX: dados fictícios)' : ''}`,
      );
    doc.moveDown().fillColor('#000').fontSize(11);
    const line = (label: string, value: string | number | null | undefined) => doc.text(`${label}: ${value ?? '—'}`);
    line('Classe', cover.classe ? `${cover.classe.nome} (${cover.classe.codigo})` : null);
    line('Assuntos', cover.assuntos.map((a) => a.nome).join('; ') || null);
    line('Órgão julgador', cover.orgaoJulgador?.nome);
    line('Sistema', cover.sistema?.nome);
    line('Ajuizamento', cover.dataAjuizamento);
    line('Última atualização', cover.ultimaAtualizacao);
    line('Valor da causa', cover.valorCausaCentavos === null ? null : formatReais(cover.valorCausaCentavos));
    line('Movimentações', cover.quantidadeMovimentacoes);
    if (cover.partes && cover.partes.length > 0) {
      doc.moveDown().fontSize(13).text('Partes').fontSize(11);
      for (const p of cover.partes) {
        doc.text(`${p.polo} · ${p.tipo}: ${p.nome}${p.documento ? ` (${p.documento})` : ''}`);
        for (const a of p.advogados) doc.text(`    Advogado(a): ${a.nome}${a.oab ? ` (OAB ${a.oab})` : ''}`);
      }
    }
    if (cover.ultimaMovimentacao) {
      doc.moveDown().fontSize(13).text('Última movimentação').fontSize(11);
      doc.text(`${cover.ultimaMovimentacao.dataHora} · ${cover.ultimaMovimentacao.nome}`);
    }
    doc.moveDown().fontSize(8).fillColor('#777').text(`Gerado por Tramita em ${generatedAt}. Espelho informativo da capa; não substitui certidão.`);
  });
}
