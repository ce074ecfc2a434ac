/** Request and response schemas of the publication monitors (spec §4.8); they feed validation and OpenAPI. */
import { Type } from 'typebox';
import { CourtsField, PublicationMonitor, SourcesField, WebhookUrlField } from '../publications/monitor-schemas.ts';
import { OabFields } from '../publications/oab-params.ts';
import { MAX_TERM_LENGTH } from './input.ts';

export const CreatePublicationMonitorBody = Type.Object(
  {
    tipo: Type.Optional(
      Type.Union([Type.Literal('TERMO'), Type.Literal('OAB'), Type.Literal('PROCESSO')], {
        description: 'What to follow; inferred from the field given when absent. With `tipo`, the value may also come in `termo`.',
      }),
    ),
    termo: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_TERM_LENGTH + 50,
        description: `A word or phrase (at least 3 letters or digits, at most ${MAX_TERM_LENGTH} characters; accents and case ignored), e.g. a party's name.`,
      }),
    ),
    ...OabFields,
    numero_cnj: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'A case number (masked or 20 digits): its gazette communications.' })),
    tribunais: CourtsField,
    fontes: SourcesField,
    webhook_url: WebhookUrlField,
  },
  { additionalProperties: false },
);

export const PublicationMonitorView = Type.Intersect([
  PublicationMonitor,
  Type.Object({
    reused: Type.Optional(Type.Boolean({ description: "On create: true when the account's live monitor of the same target was returned (free)." })),
  }),
]);
