// Type-checks the TypeScript types openapi-typescript generates from the
// committed spec (tsc --strict): the shapes table software would compile
// against. Each @ts-expect-error line must fail to type-check, so a spec
// that loosened a type (an enum become a string, a required field become
// optional) fails this check too.
import type { components, paths } from "./generated/api";

type Schemas = components["schemas"];

type EvaluateBody =
  paths["/v1/hands/evaluate"]["post"]["requestBody"]["content"]["application/json"];
type EvaluateOK =
  paths["/v1/hands/evaluate"]["post"]["responses"][200]["content"]["application/json"];
type Problem =
  paths["/v1/hands/evaluate"]["post"]["responses"][422]["content"]["application/problem+json"];

export const evaluate: EvaluateBody = { cards: "8C TS KC 9H 4S", game: "five_card" };

// @ts-expect-error game is an enum, not any string
export const badGame: EvaluateBody = { cards: "As Ks Qs Js Ts", game: "poker" };

// @ts-expect-error cards is required
export const noCards: EvaluateBody = { game: "poker" };

export function describe(r: EvaluateOK): string {
  const rules: string[] = r.rules ?? [];
  return `${r.category} ${r.best} rank ${r.rank} (${rules.join(", ")})`;
}

// Every error is an RFC 9457 problem whose errors name the failing field.
export function failingFields(p: Problem): string[] {
  return (p.errors ?? []).map((e) => e.location ?? "");
}

export const sampleProblem: Schemas["ErrorModel"] = {
  type: "about:blank",
  title: "Unprocessable Entity",
  status: 422,
  detail: "a card cannot be read",
  errors: [{ location: "body.cards", message: "\"1x\" is not a card" }],
};
