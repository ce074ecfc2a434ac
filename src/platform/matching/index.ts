/** Publication matching: every monitor (OAB, term, case number) against a publication in one pass. */
export { decodeHtmlEntities, foldText, foldTerm, FoldedText } from './fold.ts';
export { extractOabMentions, oabKey, oabKeyCanonical, oabKeyOfParts } from './oab-mentions.ts';
export { extractCnjMentions } from './cnj-mentions.ts';
export { TermIndex, type TermIndexStats } from './term-index.ts';
export {
  PublicationMatcher,
  type MatchablePublication,
  type MatcherStats,
  type MatchPattern,
  type PatternKind,
  type RejectedPattern,
} from './matcher.ts';
