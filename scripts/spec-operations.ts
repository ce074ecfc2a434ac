/**
 * Every operation of the contract's section 4 (../shared/spec/interface-spec.md), as the spec writes
 * it: the list docs/endpoints.md maps to the files that serve them. Kept here, not read from the spec
 * at run time: a clean clone has no ../shared. §4.6's row `/v1/mural-eletronico-placeholder-removed`
 * is not an operation (the spec says so in the row itself) and is left out.
 */
export interface SpecOperation {
  section: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  purpose: string;
}

export const SPEC_SECTIONS: Record<string, string> = {
  '4.1': 'Health, account, asynchronous requests',
  '4.2': 'Search, precatórios, processes',
  '4.3': 'Updates, documents, AI summary',
  '4.4': 'Lawyers (OAB)',
  '4.5': 'Subpoenas (intimações)',
  '4.6': 'Supreme court gazette and electoral justice',
  '4.7': 'References, warrants, administrative processes',
  '4.8': 'Monitoring',
  '4.9': 'Compatibility (historical paths)',
};

const op = (section: string, method: SpecOperation['method'], path: string, purpose: string): SpecOperation => ({ section, method, path, purpose });

export const SPEC_OPERATIONS: readonly SpecOperation[] = [
  op('4.1', 'GET', '/v1', 'Confirms the v1 namespace; auth mechanism and resource catalog'),
  op('4.1', 'GET', '/v1/conta/saldo', 'Balance of prepaid credits'),
  op('4.1', 'GET', '/v1/requests/{requestId}', 'Polls a response that exceeded the synchronous window'),
  op('4.2', 'GET', '/v1/busca/termo', 'Search by term'),
  op('4.2', 'GET', '/v1/precatorios', 'Lists the precatório records'),
  op('4.2', 'GET', '/v1/processos', 'Lists processes by CPF or CNPJ'),
  op('4.2', 'GET', '/v1/envolvidos/resumo', 'Summary of the processes of a party'),
  op('4.2', 'GET', '/v1/processos/cnj/{cnj}', 'Case cover by CNJ number'),
  op('4.2', 'GET', '/v1/processos/cnj/{cnj}/pdf', 'Cover mirror as PDF'),
  op('4.2', 'GET', '/v1/processos/cnj/{cnj}/movimentacoes', 'Lists case movements'),
  op('4.2', 'GET', '/v1/processos/numero/{numero}/diarios-oficiais', 'Official gazettes by case number'),
  op('4.3', 'POST', '/v1/processos/cnj/{cnj}/solicitar-atualizacao', 'Requests an asynchronous refresh of a case'),
  op('4.3', 'GET', '/v1/processos/cnj/{cnj}/status-atualizacao', 'Status of the refresh'),
  op('4.3', 'GET', '/v1/processos/cnj/{cnj}/documentos-publicos', 'Lists public documents'),
  op('4.3', 'GET', '/v1/processos/cnj/{cnj}/documentos/{documentId}/download', 'Downloads a public document'),
  op('4.3', 'GET', '/v1/processos/cnj/{cnj}/resumo-ia', 'The available AI summary'),
  op('4.3', 'POST', '/v1/processos/cnj/{cnj}/resumo-ia/solicitar-atualizacao', 'Requests an AI summary refresh'),
  op('4.3', 'GET', '/v1/processos/cnj/{cnj}/resumo-ia/status', 'Progress of an AI summary request (free)'),
  op('4.4', 'GET', '/v1/advogados/processos', 'Lists processes of a lawyer'),
  op('4.4', 'GET', '/v1/advogados/resumo', 'Summary for one exact OAB'),
  op('4.4', 'GET', '/v1/advogados/diarios-oficiais', 'Processes from official gazettes by OAB'),
  op('4.4', 'POST', '/v1/advogados/oab/monitorar', "Starts an asynchronous search of an OAB's publications"),
  op('4.4', 'GET', '/v1/advogados/oab/monitoramentos/{id}', 'Status and result of that search'),
  op('4.5', 'GET', '/v1/intimacoes/oab', 'Lists subpoena monitors by OAB'),
  op('4.5', 'POST', '/v1/intimacoes/oab', 'Creates a monitor'),
  op('4.5', 'PUT', '/v1/intimacoes/oab', 'Updates a monitor'),
  op('4.5', 'DELETE', '/v1/intimacoes/oab', 'Removes a monitor'),
  op('4.5', 'GET', '/v1/intimacoes', 'Queries subpoenas by OAB'),
  op('4.5', 'GET', '/v1/intimacoes/historico', 'Subpoena history'),
  op('4.5', 'GET', '/v1/intimacoes/publicacoes/{diarioId}', 'Content of a publication'),
  op('4.6', 'GET', '/v1/stf/publicacoes', "Searches the supreme court's own gazette"),
  op('4.6', 'GET', '/v1/stf/publicacoes/{id}', 'One STF publication (R$ 0,05)'),
  op('4.6', 'GET', '/v1/dje-eleitoral/edicoes', "Editions of the TSE's or a TRE's gazette (R$ 0,12)"),
  op('4.6', 'GET', '/v1/dje-eleitoral/edicoes/{id}/pdf', 'PDF of an edition'),
  op('4.6', 'GET', '/v1/dje-eleitoral/publicacoes', 'Searches electoral gazette publications'),
  op('4.6', 'GET', '/v1/dje-eleitoral/publicacoes/{id}', 'One electoral gazette publication'),
  op('4.6', 'GET', '/v1/mural-eleitoral/publicacoes', 'Searches the electoral bulletin board'),
  op('4.6', 'GET', '/v1/mural-eleitoral/publicacoes/{id}/{documentKind}', 'A document or certificate of the bulletin board'),
  op('4.7', 'GET', '/v1/integrador', 'Coverage of the 92 courts'),
  op('4.7', 'GET', '/v1/sistemas', 'Lists the court systems'),
  op('4.7', 'GET', '/v1/mandados', 'Arrest warrants by CPF or document number'),
  op('4.7', 'GET', '/v1/orgaos-administrativos', 'Lists covered administrative bodies'),
  op('4.7', 'GET', '/v1/processos/administrativos/nup/{nup}', 'Administrative process by NUP'),
  op('4.7', 'POST', '/v1/processos/administrativos/nup/{nup}', 'Same, with options in the body'),
  op('4.8', 'GET', '/v1/monitoramentos/processos', 'Lists case monitors'),
  op('4.8', 'POST', '/v1/monitoramentos/processos', 'Creates a case monitor'),
  op('4.8', 'GET', '/v1/monitoramentos/processos/{id}', 'Reads a case monitor'),
  op('4.8', 'DELETE', '/v1/monitoramentos/processos/{id}', 'Removes a case monitor'),
  op('4.8', 'GET', '/v1/monitoramentos/novos-processos', 'Lists new-case radars'),
  op('4.8', 'POST', '/v1/monitoramentos/novos-processos', 'Creates a radar'),
  op('4.8', 'GET', '/v1/monitoramentos/novos-processos/{id}', 'Reads a radar'),
  op('4.8', 'DELETE', '/v1/monitoramentos/novos-processos/{id}', 'Deactivates a radar'),
  op('4.8', 'PATCH', '/v1/monitoramentos/novos-processos/{id}', 'Refines the filters of a radar'),
  op('4.8', 'GET', '/v1/monitoramentos/novos-processos/{id}/resultados', 'Persisted results of a radar'),
  op('4.8', 'POST', '/v1/monitoramentos/novos-processos/{id}/resultados/{numeroCnj}/qualificar', 'Qualifies a radar result'),
  op('4.8', 'GET', '/v1/monitoramentos/novos-processos/resultados', 'Results of all radars by day'),
  op('4.8', 'POST', '/v1/monitoramentos/novos-processos/resultados/arquivar', 'Archives radar results'),
  op('4.8', 'POST', '/v1/monitoramentos/novos-processos/resultados/desarquivar', 'Unarchives radar results'),
  op('4.8', 'GET', '/v1/monitoramentos/publicacoes', 'Lists judicial-publication monitors'),
  op('4.8', 'POST', '/v1/monitoramentos/publicacoes', 'Creates a judicial-publication monitor'),
  op('4.8', 'GET', '/v1/monitoramentos/publicacoes/{id}', 'Reads one'),
  op('4.8', 'DELETE', '/v1/monitoramentos/publicacoes/{id}', 'Deactivates one'),
  op('4.8', 'GET', '/v1/monitoramentos/processos-administrativos', 'Lists administrative-process monitors'),
  op('4.8', 'POST', '/v1/monitoramentos/processos-administrativos', 'Creates one (by NUP)'),
  op('4.8', 'GET', '/v1/monitoramentos/processos-administrativos/{id}', 'Reads one'),
  op('4.8', 'DELETE', '/v1/monitoramentos/processos-administrativos/{id}', 'Deactivates one'),
  op('4.9', 'GET', '/v1/tribunais/sistemas', 'Same as /v1/sistemas'),
  op('4.9', 'GET', '/v1/busca', 'Same as /v1/busca/termo'),
];
