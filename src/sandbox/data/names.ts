/**
 * Fictitious names. The scheme makes every sandbox name visibly fake, so nobody takes it for real data:
 * - people (parties, lawyers, judges): "<given> [<given>] de Teste <surname>", e.g. "Fulana de Teste
 *   Souza", "Carlos Eduardo de Teste Lima": the words "de Teste" are always there;
 * - organizations carry "Fictício"/"Fictícia": "Empresa Fictícia Alfa Transportes Ltda",
 *   "Banco Fictício Sigma S.A.", "Fazenda Pública Fictícia do Estado do Paraná",
 *   "Promotoria Fictícia de Justiça de Goiás", "Partido Fictício Ômega".
 */
import type { Random } from './prng.ts';
import type { Place } from './places.ts';

const GIVEN_F = [
  'Fulana',
  'Maria',
  'Ana',
  'Beatriz',
  'Camila',
  'Daniela',
  'Eduarda',
  'Fernanda',
  'Gabriela',
  'Helena',
  'Isabela',
  'Juliana',
  'Larissa',
  'Mariana',
  'Natália',
  'Patrícia',
  'Renata',
  'Sofia',
  'Tatiane',
  'Vitória',
  'Aline',
  'Bruna',
  'Cecília',
  'Débora',
  'Luíza',
];
const GIVEN_M = [
  'Fulano',
  'Beltrano',
  'Carlos',
  'Daniel',
  'Eduardo',
  'Felipe',
  'Gustavo',
  'Henrique',
  'Igor',
  'João',
  'Lucas',
  'Marcelo',
  'Nicolas',
  'Otávio',
  'Paulo',
  'Rafael',
  'Sérgio',
  'Thiago',
  'Vinícius',
  'André',
  'Bruno',
  'César',
  'Diego',
  'Fábio',
  'José',
];
const SURNAMES = [
  'Souza',
  'Silva',
  'Oliveira',
  'Santos',
  'Lima',
  'Pereira',
  'Costa',
  'Rodrigues',
  'Almeida',
  'Nascimento',
  'Araújo',
  'Ribeiro',
  'Carvalho',
  'Gomes',
  'Martins',
  'Rocha',
  'Barbosa',
  'Teixeira',
  'Moreira',
  'Cardoso',
  'Mendes',
  'Castro',
  'Freitas',
  'Correia',
  'Monteiro',
  'Conceição',
  'Vieira',
  'Azevedo',
  'Fonseca',
  'Brandão',
];
const GREEK = [
  'Alfa',
  'Beta',
  'Gama',
  'Delta',
  'Épsilon',
  'Zeta',
  'Eta',
  'Teta',
  'Iota',
  'Capa',
  'Lambda',
  'Mi',
  'Ni',
  'Csi',
  'Ômicron',
  'Pi',
  'Rô',
  'Sigma',
  'Tau',
  'Ípsilon',
  'Fi',
  'Qui',
  'Psi',
  'Ômega',
];
const SECTORS = [
  'Transportes',
  'Comércio',
  'Construtora',
  'Alimentos',
  'Tecnologia',
  'Serviços',
  'Telecomunicações',
  'Seguros',
  'Logística',
  'Varejo',
  'Saúde',
  'Educação',
  'Energia',
  'Saneamento',
  'Têxtil',
  'Metalúrgica',
  'Imobiliária',
  'Agropecuária',
];
const SUFFIXES = ['Ltda', 'Ltda', 'Ltda', 'S.A.', 'ME', 'EIRELI'];

export function personName(rng: Random): string {
  const female = rng.chance(0.5);
  const given = female ? GIVEN_F : GIVEN_M;
  const first = rng.pick(given);
  const second = rng.chance(0.35) ? ` ${rng.pick(given.filter((g) => g !== first))}` : '';
  return `${first}${second} de Teste ${rng.pick(SURNAMES)}`;
}

export function companyName(rng: Random): string {
  return `Empresa Fictícia ${rng.pick(GREEK)} ${rng.pick(SECTORS)} ${rng.pick(SUFFIXES)}`;
}

export function bankName(index: number): string {
  return `Banco Fictício ${GREEK[index % GREEK.length]}${index >= GREEK.length ? ` ${Math.floor(index / GREEK.length) + 1}` : ''} S.A.`;
}

export function politicalPartyName(index: number): string {
  return `Partido Fictício ${GREEK[index % GREEK.length]}`;
}

/** "do Paraná", "de Goiás", "da Bahia": the preposition Portuguese uses with each state's name. */
function ofState(place: Place): string {
  const da = ['BA', 'PB'];
  const de = ['AL', 'GO', 'MT', 'MG', 'PE', 'RO', 'RR', 'SC', 'SP', 'SE'];
  const prep = da.includes(place.uf) ? 'da' : de.includes(place.uf) ? 'de' : 'do';
  return `${prep} ${place.estado}`;
}

export function stateTreasuryName(place: Place): string {
  return `Fazenda Pública Fictícia do Estado ${ofState(place)}`;
}

export function municipalityName(place: Place): string {
  return `Município Fictício de ${place.capital}`;
}

export function prosecutorName(place: Place): string {
  return `Promotoria Fictícia de Justiça ${ofState(place)}`;
}

export const SOCIAL_SECURITY_NAME = 'Instituto Fictício de Seguridade Social';
export const FEDERAL_TREASURY_NAME = 'União Fictícia - Fazenda Nacional de Teste';
