/**
 * Who writes a summary, behind one port (`SummaryWriter`): the offline writer (deterministic code,
 * offline.ts) or a chat-completions model (platform/ports/model.ts). Both end the text with the spec's
 * disclaimer (§1 rule 5) and the method or model that wrote it.
 *
 * The model gets the same facts as JSON, cut to the input budget, and is asked for Markdown with fixed
 * headings (no JSON mode: support differs by server, wave2.md §A.2). Its quirks handled here:
 * `finish_reason: length` is asked once more with twice the output budget; a context-length refusal is
 * retried once with half the input; a prompt the server read only in part (Ollama truncates silently)
 * is flagged in `aviso`.
 */
import { ApiError } from '../../platform/errors.ts';
import type { ChatAnswer, ChatModel } from '../../platform/ports/model.ts';
import { SourceError } from '../../platform/ports/source-error.ts';
import type { CaseFacts } from './facts.ts';
import { OFFLINE_METHOD, SUMMARY_DISCLAIMER, writeOfflineSummary } from './offline.ts';

export interface WrittenSummary {
  texto: string;
  /** `extrativo-v1` or `modelo`. */
  metodo: string;
  modelo: string | null;
  /** Something the reader should know about how it was written (a prompt read only in part). */
  aviso: string | null;
  tokensEntrada: number | null;
  tokensSaida: number | null;
}

export interface SummaryWriter {
  readonly metodo: string;
  readonly modelo: string | null;
  write(facts: CaseFacts, signal?: AbortSignal): Promise<WrittenSummary>;
}

export const MODEL_METHOD = 'modelo';
/** Characters per token, to estimate a prompt's size (Portuguese JSON runs about 3.5–4). */
const CHARS_PER_TOKEN = 4;
/** A server that reports reading less than this share of the estimated prompt truncated it. */
const TRUNCATION_SHARE = 0.5;
const PUBLICATION_EXCERPT = 1_500;

export function offlineWriter(): SummaryWriter {
  return {
    metodo: OFFLINE_METHOD,
    modelo: null,
    async write(facts) {
      return { texto: writeOfflineSummary(facts), metodo: OFFLINE_METHOD, modelo: null, aviso: null, tokensEntrada: null, tokensSaida: null };
    },
  };
}

const SYSTEM_PROMPT = [
  'Você é um assistente jurídico que resume processos judiciais brasileiros para advogados.',
  'Escreva em português do Brasil, em Markdown, com exatamente estas seções: "## Resumo", "## Partes", "## Andamento", "## ' +
    'Situação atual" e "## Pontos de atenção".',
  'Use somente os fatos fornecidos em JSON; não invente nomes, datas, valores nem decisões. Quando um fato não estiver ' +
    'nos dados, diga que a fonte não o informa.',
  'Datas em dd/mm/aaaa; valores em reais (R$ 1.234,56, a partir de valorCausaCentavos). Seja objetivo: no máximo 400 palavras.',
].join(' ');

/** The facts as JSON, cut to `maxChars`: publication texts first, then the oldest movements, then publications. */
export function factsForPrompt(facts: CaseFacts, maxChars: number): string {
  let f: CaseFacts = { ...facts, publicacoes: facts.publicacoes.map((p) => ({ ...p, texto: p.texto.slice(0, PUBLICATION_EXCERPT) })) };
  let json = JSON.stringify(f);
  while (json.length > maxChars && f.movimentos.length > 10) {
    f = { ...f, movimentos: f.movimentos.slice(0, Math.floor(f.movimentos.length / 2)) };
    json = JSON.stringify(f);
  }
  while (json.length > maxChars && f.publicacoes.length > 0) {
    f = { ...f, publicacoes: f.publicacoes.slice(0, f.publicacoes.length - 1) };
    json = JSON.stringify(f);
  }
  // Then the decisions' texts (issue 53), the oldest first: the newest decision is what a summary most needs.
  for (let i = f.documentos.length - 1; json.length > maxChars && i >= 0; i--) {
    if (f.documentos[i]!.texto === undefined) continue;
    const { texto: _texto, ...bare } = f.documentos[i]!;
    f = { ...f, documentos: f.documentos.map((d, j) => (j === i ? bare : d)) };
    json = JSON.stringify(f);
  }
  return json;
}

function userPrompt(factsJson: string): string {
  return `Resuma o processo descrito pelos fatos abaixo (movimentos do mais recente para o mais antigo).\n\n\`\`\`json\n${factsJson}\n\`\`\``;
}

export function modelWriter(chat: ChatModel, budget: { maxInputTokens: number; maxOutputTokens: number }): SummaryWriter {
  const ask = async (facts: CaseFacts, inputTokens: number, signal?: AbortSignal): Promise<{ answer: ChatAnswer; promptChars: number }> => {
    const user = userPrompt(factsForPrompt(facts, inputTokens * CHARS_PER_TOKEN));
    const messages = [
      { role: 'system' as const, content: SYSTEM_PROMPT },
      { role: 'user' as const, content: user },
    ];
    const promptChars = SYSTEM_PROMPT.length + user.length;
    let answer = await chat.complete({ messages, maxTokens: budget.maxOutputTokens, signal });
    if (answer.finishReason === 'length') answer = await chat.complete({ messages, maxTokens: budget.maxOutputTokens * 2, signal });
    if (answer.finishReason === 'length')
      throw new ApiError(
        'MODEL_OUTPUT_INCOMPLETE',
        `The model stopped at ${budget.maxOutputTokens * 2} tokens before finishing the summary; nothing was charged. Raise TRAMITA_SUMMARY_MAX_OUTPUT_TOKENS.`,
      );
    if (!answer.text) throw new SourceError('modelo', 'malformed', 'The model answered an empty summary.');
    return { answer, promptChars };
  };
  return {
    metodo: MODEL_METHOD,
    modelo: chat.info.model,
    async write(facts, signal) {
      let asked: { answer: ChatAnswer; promptChars: number };
      try {
        asked = await ask(facts, budget.maxInputTokens, signal);
      } catch (err) {
        if (!(err instanceof SourceError) || err.failure !== 'input_too_long') throw err;
        asked = await ask(facts, Math.floor(budget.maxInputTokens / 2), signal);
      }
      const { answer, promptChars } = asked;
      const estimated = Math.ceil(promptChars / CHARS_PER_TOKEN);
      const aviso =
        answer.promptTokens !== null && answer.promptTokens < estimated * TRUNCATION_SHARE
          ? `O servidor do modelo informou ter lido ${answer.promptTokens} tokens de cerca de ${estimated} enviados: o prompt pode ter sido truncado (o ` +
            `Ollama corta prompts longos em silêncio) e o resumo pode ignorar parte do processo. Aumente o contexto do servidor ou ` +
            `reduza TRAMITA_SUMMARY_MAX_INPUT_TOKENS.`
          : null;
      const texto =
        `${answer.text}\n\n---\n\n_${SUMMARY_DISCLAIMER}_\n\nMétodo: modelo de linguagem \`${answer.model}\`, a partir dos ` +
        `dados do processo guardados pelo Tramita.\n`;
      return { texto, metodo: MODEL_METHOD, modelo: answer.model, aviso, tokensEntrada: answer.promptTokens, tokensSaida: answer.completionTokens };
    },
  };
}
