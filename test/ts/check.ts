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

type SettleBody =
  paths["/v1/rounds/settle"]["post"]["requestBody"]["content"]["application/json"];
type SettleOK =
  paths["/v1/rounds/settle"]["post"]["responses"][200]["content"]["application/json"];

export const round: SettleBody = {
  ruleset: "mbs-megalink-ssp-v6",
  roundId: "T12-000123",
  dealer: "As Kd 7h 4c 2s",
  positions: [{ seat: 1, cards: "Qh Qd Qs 9c 9d", wagers: { ante: 1000, bet: 2000, progressive: 100 } }],
};

// @ts-expect-error ruleset is one of the five ids
export const badRuleset: SettleBody = { ...round, ruleset: "mbs-megalink-ssp-v9" };

// @ts-expect-error amounts are integers of minor units, not strings
export const badAmount: SettleBody = { ...round, positions: [{ seat: 1, wagers: { ante: "10.00" } }] };

export function houseNet(s: SettleOK): number {
  return s.totals.houseNet;
}

type RulesetOK =
  paths["/v1/rulesets/{id}"]["get"]["responses"][200]["content"]["application/json"];

// Every price as the document writes it, e.g. "progressive four_of_a_kind: $2,000".
export function prices(r: RulesetOK): string[] {
  return r.wagers.flatMap((w) => w.paytable.map((l) => `${w.name} ${l.hand}: ${l.pays.asWritten}`));
}

// Issue 15 section 5: a replayed create is a declared success with the
// pool's body; casinos are one upper-case schema; arrays the server always
// sends are plain arrays, not "array or null", so no null check is needed.
type CreatePoolReplayed =
  paths["/v1/pools"]["post"]["responses"][200]["content"]["application/json"];
type PoolConflict =
  paths["/v1/pools"]["post"]["responses"][409]["content"]["application/problem+json"];
export function casinoOf(p: CreatePoolReplayed): Schemas["Casino"] {
  return p.casino;
}
export const conflictStatus = (p: PoolConflict): number => p.status ?? 409;
// @ts-expect-error casinos are MBS or RWS, upper case everywhere
export const lowerCasino: Schemas["Casino"] = "mbs";
export const rulesetId: Schemas["RulesetId"] = "rws-mlp-csp-v2";
export function lineCount(s: SettleOK): number {
  return s.positions.reduce((n, p) => n + p.lines.length, 0);
}
