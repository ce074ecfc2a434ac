/**
 * The language model (platform/ports/model.ts) through an OpenAI-compatible chat-completions API:
 * hosted services, vLLM, llama.cpp's `llama-server`, Ollama, or the sandbox's simulated model
 * (reference/upstream/wave2.md §A.2). One non-streaming `POST <baseUrl>/chat/completions` per attempt,
 * over HttpUpstream, each attempt under its own timeout, retried on its loop (no
 * budget: the operator runs or pays for the server).
 *
 * Failures are classified by sources/http/classify.ts (source `modelo`): 401/403 → unauthorized; 429 →
 * rate_limited (retried when Retry-After is at most maxRetryAfterMs); 5xx and network failures →
 * unavailable and timeouts → timeout (both retried); a 400/413/422 saying the prompt exceeds the
 * context → input_too_long; any other 4xx, a body that is not JSON, no `choices`, no content →
 * malformed. The API key never appears in a message.
 *
 * The answer's `<think>…</think>` reasoning (reasoning models put it in `content`) is removed;
 * `reasoning_content` is ignored.
 */
import type { ChatAnswer, ChatModel, ChatRequest } from '../../platform/ports/model.ts';
import type { SourceInfo } from '../../platform/ports/case-metadata.ts';
import type { RetryableSourceError } from '../../platform/ports/source-error.ts';
import type { UpstreamResponse } from '../http/attempt.ts';
import type { FixedRetryTuning } from '../http/backoff.ts';
import { upstreamError } from '../http/classify.ts';
import { HttpUpstream, operatorServer } from '../http/upstream.ts';
import type { RetryHooks } from '../http/waits.ts';
import { errorBodyNote, type BodyLimits } from '../http/body.ts';

export const SOURCE_NAME = 'modelo';

/** Sent as the bearer when no key is configured: Ollama's compatibility layer wants a non-empty one. */
export const PLACEHOLDER_API_KEY = 'tramita';

/** Retries: 2 after the first attempt, waiting 1 s then 4 s; a Retry-After over 30 s is not waited out (rate_limited). */
export interface ChatCompletionsOptions extends RetryHooks, FixedRetryTuning {
  /** Up to `/v1`, e.g. `http://127.0.0.1:11434/v1`; requests go to `<baseUrl>/chat/completions`. */
  baseUrl: string;
  /** `Authorization: Bearer <apiKey>`; omitted or empty: a placeholder. Never logged nor put in errors. */
  apiKey?: string;
  /** The `model` of each request. */
  model: string;
  /** Per attempt, headers and body included (default 120 000: CPU servers are slow). */
  timeoutMs?: number;
  /** Marks the simulated model (`info.sandbox`). */
  sandbox?: boolean;
  /** Sockets the connector's Agent may open (default 4). */
  connections?: number;
  /** Size and idle limits of an answer's body (TRAMITA_UPSTREAM_MAX_BYTES `modelo`). */
  body?: BodyLimits;
}

/** The model's failures (the one factory, sources/http/classify.ts). */
export const modelError = upstreamError(SOURCE_NAME);

const DEFAULT_TEMPERATURE = 0.2;

/**
 * What servers say when the prompt does not fit: OpenAI `context_length_exceeded`, vLLM "maximum
 * context length is N tokens", llama.cpp "exceeds the available context size", Anthropic-compatible
 * "prompt is too long", TGI "`inputs` tokens + `max_new_tokens` must be <= N".
 */
const CONTEXT_EXCEEDED = /context|too long|too many tokens|maximum.{0,20}length|input.{0,40}(length|tokens)|prompt.{0,40}tokens/i;

/**
 * The answer without reasoning: every `<think>…</think>` block, an unterminated `<think>` block (the
 * model was cut while thinking), and the reasoning before a lone `</think>` (chat templates that open
 * the block in the prompt), then trimmed.
 */
export function stripThinking(content: string): string {
  let text = content.replace(/<think>[\s\S]*?<\/think>/gi, '');
  const open = text.search(/<think>/i);
  if (open >= 0 && text.slice(0, open).trim() === '') text = '';
  const close = text.search(/<\/think>/i);
  if (close >= 0) text = text.slice(close + '</think>'.length);
  return text.trim();
}

/** `content` as a string, or the text of its parts (`[{type: 'text', text}]`); null when neither. */
function contentText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const parts = content.filter(
    (p): p is { text: string } =>
      typeof p === 'object' && p !== null && typeof (p as { text?: unknown }).text === 'string' && ((p as { type?: unknown }).type ?? 'text') === 'text',
  );
  return parts.length > 0 ? parts.map((p) => p.text).join('') : null;
}

const tokens = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

export class ChatCompletionsConnector implements ChatModel {
  readonly info: SourceInfo & { model: string };
  readonly #apiKey: string;
  /** The configured key, to scrub from messages (the placeholder is no secret). */
  readonly #secret: string | null;
  /** The model's answers hold the summary of a case (names of its parties): failures never quote them. */
  readonly #http: HttpUpstream;

  constructor(options: ChatCompletionsOptions) {
    this.info = { name: 'Modelo', sandbox: options.sandbox ?? false, model: options.model };
    this.#apiKey = options.apiKey || PLACEHOLDER_API_KEY;
    this.#secret = options.apiKey || null;
    const retries = { retries: 2, retryDelaysMs: [1_000, 4_000], maxRetryAfterMs: 30_000 };
    this.#http = new HttpUpstream({
      ...operatorServer(options, { timeoutMs: 120_000, connections: 4, retries }),
      source: SOURCE_NAME,
      label: 'The model server',
      error: modelError,
      classify: {
        own: (raw, where) => this.#contextExceeded(raw, where),
        // Any other refusal of the request: the server does not take what was sent as it is.
        refused: { other: 'malformed' },
        hints: { unauthorized: "Check TRAMITA_SUMMARY_API_KEY and the model's access." },
        redact: (text) => this.#redact(text),
      },
    });
  }

  async complete(req: ChatRequest): Promise<ChatAnswer> {
    const body = JSON.stringify({
      model: this.info.model,
      messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
      temperature: req.temperature ?? DEFAULT_TEMPERATURE,
      max_tokens: req.maxTokens,
      stream: false,
    });
    return this.#http.send('POST', '/chat/completions', {
      signal: req.signal,
      body,
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${this.#apiKey}` },
      read: (raw: UpstreamResponse) => {
        if (raw.status < 200 || raw.status >= 300) throw this.#http.failure(raw, '/chat/completions');
        return this.#answer(raw);
      },
    });
  }

  /** Ends what is in flight (a request or a wait for a retry fails at once) and closes the sockets: see HttpUpstream.close. */
  async close(): Promise<void> {
    await this.#http.close();
  }

  /** Never lets the key out, even when a server echoes it. */
  #redact(text: string): string {
    return this.#secret ? text.split(this.#secret).join('***') : text;
  }

  /** What a message says of an answer: its size, hash and error type, never its text (see #http). */
  #detail(raw: UpstreamResponse): string {
    return this.#redact(errorBodyNote(raw.body));
  }

  /** The model's own case of the ladder: a 413, or a 400/422 saying the prompt exceeds the context. */
  #contextExceeded(raw: UpstreamResponse, where: string): RetryableSourceError | undefined {
    const { status } = raw;
    if (status !== 413 && !((status === 400 || status === 422) && CONTEXT_EXCEEDED.test(raw.body.toString('utf8')))) return undefined;
    return modelError('input_too_long', `${where}: the prompt does not fit the model's context. ${this.#detail(raw)}`, { status });
  }

  #answer(raw: UpstreamResponse): ChatAnswer {
    const json = this.#http.json(raw, '/chat/completions');
    const r = (typeof json === 'object' && json !== null ? json : {}) as {
      choices?: unknown;
      model?: unknown;
      usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null;
    };
    if (!Array.isArray(r.choices) || r.choices.length === 0) {
      throw modelError('malformed', `The model answered without choices: ${this.#detail(raw)}`, { status: raw.status });
    }
    const choice = (r.choices[0] ?? {}) as { message?: { content?: unknown } | null; finish_reason?: unknown };
    const content = contentText(choice.message?.content);
    if (content === null) throw modelError('malformed', `The model's first choice has no message content: ${this.#detail(raw)}`, { status: raw.status });
    const usage = typeof r.usage === 'object' && r.usage !== null ? r.usage : {};
    return {
      text: stripThinking(content),
      model: typeof r.model === 'string' && r.model !== '' ? r.model : this.info.model,
      finishReason: typeof choice.finish_reason === 'string' && choice.finish_reason !== '' ? choice.finish_reason : 'unknown',
      promptTokens: tokens(usage.prompt_tokens),
      completionTokens: tokens(usage.completion_tokens),
    };
  }
}
