/**
 * Resolves a row of the table into a whole Communication: the case's parties addressed by it (polo
 * A/P) with their lawyers (each OAB in a drawn spelling), the body of the act, link, hash, dates.
 * Everything is drawn from a PRNG keyed by (seed, id), so the same row always renders the same item.
 */
import type { SandboxDataset } from '../data/dataset.ts';
import type { Instance, Lawyer, Party, SandboxCase } from '../data/model.ts';
import { personName } from '../data/names.ts';
import { Random } from '../data/prng.ts';
import { brDay } from './dates.ts';
import { hashOfId, idOfRank } from './ids.ts';
import type { Addressee, Communication, LawyerRef, Polo, TextStyle } from './model.ts';
import { drawSpelling } from './oab.ts';
import { flagCancelled, flagKind, flagPolo, type CommunicationTable, type Kind } from './table.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const CANCEL_REASONS = ['Publicação em duplicidade', 'Erro material na comunicação', 'Comunicação expedida por equívoco', 'Destinatário incorreto'];

export function styleOf(dataset: SandboxDataset, c: SandboxCase): TextStyle {
  if (c.court.sigla === 'TJRJ') return 'plain';
  return dataset.profileOf(c.alias)?.eproc ? 'eproc' : 'pje';
}

export function linkOf(style: TextStyle, tribunal: string, numero: string, rng: Random): string | null {
  const court = tribunal.toLowerCase();
  // `.invalid` hosts: shaped like the courts' links, never pointing at a real system.
  if (style === 'eproc')
    return `https://eproc.sandbox.invalid/${court}/externo_controlador.php?acao=consulta_publica_documento&numProcesso=${numero}&idDocumento=${rng.digits(30)}`;
  if (style === 'pje') return `https://pje.sandbox.invalid/${court}/Processo/ConsultaDocumento/listView.seam?nd=${rng.digits(20)}`;
  return null;
}

const poloOf = (p: Party): Polo => (p.polo === 'ATIVO' ? 'A' : 'P');

/** The parties a communication addresses: one side, or both (OUTROS only when nobody else is there). */
function addressed(c: SandboxCase, polo: Polo | null): Party[] {
  const sides = c.partes.filter((p) => p.polo !== 'OUTROS' && (polo === null || poloOf(p) === polo));
  return sides.length > 0 ? sides : c.partes;
}

function addressees(parties: Party[], rng: Random): Addressee[] {
  const spelled = new Map<Lawyer, LawyerRef>();
  const ref = (l: Lawyer): LawyerRef => {
    let r = spelled.get(l);
    if (!r) {
      r = { nome: l.nome.toUpperCase(), uf: l.oab?.uf ?? '', numero: l.oab?.numero ?? null, spelling: drawSpelling(rng) };
      spelled.set(l, r);
    }
    return r;
  };
  return parties.map((p) => ({ nome: p.person.nome.toUpperCase(), polo: poloOf(p), tipo: p.tipo, advogados: p.advogados.map(ref) }));
}

function evento(instance: Instance, k: number): string {
  const m = instance.movements[k];
  return `Evento ${k + 1} - ${brDay(Math.floor(m.at / DAY))} - ${m.type.complemento ? `${m.type.nome} - ${m.type.complemento.nome}` : m.type.nome}`;
}

/** The act's body by kind. Short, formulaic texts like the real ones, all plainly fictitious. */
function corpo(kind: Kind, c: SandboxCase, instance: Instance, k: number, style: TextStyle, rng: Random): string[] {
  const day = Math.floor(instance.movements[k].at / DAY);
  switch (kind.tipoComunicacao) {
    case 'Lista de distribuição':
      return [`Processo distribuído em ${brDay(day)} ao órgão ${instance.orgao.nome}.`, `Classe: ${instance.classe.nome}.`];
    case 'Pauta de julgamento':
      return [
        `Ficam as partes e seus procuradores intimados da inclusão do processo na pauta da sessão de julgamento de ${brDay(day + rng.int(10, 30))}, às ` +
          `14h00, no órgão ${instance.orgao.nome}.`,
        'Pedidos de sustentação oral devem ser apresentados até 48 horas antes do início da sessão.',
      ];
    case 'Citação':
      return ['Fica a parte ré CITADA para, querendo, contestar a ação no prazo de 15 (quinze) dias úteis, sob pena de revelia (art. 344 do CPC).'];
    case 'Edital': {
      const reus = c.partes
        .filter((p) => p.polo === 'PASSIVO')
        .map((p) => p.person.nome.toUpperCase())
        .join(', ');
      return [
        'EDITAL DE CITAÇÃO - PRAZO DE 20 (VINTE) DIAS',
        `FAZ SABER a ${reus || 'quem interessar possa'}, em lugar incerto e não sabido, que por este juízo tramita a ação em epígrafe, ficando CITADO(A) ` +
          `para, no prazo de 15 (quinze) dias, após o decurso do prazo do edital, apresentar contestação.`,
      ];
    }
  }
  switch (kind.tipoDocumento) {
    case 'Sentença':
      return [
        'Vistos etc. Relatado o feito, decido. Ante o exposto, julgo o pedido nos termos da fundamentação, extinguindo o processo com resolução do mérito ' +
          '(art. 487, I, do CPC). Publique-se. Registre-se. Intimem-se.',
      ];
    case 'Acórdão':
      return [
        'Vistos, relatados e discutidos estes autos, acordam os integrantes do órgão julgador, por unanimidade, em conhecer do recurso ' +
          'e decidir nos termos do voto do relator.',
      ];
    case 'Ato ordinatório':
      return [
        style === 'eproc' ? 'Intimação realizada no sistema eproc.' : 'Intimação eletrônica.',
        'O ato refere-se aos seguintes eventos:',
        ...(k > 0 ? [evento(instance, k)] : []),
        evento(instance, Math.max(0, k - 1)),
      ];
    case 'Notificação':
      return [`Fica a parte intimada para, no prazo de 5 (cinco) dias, manifestar-se sobre o documento juntado aos autos (evento ${k}).`];
    default:
      return ['Vistos. Intime-se a parte para manifestação no prazo de 15 (quinze) dias. Após, voltem conclusos.'];
  }
}

/** The communication at `pos` of the table. */
export function resolveGenerated(dataset: SandboxDataset, table: CommunicationTable, pos: number): Communication {
  const c = dataset.cases[table.caseOf[pos]];
  const instance = c.instances[table.inst[pos]];
  const k = table.mov[pos];
  const flags = table.flags[pos];
  const kind = flagKind(flags);
  const at = instance.movements[k].at;
  const id = idOfRank(table.rankOf[pos]);
  const rng = new Random(dataset.seed, 'djen-item', id);
  const style = styleOf(dataset, c);
  const relator = instance.grau === 'G1' || instance.grau === 'JE' ? null : personName(rng).toUpperCase();
  const numeroComunicacao = rng.int(1, 99_999);
  const destinatarios = addressees(addressed(c, flagPolo(flags)), rng);
  const cancelamento = flagCancelled(flags) ? { at: at + rng.int(1, 6) * HOUR, motivo: rng.pick(CANCEL_REASONS) } : null;
  return {
    id,
    get hash() {
      return hashOfId(dataset.seed, id);
    },
    day: table.day[pos], // lazy: scans never need it
    createdAt: at - DAY, // courts send the day before it is made available
    tribunal: c.court.sigla,
    uf: instance.orgao.uf,
    orgao: { id: instance.orgao.codigo, nome: instance.orgao.nome },
    numero: c.numero,
    classe: instance.classe,
    relator,
    tipoComunicacao: kind.tipoComunicacao,
    tipoDocumento: kind.tipoDocumento,
    meio: kind.meio,
    numeroComunicacao,
    cancelamento,
    destinatarios,
    outrosAdvogados: [],
    style,
    corpo: corpo(kind, c, instance, k, style, rng),
    textoLivre: null,
    link: linkOf(style, c.court.sigla, c.numero, rng),
  };
}
