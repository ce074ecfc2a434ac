/** Accent- and case-insensitive text matching for the sandbox name index. */

/** "São JOÃO" → "sao joao": NFD, combining marks removed, lower case. */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** The distinct words of a name, folded: "Fulana de Teste Souza" → ["fulana", "de", "teste", "souza"]. */
export function nameTokens(text: string): string[] {
  return [
    ...new Set(
      foldText(text)
        .split(/[^a-z0-9]+/)
        .filter((t) => t !== ''),
    ),
  ];
}

/** CPF/CNPJ as the index keys it: digits and (alphanumeric CNPJ) upper-case letters only. */
export function documentKey(text: string): string {
  return text.toUpperCase().replace(/[^0-9A-Z]/g, '');
}
