/**
 * A table of integrators' twins gives the answer and its schema together: a `same` twin repeats our
 * value and our schema, a `derived` one reads the view as built (also a field a twin replaces), an
 * optional field left out stays out under both names, and the context reaches the twins that need it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { derived, integratorShape, integratorTables, same } from './integrator-fields.ts';

const Own = Type.Object({
  id: Type.String(),
  status: Type.Union([Type.Literal('ATIVO'), Type.Literal('REMOVIDO')], { description: 'Ours.' }),
  total: Type.Optional(Type.Integer()),
});

const shape = integratorShape('teste.gemeos', Own, {
  status: derived(Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')]), (v) => (v.status === 'ATIVO' ? ('ACTIVE' as const) : ('INACTIVE' as const))),
  situacao: same('status'),
  totalItems: same('total'),
  asked: derived(Type.Boolean(), (v, ids: string[]) => ids.includes(v.id)),
});

test('the answer has our fields and the twins, a replaced field in its place, computed from the view as built', () => {
  const out = shape.present({ id: 'a', status: 'ATIVO', total: 3 }, ['a']);
  assert.deepEqual(out, { id: 'a', status: 'ACTIVE', total: 3, situacao: 'ATIVO', totalItems: 3, asked: true });
  assert.deepEqual(Object.keys(out), ['id', 'status', 'total', 'situacao', 'totalItems', 'asked']);
  assert.ok(Value.Check(shape.schema, out));
});

test('an optional field left out stays out under both names', () => {
  const out = shape.present({ id: 'b', status: 'REMOVIDO' }, []);
  assert.ok(!('total' in out) && !('totalItems' in out));
  assert.ok(Value.Check(shape.schema, out));
});

test('the schema declares every twin: a same twin with our schema, optional when ours is, and says whose value it is', () => {
  const props = shape.schema.properties as Record<string, { description?: string; anyOf?: unknown[] }>;
  assert.deepEqual(Object.keys(props), ['id', 'status', 'total', 'situacao', 'totalItems', 'asked']);
  assert.equal(props.situacao.description, 'Same as `status`.');
  assert.equal(props.situacao.anyOf?.length, 2);
  assert.deepEqual(shape.schema.required, ['id', 'status', 'situacao', 'asked']);
  assert.ok(!Value.Check(shape.schema, { id: 'c', status: 'ATIVO', situacao: 'ATIVO', asked: false }), "status is the integrators' now");
});

test('a table is declared once, and every twin is listed for the generated docs', () => {
  assert.throws(() => integratorShape('teste.gemeos', Own, {}), /declared twice/);
  assert.deepEqual(
    integratorTables.get('teste.gemeos')?.map((t) => [t.alias, t.of, t.replaces]),
    [
      ['status', null, true],
      ['situacao', 'status', false],
      ['totalItems', 'total', false],
      ['asked', null, false],
    ],
  );
});
