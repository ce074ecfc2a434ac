/** Sources for processes that never talk to upstreams (CLI commands): any call is a clear failure. */
import { SourceError } from './source-error.ts';
import type { Sources } from './sources.ts';

function unconfigured(what: string): SourceError {
  return new SourceError('none', 'unavailable', `no ${what} source is configured in this process`);
}

export const NO_SOURCES: Sources = {
  cases: {
    info: { name: 'none', sandbox: false },
    fetchCases: async () => {
      throw unconfigured('case');
    },
    fetchCase: async () => {
      throw unconfigured('case');
    },
    // The port's scan is an async generator; this one fails at its first step, as a scan of an unreachable upstream does.
    // biome-ignore lint/correctness/useYield: see above
    scanUpdatedSince: async function* () {
      throw unconfigured('case');
    },
  },
  details: null,
  model: null,
  publications: {
    info: { name: 'none', sandbox: false },
    search: async () => {
      throw unconfigured('publication');
    },
    fetchOne: async () => {
      throw unconfigured('publication');
    },
    caderno: async () => {
      throw unconfigured('publication');
    },
    certidao: async () => {
      throw unconfigured('publication');
    },
    certidaoUrl: () => {
      throw unconfigured('publication');
    },
    close: async () => {},
  },
  // No upstream: nothing gives any field and no search reaches anything.
  coverage: {
    court: (court) => ({
      tribunal: court.sigla,
      sistema: null,
      consulta: 'desconhecida',
      consultaHabilitada: false,
      nota: null,
      campos: { capa: [], movimentos: [], textosMovimentos: [], partes: [], advogados: [], valor: [], documentos: [] },
      buscas: [],
    }),
  },
  addressees: {
    fetchAddressees: async () => {
      throw unconfigured('publication');
    },
  },
  stf: {
    info: { name: 'none', sandbox: false },
    lastDay: async () => {
      throw unconfigured('STF gazette');
    },
    day: async () => {
      throw unconfigured('STF gazette');
    },
    readItem: () => {
      throw unconfigured('STF gazette');
    },
    close: async () => {},
  },
  electoral: {
    info: { name: 'none', sandbox: false },
    editions: async () => {
      throw unconfigured('electoral gazette');
    },
    pdf: async () => {
      throw unconfigured('electoral gazette');
    },
    publications: async () => {
      throw unconfigured('electoral gazette');
    },
    close: async () => {},
  },
  mural: null,
  warrants: null,
  administrative: {
    info: { name: 'none', sandbox: false },
    lookup: async () => {
      throw unconfigured('administrative process');
    },
    close: async () => {},
  },
  tjrj: {
    info: { name: 'none', sandbox: false },
    entities: async () => {
      throw unconfigured('TJRJ precatório');
    },
    orderPage: async () => {
      throw unconfigured('TJRJ precatório');
    },
    close: async () => {},
  },
  close: async () => {},
};
