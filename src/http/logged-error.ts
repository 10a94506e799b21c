/**
 * What a log line says about an error: its class, a message that carries no request or response body, and
 * the stack's frames. Elysia's ValidationError puts the whole value it checked into its message (and so
 * into its stack's first lines): for a response that failed its schema, that is the answer itself, download
 * links and customer emails included. Such an error is described by where it failed, never by what it held;
 * any other message is kept to its first line and a bounded length, and the stack to its `at …` frames.
 */
import { ValidationError } from "elysia";

const MAX_MESSAGE = 200;

export interface LoggedError {
  class: string;
  message: string;
  stack?: string;
}

const firstLine = (text: string) => {
  const line = text.split("\n", 1)[0]!;
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE)}…` : line;
};

/** The schema paths a validation failed at, without the values found there. */
function validationSummary(error: ValidationError): string {
  const paths = new Set<string>();
  try {
    for (const issue of error.all) paths.add("path" in issue && issue.path ? String(issue.path) : "/");
  } catch {
    // describing the issues failed: the class and type still say what happened
  }
  return `${error.type} validation failed at ${[...paths].slice(0, 10).join(", ") || "/"}`;
}

export function loggedError(error: unknown): LoggedError {
  if (!(error instanceof Error)) return { class: typeof error, message: firstLine(String(error)) };
  const frames = (error.stack ?? "")
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .join("\n");
  const message = error instanceof ValidationError ? validationSummary(error) : firstLine(error.message);
  return { class: error.constructor?.name || error.name, message, ...(frames ? { stack: frames } : {}) };
}
