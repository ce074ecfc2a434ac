/**
 * e-SAJ prints a party's role as an abbreviation (`Reqte`, `Reqda`, `TerIntCer`) and never its pole
 * (reference/upstream/real/README.md §2): the pole is read from the role here. An abbreviation whose
 * expansion is certain is expanded; any other is kept as printed (never a guessed expansion), and a
 * role that names no side is `OUTROS`.
 */
import type { ConsultaParty } from '../record.ts';

const EXPANSIONS: Record<string, string> = {
  reqte: 'Requerente',
  reqdo: 'Requerido',
  reqda: 'Requerida',
  exeqte: 'Exequente',
  exectdo: 'Executado',
  exectda: 'Executada',
  imptte: 'Impetrante',
  impttdo: 'Impetrado',
  impttda: 'Impetrada',
  apte: 'Apelante',
  apdo: 'Apelado',
  apda: 'Apelada',
  agvte: 'Agravante',
  agvdo: 'Agravado',
  agvda: 'Agravada',
  embargte: 'Embargante',
  embargdo: 'Embargado',
  embargda: 'Embargada',
  recte: 'Recorrente',
  recdo: 'Recorrido',
  recda: 'Recorrida',
  intersdo: 'Interessado',
  intersda: 'Interessada',
};

/** Stems of the roles of each side, matched on the role's start, case- and accent-insensitive. */
const ATIVO = [
  'reqte',
  'requerente',
  'autor',
  'exeqte',
  'exequente',
  'imptte',
  'impetrante',
  'apte',
  'apelante',
  'agvte',
  'agravante',
  'embargte',
  'embargante',
  'recte',
  'recorrente',
  'reclamante',
  'querelante',
  'denunciante',
  'justica publica',
  'alimentand',
  'demandante',
  'suscitante',
  'excipiente',
  'reconvinte',
  'requisitante',
];
const PASSIVO = [
  'reqd',
  'requerid',
  'reu',
  're ',
  'exectd',
  'executad',
  'impttd',
  'impetrad',
  'apd',
  'apelad',
  'agvd',
  'agravad',
  'embargd',
  'embargad',
  'recd',
  'recorrid',
  'reclamad',
  'querelad',
  'denunciad',
  'indiciad',
  'averiguad',
  'autor do fato',
  'alimentante',
  'demandad',
  'suscitad',
  'except',
  'reconvind',
  'requisitad',
];

/** Without accents, lower case, trimmed: how e-SAJ's labels, roles and class names are compared. */
export function folded(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

/** The role as a person reads it: the expansion of a known abbreviation, else as printed. */
export function esajRole(printed: string): string {
  return EXPANSIONS[folded(printed)] ?? printed;
}

/** The side a role belongs to; `OUTROS` when it names none (interested third parties, witnesses, experts). */
export function esajPolo(printed: string): ConsultaParty['polo'] {
  const role = `${folded(printed)} `;
  if (role === 're ' || PASSIVO.some((s) => role.startsWith(s))) return 'PASSIVO';
  if (ATIVO.some((s) => role.startsWith(s))) return 'ATIVO';
  return 'OUTROS';
}
