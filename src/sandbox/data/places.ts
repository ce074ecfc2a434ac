/**
 * The 27 UFs with their capital and its IBGE municipality code: the only real places the sandbox
 * names (órgãos julgadores sit in capitals). Public reference data, no personal data.
 */
export interface Place {
  uf: string;
  estado: string;
  capital: string;
  ibge: number;
}

export const PLACES: Readonly<Record<string, Place>> = Object.freeze(
  Object.fromEntries(
    (
      [
        ['AC', 'Acre', 'Rio Branco', 1200401],
        ['AL', 'Alagoas', 'Maceió', 2704302],
        ['AP', 'Amapá', 'Macapá', 1600303],
        ['AM', 'Amazonas', 'Manaus', 1302603],
        ['BA', 'Bahia', 'Salvador', 2927408],
        ['CE', 'Ceará', 'Fortaleza', 2304400],
        ['DF', 'Distrito Federal', 'Brasília', 5300108],
        ['ES', 'Espírito Santo', 'Vitória', 3205309],
        ['GO', 'Goiás', 'Goiânia', 5208707],
        ['MA', 'Maranhão', 'São Luís', 2111300],
        ['MT', 'Mato Grosso', 'Cuiabá', 5103403],
        ['MS', 'Mato Grosso do Sul', 'Campo Grande', 5002704],
        ['MG', 'Minas Gerais', 'Belo Horizonte', 3106200],
        ['PA', 'Pará', 'Belém', 1501402],
        ['PB', 'Paraíba', 'João Pessoa', 2507507],
        ['PR', 'Paraná', 'Curitiba', 4106902],
        ['PE', 'Pernambuco', 'Recife', 2611606],
        ['PI', 'Piauí', 'Teresina', 2211001],
        ['RJ', 'Rio de Janeiro', 'Rio de Janeiro', 3304557],
        ['RN', 'Rio Grande do Norte', 'Natal', 2408102],
        ['RS', 'Rio Grande do Sul', 'Porto Alegre', 4314902],
        ['RO', 'Rondônia', 'Porto Velho', 1100205],
        ['RR', 'Roraima', 'Boa Vista', 1400100],
        ['SC', 'Santa Catarina', 'Florianópolis', 4205407],
        ['SE', 'Sergipe', 'Aracaju', 2800308],
        ['SP', 'São Paulo', 'São Paulo', 3550308],
        ['TO', 'Tocantins', 'Palmas', 1721000],
      ] as const
    ).map(([uf, estado, capital, ibge]) => [uf, Object.freeze({ uf, estado, capital, ibge })]),
  ),
);

/** The place of a court's UF list entry; national courts ('BR') sit in Brasília. */
export function placeOf(uf: string): Place {
  return PLACES[uf] ?? PLACES.DF;
}
