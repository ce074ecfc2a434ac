/**
 * The simulated model's own misbehaviours, beside the fault layer's (status, latency, hang, malformed,
 * which apply to `llm` like to any upstream). Each is what a real OpenAI-compatible server does:
 * - `emptyChoices`: a 200 with `choices: []` (some proxies on a filtered answer);
 * - `finishLength`: the answer cut at half with `finish_reason: "length"`, as when max_tokens runs out;
 * - `contextError`: a 400 `context_length_exceeded` (OpenAI, vLLM) for a prompt above 1 000 characters;
 * - `think`: a `<think>…</think>` block before the answer (reasoning models such as DeepSeek-R1, Qwen3);
 * - `silentTruncationChars`: reads only the last N characters of the prompt and reports that many
 *   tokens in `usage.prompt_tokens`, like Ollama cutting a prompt longer than its `num_ctx` in silence;
 * - `times`: for the next N completions, then back to normal; omitted: until reset.
 * Controlled in process (`sandbox.llm`) or over HTTP (`PUT`/`GET`/`DELETE /_sandbox/llm`).
 */

export interface LlmKnobs {
  emptyChoices?: boolean;
  finishLength?: boolean;
  contextError?: boolean;
  think?: boolean;
  silentTruncationChars?: number;
  times?: number;
}

export interface ActiveLlmKnobs {
  emptyChoices: boolean;
  finishLength: boolean;
  contextError: boolean;
  think: boolean;
  silentTruncationChars: number | null;
  /** Completions left before reverting; null: until reset. */
  remaining: number | null;
}

export class LlmKnobError extends RangeError {}

const BOOLEANS = ['emptyChoices', 'finishLength', 'contextError', 'think'] as const;
const KEYS = new Set<string>([...BOOLEANS, 'silentTruncationChars', 'times']);

const isInt = (v: unknown, min: number) => typeof v === 'number' && Number.isInteger(v) && v >= min;

export function parseLlmKnobs(input: unknown): LlmKnobs {
  const fail = (message: string) => {
    throw new LlmKnobError(`llm: ${message}`);
  };
  if (typeof input !== 'object' || input === null || Array.isArray(input)) fail('expected a JSON object');
  const r = input as Record<string, unknown>;
  for (const key of Object.keys(r)) if (!KEYS.has(key)) fail(`unknown setting "${key}" (known: ${[...KEYS].join(', ')})`);
  for (const key of BOOLEANS) if (r[key] !== undefined && typeof r[key] !== 'boolean') fail(`${key} must be a boolean`);
  if (r.silentTruncationChars !== undefined && !isInt(r.silentTruncationChars, 1)) fail('silentTruncationChars must be an integer ≥ 1');
  if (r.times !== undefined && !isInt(r.times, 1)) fail('times must be an integer ≥ 1');
  return r as LlmKnobs;
}

const NORMAL: ActiveLlmKnobs = { emptyChoices: false, finishLength: false, contextError: false, think: false, silentTruncationChars: null, remaining: null };

export class SandboxLlm {
  #active: ActiveLlmKnobs = { ...NORMAL };

  /** Replaces every knob; throws LlmKnobError on a bad setting. */
  set(knobs: LlmKnobs): void {
    const k = parseLlmKnobs(knobs);
    this.#active = {
      emptyChoices: k.emptyChoices ?? false,
      finishLength: k.finishLength ?? false,
      contextError: k.contextError ?? false,
      think: k.think ?? false,
      silentTruncationChars: k.silentTruncationChars ?? null,
      remaining: k.times ?? null,
    };
  }

  get(): ActiveLlmKnobs {
    return { ...this.#active };
  }

  reset(): void {
    this.#active = { ...NORMAL };
  }

  /** The knobs for one completion, counting down `times`. */
  take(): ActiveLlmKnobs {
    const now = { ...this.#active };
    if (this.#active.remaining !== null && --this.#active.remaining <= 0) this.reset();
    return now;
  }
}
