import type { Message } from '@portal/server';
import type { SavedQuote } from '../contract';
import { type QuoteOutcome, type TermMessage, textOf } from '../engine/index';

/**
 * The outcome in the user's language: each check's rule (from its words) and each benefit's term messages. The
 * stored outcome keeps the English. A check stored before checks carried their words (no `text`) has its English
 * message looked up as it is.
 */
export function outcomeIn(outcome: QuoteOutcome, t: (message: Message) => string): QuoteOutcome {
  return {
    ...outcome,
    companies: outcome.companies.map((company) => ({
      ...company,
      checks: company.checks.map((check) => ({ ...check, message: t(check.text ? textOf(check.text) : check.message) })),
    })),
    // The same messages in the user's language (TermMessage names their English).
    benefits: outcome.benefits.map((benefit) => ({ ...benefit, messages: benefit.messages.map((message) => t(message) as TermMessage) })),
  };
}

/** A saved quote as answered: its outcome in the user's language. */
export const savedIn = (saved: SavedQuote, t: (message: Message) => string): SavedQuote => ({ ...saved, Outcome: outcomeIn(saved.Outcome, t) });
