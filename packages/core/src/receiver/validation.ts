import { WebhookVerificationError } from "../errors";
import type { StandardIssue, StandardSchemaV1 } from "./standard-schema";

export interface ValidationFailure {
  error: WebhookVerificationError;
  issues: { message: string; path: string }[];
}

function pathOf(issue: StandardIssue): string {
  return (issue.path ?? []).map((segment) => String(typeof segment === "object" ? segment.key : segment)).join(".");
}

/** Runs a Standard Schema validator; returns its output, or the issues as a 400 `invalid_payload`. */
export async function validateEvent(
  schema: StandardSchemaV1,
  event: object,
  type: string,
): Promise<{ value: unknown } | ValidationFailure> {
  const result = await schema["~standard"].validate(event);
  if (!result.issues) return { value: result.value };
  const issues = result.issues.map((issue) => ({ message: issue.message, path: pathOf(issue) }));
  const summary = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join("; ");
  return {
    error: new WebhookVerificationError("invalid_payload", `The "${type}" event failed its schema: ${summary}`),
    issues,
  };
}
