/**
 * What the parties capability lets others use (its door): the search of parties at the courts (by
 * CPF/CNPJ, by a party's name, by a lawyer's OAB), its fan-out kept, and what a route says of it.
 * The search by term (search/) and the lawyers' processes (lawyers/) ask through here.
 */
export { assertAnswered, COURT_SEARCH_NOTE, searchCourts, searchPartyCases, type CourtSources } from './court-search.ts';
