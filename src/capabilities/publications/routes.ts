/**
 * Gazette publications of a case (spec §4.2 `/v1/processos/numero/{numero}/diarios-oficiais`): DJEN is
 * asked by process number when the store's copy is older than the freshness policy, then the stored
 * publications are listed newest first. May reach DJEN, so async-eligible.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { PageQuery } from '../../platform/http/pagination.ts';
import { listSchema } from '../../platform/http/list.ts';
import { listPage } from '../../platform/http/listing.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { parseCnj } from '../../platform/identifiers/cnj.ts';
import type { Services } from '../../platform/services.ts';
import type { PublicationParts } from './parts.ts';
import { publicationView } from './present.ts';
import { Publication } from './schemas.ts';
import { publicationsOfCase, storedPublication } from './store.ts';

const NumeroParams = Type.Object(
  {
    numero: Type.String({ minLength: 1, maxLength: 40, description: 'CNJ number, masked or 20 digits.' }),
  },
  { additionalProperties: false },
);

export function publicationRoutes(app: FastifyInstance, s: Services, pub: PublicationParts): void {
  defineRoute(app, {
    method: 'GET',
    url: '/v1/processos/numero/:numero/diarios-oficiais',
    meta: {
      class: 'lookup',
      auth: true,
      charge: 'processo.diarios_oficiais',
      async: true,
      tag: 'Processos',
      summary: 'Gazette publications of a case',
      description:
        "The case's communications in the national gazette (DJEN / Comunica PJe: intimações, citações, editais, pautas…), newest first, with the full text, " +
        "addressees, lawyers and the court's own link. DJEN is asked when the stored copy is older than TRAMITA_CASE_FRESH_MINUTES. `limit` 1–100, `cursor`. " +
        'One flat charge per page; an empty page is free.',
    },
    schema: { params: NumeroParams, querystring: Type.Object({ ...PageQuery }, { additionalProperties: false }), data: listSchema('items', Publication) },
    handler: async (req) => {
      const cnj = parseCnj(req.params.numero, 'numero');
      await pub.syncIfStale(`cnj:${cnj.digits}`, { numeroCnj: cnj.digits });
      const listing = `diarios:${cnj.digits}`;
      const { data, pagination, rows } = await listPage(req, s.config, {
        listing,
        keys: ['data', 'id'],
        read: (limit, before?: { data: string; id: string }) => publicationsOfCase(s.db, cnj.digits, { limit, before }),
        position: (r) => ({ data: r.data_disponibilizacao, id: r.id }),
        name: 'items',
        view: (items) => items.map((r) => publicationView(storedPublication(r), pub.links)),
      });
      return { data, meta: { pagination }, empty: rows.length === 0 };
    },
  });
}
