/** Brazilian identifiers: parse, validate and normalize (each parser throws an ApiError). */
export * from './cnj.ts';
export * from './cpf-cnpj.ts';
export * from './nup.ts';
export * from './oab.ts';
export * from './uf.ts';
export * from './peca.ts';
export * from './on-page.ts';
