/**
 * The price table: per plan, per query type, in integer centavos. Loaded from TRAMITA_PRICES_FILE
 * (default `config/prices.json`, documented in docs/credits.md) and checked at start: a charged route
 * whose query type has no price in the default plan stops the server, so nothing is ever priced by accident.
 * A plan may inherit another and exclude query types; an excluded type is 403 OPERATION_NOT_ALLOWED.
 */
import fs from 'node:fs';
import { ApiError } from '../errors.ts';

export interface PlanSpec {
  description?: string;
  inherits?: string;
  prices?: Record<string, number>;
  exclude?: string[];
}

export interface PriceFile {
  currency: 'BRL';
  defaultPlan: string;
  queryTypes: Record<string, string>;
  plans: Record<string, PlanSpec>;
}

export class PriceTableError extends Error {}

export class PriceTable {
  readonly defaultPlan: string;
  readonly queryTypes: Readonly<Record<string, string>>;
  readonly #plans = new Map<string, Map<string, number>>();
  readonly #descriptions = new Map<string, string>();

  constructor(file: PriceFile) {
    if (file.currency !== 'BRL') throw new PriceTableError('currency must be "BRL"');
    this.queryTypes = file.queryTypes ?? {};
    this.defaultPlan = file.defaultPlan;
    for (const name of Object.keys(file.plans ?? {})) this.#plans.set(name, this.#resolve(file, name, []));
    if (!this.#plans.has(this.defaultPlan)) throw new PriceTableError(`defaultPlan "${this.defaultPlan}" is not a plan`);
    for (const [name, spec] of Object.entries(file.plans)) this.#descriptions.set(name, spec.description ?? '');
  }

  static fromFile(path: string): PriceTable {
    let parsed: PriceFile;
    try {
      parsed = JSON.parse(fs.readFileSync(path, 'utf8'));
    } catch (e) {
      throw new PriceTableError(`cannot read price table ${path}: ${(e as Error).message}`);
    }
    return new PriceTable(parsed);
  }

  #resolve(file: PriceFile, name: string, seen: string[]): Map<string, number> {
    const spec = file.plans[name];
    if (!spec) throw new PriceTableError(`plan "${seen.at(-1)}" inherits unknown plan "${name}"`);
    if (seen.includes(name)) throw new PriceTableError(`plans inherit in a cycle: ${[...seen, name].join(' → ')}`);
    const prices = spec.inherits ? new Map(this.#resolve(file, spec.inherits, [...seen, name])) : new Map<string, number>();
    for (const [type, centavos] of Object.entries(spec.prices ?? {})) {
      if (!(type in this.queryTypes)) throw new PriceTableError(`plan "${name}" prices unknown query type "${type}"`);
      if (!Number.isInteger(centavos) || centavos < 0)
        throw new PriceTableError(`plan "${name}": price of "${type}" must be whole centavos ≥ 0, got ${centavos}`);
      prices.set(type, centavos);
    }
    for (const type of spec.exclude ?? []) prices.delete(type);
    return prices;
  }

  hasPlan(plan: string): boolean {
    return this.#plans.has(plan);
  }

  plans(): { name: string; description: string }[] {
    return [...this.#plans.keys()].map((name) => ({ name, description: this.#descriptions.get(name) ?? '' }));
  }

  /** Throws at start-up when a charged route names a type the default plan does not price. */
  assertPriced(queryType: string): void {
    if (!this.#plans.get(this.defaultPlan)!.has(queryType)) {
      throw new PriceTableError(`query type "${queryType}" has no price in the default plan "${this.defaultPlan}"`);
    }
  }

  /** Price in centavos for this plan, or 403 OPERATION_NOT_ALLOWED when the plan excludes it. */
  priceFor(plan: string, queryType: string): number {
    const price = (this.#plans.get(plan) ?? this.#plans.get(this.defaultPlan)!).get(queryType);
    if (price === undefined) throw new ApiError('OPERATION_NOT_ALLOWED', `The plan "${plan}" does not include "${queryType}".`, { queryType, plan });
    return price;
  }

  pricesOf(plan: string): { queryType: string; description: string; centavos: number }[] {
    const prices = this.#plans.get(plan) ?? this.#plans.get(this.defaultPlan)!;
    return [...prices].map(([queryType, centavos]) => ({ queryType, description: this.queryTypes[queryType] ?? '', centavos }));
  }
}

/** Centavos as the API shows them: BRL with two decimals, a JSON number (e.g. 5 → 0.05). */
export function toBrl(centavos: number): number {
  return Math.round(centavos) / 100;
}
