/**
 * A simulated OpenAI-compatible chat-completions server under `<sandbox>/llm/v1`, so the real model
 * connector (sources/chat/) runs offline: `GET /v1/models` and non-streaming `POST /v1/chat/completions`.
 * It writes fictitious, deterministic Portuguese text from the case facts the prompt carries in a
 * ```json fence (any other prompt gets a short generic answer), reports `usage` at ~4 characters per
 * token, and stops with `finish_reason: "length"` when `max_tokens` runs out, as real servers do.
 * Errors have OpenAI's shape (`{error: {message, type, code}}`). Misbehaviours: knobs.ts.
 */
import { createHash } from 'node:crypto';
import { formatDateBr, formatReais } from '../../platform/format.ts';
import { jsonResponse, type HandlerContext, type SimRequest, type SimResponse } from '../http.ts';
import type { ActiveLlmKnobs, SandboxLlm } from './knobs.ts';

export const SANDBOX_MODEL = 'sandbox-resumo-1';
const CHARS_PER_TOKEN = 4;
/** What `contextError` pretends the context holds. */
const CONTEXT_CHARS = 1_000;

const tokensOf = (text: string) => Math.ceil(text.length / CHARS_PER_TOKEN);

export function openAiError(status: number, message: string, type: string, code: string | null, headers: Record<string, string> = {}): SimResponse {
  return jsonResponse(status, { error: { message, type, param: null, code } }, headers);
}

interface Completion {
  model: string;
  prompt: string;
  maxTokens: number | null;
}

function parseCompletion(req: SimRequest): Completion | SimResponse {
  let body: unknown;
  try {
    body = JSON.parse(req.body.toString('utf8'));
  } catch {
    return openAiError(400, 'We could not parse the JSON body of your request.', 'invalid_request_error', null);
  }
  const b = (typeof body === 'object' && body !== null ? body : {}) as { model?: unknown; messages?: unknown; max_tokens?: unknown; stream?: unknown };
  if (typeof b.model !== 'string') return openAiError(400, 'you must provide a model parameter', 'invalid_request_error', null);
  if (b.model !== SANDBOX_MODEL)
    return openAiError(404, `The model \`${b.model}\` does not exist. The sandbox serves ${SANDBOX_MODEL}.`, 'invalid_request_error', 'model_not_found');
  if (b.stream === true) return openAiError(400, 'The sandbox model does not stream: send stream=false.', 'invalid_request_error', null);
  if (!Array.isArray(b.messages) || b.messages.length === 0) return openAiError(400, "'messages' must be a non-empty array", 'invalid_request_error', null);
  const prompt = b.messages
    .map((m) => (typeof m === 'object' && m !== null && typeof (m as { content?: unknown }).content === 'string' ? (m as { content: string }).content : ''))
    .join('\n');
  const maxTokens = typeof b.max_tokens === 'number' && b.max_tokens > 0 ? Math.floor(b.max_tokens) : null;
  return { model: b.model, prompt, maxTokens };
}

type Loose = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const list = (v: unknown): Loose[] => (Array.isArray(v) ? v.filter((x): x is Loose => typeof x === 'object' && x !== null) : []);

/** The case facts of the prompt's ```json fence, when the part of the prompt the model read has them whole. */
function factsOf(prompt: string): Loose | null {
  const fence = /```json\s*\n([\s\S]*?)\n```/.exec(prompt);
  if (!fence) return null;
  try {
    const value = JSON.parse(fence[1]) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Loose) : null;
  } catch {
    return null;
  }
}

/** What the last movements say about where the case stands, read by name as a model would. */
function stateOf(moves: Loose[]): string {
  const names = moves.map((m) => str(m.nome) ?? '');
  const when = (i: number) => formatDateBr(str(moves[i].dataHora) ?? '');
  const closed = names.findIndex((n) => /^(Definitivo|Baixa Definitiva)$/i.test(n));
  if (closed === 0) return `O processo parece encerrado: o último movimento, em ${when(0)}, é "${names[0]}".`;
  const res = names.findIndex((n) => /trânsito em julgado/i.test(n));
  if (res >= 0) return `Houve trânsito em julgado em ${when(res)}; a fase seguinte é a de cumprimento ou de arquivamento.`;
  const judged = names.findIndex((n) => /procedência|improcedência|provimento|julgado/i.test(n));
  if (judged >= 0) return `Há julgamento registrado em ${when(judged)} ("${names[judged]}"), sem trânsito em julgado: pode haver recurso em curso.`;
  return moves[0] ? `O processo está em andamento; o último movimento, em ${when(0)}, é "${names[0]}".` : 'Não há movimentos registrados.';
}

/** Fictitious prose in the five sections the summary prompt asks for. */
export function writeFromFacts(facts: Loose, model: string): string {
  const instances = list(facts.instancias);
  const instance = instances[0] ?? {};
  const classe = str((instance.classe as Loose | null)?.nome) ?? 'classe não informada';
  const orgao = str((instance.orgaoJulgador as Loose | null)?.nome);
  const filed = str(instance.dataAjuizamento);
  const subjects = list(instance.assuntos)
    .map((a) => str(a.nome))
    .filter(Boolean);
  const value = typeof facts.valorCausaCentavos === 'number' ? formatReais(facts.valorCausaCentavos) : 'não informado';
  const moves = list(facts.movimentos);
  const partes = facts.partes === null ? null : list(facts.partes);
  const publications = list(facts.publicacoes);
  const when = (m: Loose) => `${formatDateBr(str(m.dataHora) ?? '')} — ${str(m.nome) ?? 'movimento'}`;
  const lawyers = (p: Loose) =>
    list(p.advogados).map((a) => {
      const oab = a.oab as Loose | null;
      return oab ? `${str(a.nome)} (OAB/${str(oab.uf)} ${str(oab.numero)})` : str(a.nome);
    });
  const party = (p: Loose) => {
    const adv = lawyers(p);
    return `- ${str(p.nome) ?? '?'} (${str(p.tipo) ?? str(p.polo) ?? 'parte'})${adv.length > 0 ? `, representado(a) por ${adv.join(', ')}` : ''}`;
  };
  const appeal =
    instances.length > 1
      ? ` O processo chegou a outra instância (${instances
          .slice(1)
          .map((i) => `${str((i.classe as Loose | null)?.nome) ?? 'recurso'}, ${str(i.grau)}`)
          .join('; ')}).`
      : '';
  const where = `${orgao ? `, ${orgao}` : ''}${filed ? `, ajuizado em ${formatDateBr(filed)}` : ''}`;
  const about = subjects.length > 0 ? `Trata de ${subjects.join(', ')}. ` : '';
  return [
    '## Resumo',
    `Processo ${str(facts.numeroCnjFormatado) ?? ''} (${classe}), em trâmite no ${str(facts.tribunal) ?? 'tribunal'}${where}. ` +
      `${about}Valor da causa: ${value}.${appeal}`,
    '## Partes',
    partes === null ? 'A fonte não informa as partes.' : partes.length === 0 ? 'Nenhuma parte pública.' : partes.map(party).join('\n'),
    '## Andamento',
    `O processo tem ${typeof facts.movimentosTotal === 'number' ? facts.movimentosTotal : moves.length} movimentos. ${
      moves.length > 0
        ? `Os mais recentes:\n${moves
            .slice(0, 5)
            .map((m) => `- ${when(m)}`)
            .join('\n')}`
        : ''
    }`.trim(),
    '## Situação atual',
    stateOf(moves),
    '## Pontos de atenção',
    publications.length > 0
      ? `- Há ${publications.length} publicação(ões) no Diário de Justiça ligadas ao processo; verifique os prazos.`
      : '- Nenhuma publicação ligada ao processo nos dados enviados.',
    '- Confirme nos autos antes de agir: este texto foi escrito a partir dos movimentos registrados.',
    '',
    `_Texto fictício do modelo simulado do sandbox (${model})._`,
  ].join('\n');
}

function answerText(c: Completion, knobs: ActiveLlmKnobs, read: string): string {
  const facts = factsOf(read);
  const text = facts
    ? writeFromFacts(facts, c.model)
    : `## Resumo\nOs dados recebidos estão incompletos: não há fatos do processo suficientes para resumi-lo.\n\n_Texto fictício do modelo simulado do ` +
      `sandbox (${c.model})._`;
  return knobs.think ? `<think>\nrazões internas do modelo simulado: li os fatos e escolhi o que resumir.\n</think>\n\n${text}` : text;
}

export function llmHandler(options: { knobs: SandboxLlm }) {
  return (req: SimRequest, ctx: HandlerContext): SimResponse => {
    const path = req.path.replace(/\/+$/, '');
    if (!/^Bearer \S+/.test(String(req.headers.authorization ?? ''))) {
      return openAiError(
        401,
        'You didn\'t provide an API key. Send "Authorization: Bearer <key>" (the sandbox accepts any key).',
        'invalid_request_error',
        'invalid_api_key',
      );
    }
    if (path === '/v1/models' && req.method === 'GET') {
      return jsonResponse(200, { object: 'list', data: [{ id: SANDBOX_MODEL, object: 'model', created: 0, owned_by: 'tramita-sandbox' }] });
    }
    if (path !== '/v1/chat/completions') return openAiError(404, `Unknown request URL: ${req.method} ${path}.`, 'invalid_request_error', 'unknown_url');
    if (req.method !== 'POST') return openAiError(405, `Method ${req.method} not allowed: use POST.`, 'invalid_request_error', null);
    const c = parseCompletion(req);
    if ('status' in c) return c;
    const knobs = options.knobs.take();
    if (knobs.contextError && c.prompt.length > CONTEXT_CHARS) {
      return openAiError(
        400,
        `This model's maximum context length is ${CONTEXT_CHARS / CHARS_PER_TOKEN} tokens. However, your messages resulted in ${tokensOf(c.prompt)} tokens. ` +
          `Please reduce the length of the messages.`,
        'invalid_request_error',
        'context_length_exceeded',
      );
    }
    const read = knobs.silentTruncationChars !== null ? c.prompt.slice(-knobs.silentTruncationChars) : c.prompt;
    let content = answerText(c, knobs, read);
    let finish = 'stop';
    const budgetChars = c.maxTokens !== null ? c.maxTokens * CHARS_PER_TOKEN : Infinity;
    if (knobs.finishLength || content.length > budgetChars) {
      content = content.slice(0, Math.min(Math.floor(content.length / 2), budgetChars));
      finish = 'length';
    }
    const usage = { prompt_tokens: tokensOf(read), completion_tokens: tokensOf(content), total_tokens: tokensOf(read) + tokensOf(content) };
    const id = `chatcmpl-sbx-${createHash('sha1').update(req.body).digest('hex').slice(0, 24)}`;
    const choices = knobs.emptyChoices ? [] : [{ index: 0, message: { role: 'assistant', content }, logprobs: null, finish_reason: finish }];
    return jsonResponse(200, { id, object: 'chat.completion', created: Math.floor(ctx.now / 1000), model: c.model, choices, usage });
  };
}
