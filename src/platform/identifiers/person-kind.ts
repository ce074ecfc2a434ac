/**
 * The kind of person a name names, for sources that print no document (e-SAJ's party table, DJEN's
 * addressees): a company when the name carries a word that names one, else a natural person.
 */

/** Words that name a company. */
const COMPANY_WORDS = [
  'S\\.?\\/?A\\.?',
  'LTDA',
  'EIRELI',
  'MEI?',
  'EPP',
  'BANCO',
  'COMPANHIA',
  'CIA\\.?',
  'ASSOCIA[CÇ][AÃ]O',
  'ASSOCIADOS',
  'ADVOGADOS',
  'SOCIEDADE',
  'COOPERATIVA',
  'INSTITUTO',
  'FUNDA[CÇ][AÃ]O',
  'MUNIC[IÍ]PIO',
  'ESTADO',
  'UNI[AÃ]O',
  'FAZENDA',
  'MINIST[EÉ]RIO',
  'INSTITUI[CÇ][AÃ]O',
  'CONDOM[IÍ]NIO',
  'EMPRESA',
  'PAGAMENTOS',
];
const COMPANY = new RegExp(`\\b(${COMPANY_WORDS.join('|')})\\b`, 'i');

export function personKindOfName(nome: string): 'FISICA' | 'JURIDICA' {
  return COMPANY.test(nome) ? 'JURIDICA' : 'FISICA';
}
