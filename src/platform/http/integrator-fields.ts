/**
 * The integrators' twins of a REST answer's fields, declared once (issue 33; events do the same in
 * events/integrator-shape.ts). Integrators of the commercial service read names of their own beside
 * Tramita's (reference/integrator-conventions.md): `numero_cnj` beside `numeroCnj`, `credits` beside
 * `saldo`. A resource declares them in one table, each twin either `same('ours')` (our field's very
 * value under their name, its schema taken from ours) or `derived(schema, view => value)` (their
 * vocabulary: `ACTIVE` for `ATIVO`, a block they read). From that table come both the presenter
 * (`present`: our view plus the twins) and the response schema (`schema`: ours plus the twins, used by
 * Fastify's serializer and the OpenAPI), so a twin cannot be answered and left undeclared, or the reverse.
 * A twin that carries an own field's name (`status` of intimação monitors) takes that field's place.
 * Everything is built at module load: presenting is one pass over two small arrays, no schema work.
 * docs/integracao.md lists every table: which name is the spec's, which the integrators'.
 */
import { Type, type Static, type TObject, type TProperties, type TSchema } from 'typebox';
import { formatDateBr } from '../format.ts';

/** A twin holding the same value as our field `of`. */
export interface Same<K extends string> {
  readonly kind: 'same';
  readonly of: K;
  readonly description?: string;
}
/**
 * A twin computed from our view: the integrators' vocabulary for one of our values, or a block they
 * read; `context` is what the answer knows beside the view (the page's offset, the OABs asked for).
 */
export interface Derived<V, R, C = undefined> {
  readonly kind: 'derived';
  readonly schema: TSchema;
  readonly value: (view: V, context: C) => R;
}

export const same = <K extends string>(of: K, description?: string): Same<K> => ({ kind: 'same', of, description });
export const derived = <V, R, C = undefined>(schema: TSchema, value: (view: V, context: C) => R): Derived<V, R, C> => ({ kind: 'derived', schema, value });

/** Our view's type: the schema's, where a field TypeBox cannot type (a union built from an array: `never`) takes any value. */
export type OwnView<O extends TObject> = { [K in keyof Static<O>]: [Static<O>[K]] extends [never] ? unknown : Static<O>[K] };

// biome-ignore lint/suspicious/noExplicitAny: any context: each derived twin names its own.
type Twin<V> = Same<keyof V & string> | Derived<V, unknown, any>;
type TwinValue<V, T> = T extends Same<infer K> ? (K extends keyof V ? V[K] : never) : T extends Derived<V, infer R, infer _> ? R : never;
type ContextOf<T> = { [A in keyof T]: T[A] extends Derived<infer _V, infer _R, infer C> ? ([C] extends [undefined] ? never : C) : never }[keyof T];
/** The presenter's arguments: the view, and the context when a twin needs one. */
type PresentArgs<V, T> = [ContextOf<T>] extends [never] ? [view: V] : [view: V, context: ContextOf<T>];
export type WithTwins<V, T> = Omit<V, keyof T> & { [A in keyof T]: TwinValue<V, T[A]> };

export interface IntegratorShape<V, T, P extends TProperties = TProperties> {
  /** Ours and the twins: the response schema. */
  readonly schema: TObject<Omit<P, keyof T> & { [A in keyof T]: TSchema }>;
  /** The integrators' names this table declares. */
  readonly aliases: readonly string[];
  /** Our view with the twins added (in place: the view is the presenter's own fresh object). */
  present(...args: PresentArgs<V, T>): WithTwins<V, T>;
}

/** One twin as docs/integrator-fields.md lists it: `of` is our field it repeats, null when derived. */
export interface TwinEntry {
  alias: string;
  of: string | null;
  replaces: boolean;
  description: string | null;
}

/** Every table, by name, in declaration order (docs/integrator-fields.md is generated from it). */
export const integratorTables = new Map<string, readonly TwinEntry[]>();

/**
 * Twins that mean the same on every resource that has the field they repeat, so each is written once:
 * `numero_cnj` is the masked CNJ number of `numeroCnj`; `data` is the Brasília day (dd/mm/aaaa) of a
 * movement's or tramitação's `dataHora`, the string webhooks send in `event_data.data`.
 */
export const CNJ_TWINS = { numero_cnj: same('numeroCnj', 'Masked; same as `numeroCnj`.') } as const;
export const DAY_TWINS = {
  data: derived(
    Type.String({ description: 'The day of `dataHora`, dd/mm/aaaa in Brasília: the same string webhooks send in `event_data.data`.' }),
    (v: { dataHora: string }) => formatDateBr(v.dataHora),
  ),
} as const;

/** A copy of `schema` (its TypeBox marks included) with another description. */
function described(schema: TSchema, description: string): TSchema {
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(schema)) as TSchema & { description?: string };
  copy.description = description;
  return copy;
}

/**
 * The twins of `own` (our fields' schema), named `name` in docs/integracao.md. `options` are the
 * schema's own (additionalProperties, description), kept from `own` when not given.
 */
export function integratorShape<O extends TObject, T extends Record<string, Twin<OwnView<O>>>>(
  name: string,
  own: O,
  table: T,
): IntegratorShape<OwnView<O>, T, O['properties']> {
  type V = OwnView<O>;
  if (integratorTables.has(name)) throw new Error(`integrator table "${name}" declared twice`);
  const properties: TProperties = { ...own.properties };
  // In the table's order, so an answer lists the twins as the table does.
  const twins: { alias: string; of: string | null; value: ((view: V, context: unknown) => unknown) | null }[] = [];
  for (const [alias, twin] of Object.entries(table) as [string, Twin<V>][]) {
    if (twin.kind === 'same') {
      const ours = own.properties[twin.of];
      if (!ours) throw new Error(`${name}.${alias}: no field "${twin.of}" to repeat`);
      properties[alias] = described(ours, twin.description ?? `Same as \`${twin.of}\`.`);
      twins.push({ alias, of: twin.of, value: null });
    } else {
      properties[alias] = twin.schema;
      twins.push({ alias, of: null, value: twin.value });
    }
  }
  const { properties: _, ...options } = own as TObject & Record<string, unknown>;
  const schema = Type.Object(properties, Object.fromEntries(Object.entries(options).filter(([k]) => !k.startsWith('~') && k !== 'type' && k !== 'required')));
  const aliases = Object.keys(table);
  const replacing = aliases.some((a) => a in own.properties);
  integratorTables.set(
    name,
    twins.map((t) => ({
      alias: t.alias,
      of: t.of,
      replaces: t.alias in own.properties,
      description: (properties[t.alias] as { description?: string }).description ?? null,
    })),
  );
  return {
    schema: schema as TObject<Omit<O['properties'], keyof T> & { [A in keyof T]: TSchema }>,
    aliases,
    present(...[view, context]: PresentArgs<V, T>) {
      const ours = view as Record<string, unknown>;
      // Every twin reads the view as built: when one takes the place of a field, all are read first.
      const values = replacing ? twins.map((t) => (t.value ? t.value(view, context) : ours[t.of!])) : null;
      for (let i = 0; i < twins.length; i++) {
        const t = twins[i];
        const value = values ? values[i] : t.value ? t.value(view, context) : ours[t.of!];
        // An optional field left out stays out under both names.
        if (value !== undefined) ours[t.alias] = value;
      }
      return ours as WithTwins<V, T>;
    },
  };
}
