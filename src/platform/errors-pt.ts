/**
 * What a person reads in `error.message` (Portuguese by default; `Accept-Language: en` gives the
 * English text, which is also kept in `error.detail`): one sentence per code of the registry
 * (error-codes.ts), completed with what the details say (the field, the accepted values or parameters).
 * Programs branch on `error.code`, never on the message.
 */
import type { ErrorCode } from './error-codes.ts';

export const MENSAGENS: Record<ErrorCode, string> = {
  INVALID_JSON: 'O corpo da requisição não é um JSON válido.',
  INVALID_BODY: 'O corpo é um JSON válido, mas não tem o formato que a operação aceita.',
  UNSUPPORTED_CONTENT_TYPE: 'O Content-Type do corpo não é aceito: envie application/json.',
  BODY_TOO_LARGE: 'O corpo da requisição é maior do que o servidor aceita (TRAMITA_BODY_LIMIT_BYTES).',
  MISSING_PARAMETER: 'Falta um parâmetro obrigatório.',
  UNKNOWN_PARAMETER: 'Foi enviado um parâmetro que esta operação não aceita.',
  INVALID_PARAMETER: 'Um parâmetro tem tipo, formato ou valor inválido.',
  INVALID_CURSOR: 'O cursor de paginação é inválido ou pertence a outra listagem: use o nextCursor da página anterior.',
  INVALID_CNJ: 'O número CNJ é inválido: confira o tamanho, o formato (NNNNNNN-DD.AAAA.J.TR.OOOO) e os dígitos verificadores.',
  INVALID_CPF_CNPJ: 'O CPF ou CNPJ é inválido: confira o tamanho e os dígitos verificadores.',
  INVALID_OAB: 'A OAB é inválida: informe a UF e o número, por exemplo SP123456, 123456/SP ou OAB/SP 123.456.',
  INVALID_NUMERO_PECA:
    'O número da peça é inválido: são 28 dígitos (NNNNNNN-DD.AAAA.J.TR.OOOO.TT.SSSS-DV) e o número do processo contido nele ' +
    'precisa ter dígitos verificadores válidos.',
  ADMINISTRATIVE_PROCESS_NOT_FOUND: 'A fonte respondeu que não tem processo administrativo com este NUP; nada foi cobrado.',
  BODY_NOT_COVERED: 'O NUP é válido, mas os cinco primeiros dígitos (a unidade protocolizadora) não são de nenhum órgão de GET /v1/orgaos-administrativos.',
  INVALID_NUP: 'O NUP é inválido: são 17 dígitos com dígitos verificadores (módulo 11).',
  INVALID_DATE: 'A data não é um dia válido no formato AAAA-MM-DD.',
  INVALID_ELECTORAL_COURT: 'O tribunal eleitoral deve ser TSE ou TRE- seguido de uma das 27 UFs (por exemplo TRE-SP).',
  INVALID_WEBHOOK_URL: 'A URL do webhook precisa ser HTTPS e apontar para um endereço público (não privado, loopback ou link-local).',
  INVALID_IDEMPOTENCY_KEY: 'O cabeçalho Idempotency-Key está vazio, repetido ou tem mais de 255 caracteres.',
  MALFORMED_URL: 'A URL é inválida: codifique (percent-encode) acentos e caracteres especiais; um % precisa de dois dígitos hexadecimais.',
  MALFORMED_REQUEST: 'A requisição HTTP não pôde ser lida (linha de requisição ou cabeçalho malformado); a conexão foi encerrada.',
  REQUEST_TIMEOUT: 'A requisição não chegou a tempo; a conexão foi encerrada.',
  METHOD_NOT_ALLOWED: 'Este caminho existe, mas não com este método HTTP: o cabeçalho Allow lista os métodos aceitos.',
  URI_TOO_LONG: 'Um trecho do caminho é maior do que o servidor aceita (100 caracteres).',
  HEADERS_TOO_LARGE: 'Os cabeçalhos da requisição são maiores do que o servidor aceita (16 KiB); a conexão foi encerrada.',
  MISSING_API_KEY: 'Falta a chave de API: envie-a no cabeçalho x-api-key ou em Authorization: Bearer.',
  INVALID_API_KEY: 'A chave de API é desconhecida ou foi revogada.',
  ACCOUNT_INACTIVE: 'A conta desta chave está desativada.',
  INSUFFICIENT_CREDITS: 'O saldo não cobre o preço desta operação; nada foi cobrado. Adicione créditos e tente de novo.',
  OPERATION_NOT_ALLOWED: 'O plano da conta não inclui esta operação.',
  ROUTE_NOT_FOUND: 'Não existe operação neste método e caminho: veja o catálogo em GET /v1.',
  NOT_FOUND: 'O recurso não existe ou pertence a outra conta.',
  CASE_NOT_FOUND: 'Nenhum processo com este número na fonte nem no armazenamento; nada foi cobrado.',
  DOCUMENT_NOT_FOUND: 'O processo não tem documento público com este id.',
  EDITION_NOT_FOUND: 'Nenhuma edição do diário eleitoral com este id (<tribunal>:<número>, de GET /v1/dje-eleitoral/edicoes); nada foi cobrado.',
  PUBLICATION_NOT_FOUND: 'Nenhuma publicação com este id, no armazenamento ou no DJEN; nada foi cobrado.',
  REQUEST_NOT_FOUND: 'Nenhuma operação pendente com este id nesta conta (desconhecida, de outra conta ou fora do prazo de retenção).',
  API_KEY_LIMIT_REACHED: 'A conta já tem o número máximo de chaves de API ativas: revogue uma antes de criar outra.',
  IDEMPOTENCY_KEY_IN_USE: 'Uma requisição com esta Idempotency-Key ainda está em andamento; tente de novo quando ela terminar.',
  IDEMPOTENCY_ANSWER_LOST:
    'A requisição com esta Idempotency-Key foi concluída e cobrada, mas o servidor parou antes de respondê-la; ela não será executada de novo. ' +
    'details.searchLogId identifica a cobrança.',
  IDEMPOTENCY_KEY_REUSED: 'Esta Idempotency-Key já foi usada com outra requisição (método, caminho ou corpo diferentes).',
  QUERY_NOT_SUPPORTED:
    'O provedor configurado para esta fonte não atende este tipo de consulta (por exemplo, mandados por número da peça num provedor ' +
    'que só busca por CPF); nada foi cobrado.',
  PERIOD_INVERTED: 'A data_fim é anterior à data_inicio.',
  PERIOD_TOO_LONG: 'O período entre data_inicio e data_fim é maior do que a operação aceita (62 dias nos diários).',
  COURT_NOT_FOUND: 'O identificador é bem formado, mas não corresponde a nenhum tribunal.',
  UNKNOWN_COURT: 'A sigla não é de um dos tribunais de GET /v1/tribunais (por exemplo TJSP, TRF4, TRE-SP).',
  MONITOR_REQUIRED: 'Nenhuma das OABs pedidas tem monitoramento de intimações ativo: crie um com POST /v1/intimacoes/oab antes.',
  COURT_NOT_COVERED: 'O tribunal existe, mas nenhuma fonte tem estes dados para ele (o STF não tem índice no DataJud).',
  DOCUMENT_NOT_PUBLIC: 'O tribunal só abre este documento com login ou sob sigilo: o Tramita não o lê. Nada foi cobrado.',
  REFRESH_REQUIRED: 'Os documentos públicos só são listados depois de uma atualização concluída: chame POST …/solicitar-atualizacao antes.',
  MONITOR_DEACTIVATED: 'O monitoramento foi desativado: o histórico continua disponível, mas ele não pode mais ser alterado. Crie um novo.',
  WEBHOOK_NOT_CONFIGURED: 'O webhook da conta não tem URL: configure uma com PUT /v1/conta/webhook antes.',
  DETAILS_UNAVAILABLE: 'Nenhum provedor de detalhes de processo está configurado (TRAMITA_PORTAL_URL): partes, valores e documentos não podem ser consultados.',
  RATE_LIMITED: 'Limite de requisições atingido nesta classe de rotas: aguarde os segundos de Retry-After.',
  INTERNAL_ERROR: 'Falha inesperada do nosso lado; nada foi cobrado. Informe o meta.requestId ao suporte.',
  SOURCE_UNAVAILABLE: 'A fonte de dados falhou ou está indisponível; nada foi cobrado. Tente de novo mais tarde.',
  MODEL_OUTPUT_INCOMPLETE: 'O modelo de linguagem parou antes de terminar o resumo, mesmo com o dobro do limite de saída; nada foi cobrado.',
  SOURCE_NOT_CONFIGURED:
    'Esta fonte fica atrás de um captcha e é servida por um provedor que o operador configura (docs/providers.md); nenhum está ' +
    'configurado nesta instalação. Nada foi cobrado.',
  STORAGE_UNAVAILABLE:
    'O banco de dados está indisponível no momento (reiniciando, inacessível ou sem espaço em disco); nada foi gravado nem cobrado. Tente de novo após os ' +
    'segundos indicados em `Retry-After`.',
  SOURCE_TIMEOUT: 'A fonte de dados não respondeu a tempo; nada foi cobrado. Tente de novo mais tarde.',
  OPERATION_INTERRUPTED: 'O servidor parou enquanto a operação rodava em segundo plano; nada foi cobrado. Envie-a de novo.',
  SERVICE_UNAVAILABLE: 'O servidor está iniciando ou desligando.',
};

/** What a source's failure (SourceFailure, details.failure) tells the person who reads it. */
const FALHAS: Record<string, string> = {
  geoblocked:
    'O DJEN (comunicaapi.pje.jus.br) recusa conexões de fora do Brasil: rode o Tramita numa rede brasileira ou encaminhe o tráfego ' +
    'do DJEN por um relay no Brasil (DJEN_URL).',
  captcha: 'A fonte exibiu um captcha no lugar dos dados; o Tramita nunca resolve captchas. Tente de novo mais tarde.',
  anti_bot:
    'A página da fonte respondeu com um bloqueio anti-robô (Cloudflare, WAF) no lugar dos dados; o Tramita nunca contorna esses bloqueios. Tente de novo ' +
    'mais tarde; os dados seguem disponíveis pelo DataJud e pelo DJEN.',
  login: 'A página da fonte pediu login no lugar dos dados; o Tramita só lê páginas abertas ao público. Os dados seguem disponíveis pelo DataJud e pelo DJEN.',
  rate_limited: 'A fonte limitou o número de requisições.',
  unauthorized: 'A fonte recusou as credenciais configuradas pelo operador.',
  malformed: 'A fonte respondeu algo que não pôde ser lido.',
  too_large: 'A fonte respondeu um corpo maior que o limite configurado para ela (TRAMITA_UPSTREAM_MAX_BYTES).',
  timeout: 'A fonte não respondeu a tempo.',
  input_too_long: 'O texto enviado ao modelo excede o contexto dele.',
};

const WHERE: Record<string, string> = { query: 'na query', body: 'no corpo', path: 'no caminho', header: 'no cabeçalho' };

/** The Portuguese message of an error: its sentence and what its details name. */
export function mensagem(code: ErrorCode, details: Record<string, unknown> | undefined): string {
  const parts = [MENSAGENS[code]];
  if (typeof details?.failure === 'string' && FALHAS[details.failure]) parts.push(FALHAS[details.failure]);
  if (typeof details?.source === 'string') parts.push(`Fonte: ${details.source}.`);
  const field = typeof details?.field === 'string' && details.field !== '' ? details.field : null;
  if (field) parts.push(`Campo: ${field}${typeof details?.in === 'string' && WHERE[details.in] ? ` (${WHERE[details.in]})` : ''}.`);
  if (Array.isArray(details?.allowedValues)) parts.push(`Valores aceitos: ${details.allowedValues.join(', ')}.`);
  if (Array.isArray(details?.accepted)) parts.push(`Parâmetros aceitos: ${details.accepted.join(', ')}.`);
  return parts.join(' ');
}
