/**
 * The language-model port: an OpenAI-compatible chat-completions server (hosted services, vLLM,
 * llama.cpp's server, Ollama; reference/upstream/wave2.md §A.2). Only non-streaming completions are
 * used. The connector lives in sources/chat/; the sandbox simulates one at `<sandbox>/llm/v1`.
 */
import type { SourceInfo } from './case-metadata.ts';

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

export interface ChatRequest {
  messages: ChatMessage[];
  /** `max_tokens` of the request. */
  maxTokens: number;
  /** Default 0.2. */
  temperature?: number;
  signal?: AbortSignal;
}

export interface ChatAnswer {
  /** `choices[0].message.content`, with any `<think>…</think>` block removed, trimmed. */
  text: string;
  /** The model that answered (`model` of the response), else the configured one. */
  model: string;
  /** `choices[0].finish_reason`: `stop`, `length` (cut by max_tokens), or whatever the server says. */
  finishReason: string;
  /** `usage.prompt_tokens` / `usage.completion_tokens`; null when the server omits them. */
  promptTokens: number | null;
  completionTokens: number | null;
}

export interface ChatModel {
  /** `name` is `Modelo`; `model` the configured model name. */
  readonly info: SourceInfo & { model: string };
  /**
   * One completion. Throws a SourceError (source `modelo`): `unauthorized` (401/403: misconfigured, not
   * worth retrying), `rate_limited` (429, with retryAfterMs), `unavailable` (5xx, network), `timeout`,
   * `malformed` (not JSON, no choices, no content), `input_too_long` (a 400 saying the context is exceeded).
   * 429 and 5xx are retried inside, honouring Retry-After, before giving up.
   */
  complete(request: ChatRequest): Promise<ChatAnswer>;
  close(): Promise<void>;
}
