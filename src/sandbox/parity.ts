/**
 * Structural parity between a simulator's answer and a real capture (DESIGN.md §5: each simulator
 * answers with the structure of the real source, held so by a parity test). Values are not compared;
 * their shape is: which keys, in which order, the type of every value, the spelling of dates and
 * numbers (`2026-08-13T20:32:00.645` is not `13/08/2026`), HTML or plain text, and nesting.
 *
 * The capture is read into a shape per path (`publicacoes[].envolvidos[].identificacoes[]`: array
 * indexes merged, so an empty array in one item is described by the others), then the simulated answer
 * is checked against it, both ways:
 * - every value the simulator sends is of a kind the capture shows at that path, and every object has
 *   the capture's keys in the capture's order;
 * - every kind the capture shows at a path is sent by the simulator somewhere (a simulator that never
 *   fills a list, or never sends a date where the capture does, fails).
 * Where the capture cannot show everything (a key always null there, a value the real API sometimes
 * leaves null), `options` say what else is allowed, each with its reason in the test.
 */

/** The kind of one value: JSON type, plus the format of strings and numbers. */
export type Kind =
  | 'null'
  | 'boolean'
  | 'integer'
  | 'decimal'
  | 'array'
  | 'object'
  | 'string:iso-date'
  | 'string:iso-local-datetime'
  | 'string:iso-zoned-datetime'
  | 'string:br-date'
  | 'string:br-datetime'
  | 'string:html'
  | 'string:empty'
  | 'string:text';

const STRING_FORMATS: readonly [Kind, RegExp][] = [
  ['string:iso-date', /^\d{4}-\d{2}-\d{2}$/],
  ['string:iso-local-datetime', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?$/],
  ['string:iso-zoned-datetime', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/],
  ['string:br-date', /^\d{2}\/\d{2}\/\d{4}$/],
  ['string:br-datetime', /^\d{2}\/\d{2}\/\d{4}[ T]\d{2}:\d{2}(:\d{2})?$/],
  ['string:html', /^\s*</],
  ['string:empty', /^$/],
];

export function kindOf(v: unknown): Kind {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'boolean':
      return 'boolean';
    case 'number':
      return Number.isInteger(v) ? 'integer' : 'decimal';
    case 'string':
      return STRING_FORMATS.find(([, re]) => re.test(v))?.[0] ?? 'string:text';
    case 'object':
      return 'object';
    default:
      throw new TypeError(`not a JSON value: ${typeof v}`);
  }
}

/** Per path: the kinds seen, and for objects the key orders seen. */
export interface Shape {
  kinds: Map<string, Set<Kind>>;
  keys: Map<string, Set<string>>;
}

function walk(v: unknown, path: string, shape: Shape): void {
  const kind = kindOf(v);
  let kinds = shape.kinds.get(path);
  if (!kinds) {
    kinds = new Set();
    shape.kinds.set(path, kinds);
  }
  kinds.add(kind);
  if (kind === 'array') for (const e of v as unknown[]) walk(e, `${path}[]`, shape);
  if (kind === 'object') {
    const keys = Object.keys(v as object);
    let orders = shape.keys.get(path);
    if (!orders) {
      orders = new Set();
      shape.keys.set(path, orders);
    }
    orders.add(keys.join(','));
    for (const k of keys) walk((v as Record<string, unknown>)[k], path ? `${path}.${k}` : k, shape);
  }
}

/** The shape of one or several answers (several captures of one route merge into one shape). */
export function shapeOf(...answers: unknown[]): Shape {
  const shape: Shape = { kinds: new Map(), keys: new Map() };
  for (const a of answers) walk(a, '', shape);
  return shape;
}

export interface ParityOptions {
  /** Paths (as in the differences, `publicacoes[].publicacao`) where the simulator may also send these kinds, e.g. null where the real API sometimes does. */
  alsoAllowed?: Record<string, readonly Kind[]>;
  /** Paths whose kinds the capture shows but the simulator need not send every one of (e.g. a key always null in the capture that the simulator fills). */
  notRequired?: readonly string[];
}

const label = (path: string) => path || '(root)';

/** Every structural difference of `simulated` from `capture` (empty when they agree), one line each. */
export function structuralDifferences(capture: Shape | unknown, simulated: unknown, options: ParityOptions = {}): string[] {
  const real = isShape(capture) ? capture : shapeOf(capture);
  const sim = shapeOf(simulated);
  const out: string[] = [];
  for (const [path, kinds] of sim.kinds) {
    const allowed = real.kinds.get(path);
    if (!allowed) {
      out.push(`${label(path)}: the simulator sends it, the capture has no such path`);
      continue;
    }
    const extra = options.alsoAllowed?.[path] ?? [];
    for (const k of kinds)
      if (!allowed.has(k) && !extra.includes(k)) out.push(`${label(path)}: the simulator sends ${k}, the capture ${[...allowed].join(' | ')}`);
  }
  for (const [path, orders] of sim.keys) {
    const realOrders = real.keys.get(path);
    if (!realOrders) continue;
    for (const o of orders) if (!realOrders.has(o)) out.push(`${label(path)}: keys [${o}], the capture [${[...realOrders].join('] or [')}]`);
  }
  for (const [path, kinds] of real.kinds) {
    if (options.notRequired?.includes(path)) continue;
    const sent = sim.kinds.get(path);
    for (const k of kinds) if (!sent?.has(k)) out.push(`${label(path)}: the capture has ${k}, the simulator never sends it`);
  }
  return out;
}

function isShape(v: unknown): v is Shape {
  return typeof v === 'object' && v !== null && (v as Shape).kinds instanceof Map && (v as Shape).keys instanceof Map;
}
