/** The OAB of a request moved to platform/http/oab-params.ts (several capabilities read it); kept here for the importers not yet moved. */
export { OabFields, oabOfRequest } from '../../platform/http/oab-params.ts';
