/**
 * Tells a page that challenges a person (a captcha, a Cloudflare/Turnstile check, a login wall, an
 * anti-bot block) from data (DESIGN.md §8, issue 31 item 2). Such a page is never passed: the request
 * is SOURCE_UNAVAILABLE with `details.failure` = the kind returned here, uncharged, never "not found".
 * A captcha compiled out of the page's script (PJe TJCE's `if (false)`) is not shown and is no challenge.
 */
export type ChallengeKind = 'captcha' | 'anti_bot' | 'login';

export interface Challenge {
  kind: ChallengeKind;
  /** Why, for the error's message and the logs (never page content). */
  reason: string;
}

/** The challenge a consultation's answer shows, or null when it shows none. */
export function detectChallenge(body: string, status: number): Challenge | null {
  void body;
  void status;
  throw new Error('detectChallenge: written in the PJe branch (issue 31)');
}
