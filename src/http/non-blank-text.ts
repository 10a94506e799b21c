import { t } from "elysia";

/**
 * A key or name a caller sends: up to 200 characters, not all whitespace. A blank id would create a
 * company or user that no later call can tell apart from a typo, so it is refused like an empty one;
 * a blank name (of a company, a user or a feature) names nothing a person can read.
 */
export const NonBlankText = (description?: string) =>
  t.String({
    minLength: 1,
    maxLength: 200,
    pattern: "\\S",
    "x-expected": "Expected a string of 1 to 200 characters, not all whitespace",
    ...(description ? { description } : {}),
  });
